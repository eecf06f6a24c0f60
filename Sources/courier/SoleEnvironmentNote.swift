import CourierCollections
import Foundation
import Synchronization

/// The note `courier run` and `courier check` print when they choose an environment because no `--env` was
/// given (`EnvironmentSet.defaultChoice`): once per name, on standard error, so standard output stays the
/// results; it names the others, so choosing one of them is one option away.
enum SoleEnvironmentNote {
    private static let said = Mutex<Set<String>>([])

    static func say(_ choice: EnvironmentSet.DefaultChoice, among names: [String]) {
        let first = said.withLock { $0.insert(choice.name).inserted }
        guard first else { return }
        // The only environment has no others worth naming (a `.env.example` template is not one).
        let others = choice.reason == .sole ? [] : names.filter { $0 != choice.name }
        let choose = others.isEmpty ? "" : "; the others: \(others.joined(separator: ", ")) (--env NAME)"
        Console.error("note: no --env given; using '\(choice.name)', \(choice.explanation)\(choose)")
    }
}
