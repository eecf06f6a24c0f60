import Foundation
import Synchronization

/// The note `courier run` and `courier check` print when they use the only environment the files define
/// because no `--env` was given: once per name, on standard error, so standard output stays the results.
enum SoleEnvironmentNote {
    private static let said = Mutex<Set<String>>([])

    static func say(_ name: String) {
        let first = said.withLock { $0.insert(name).inserted }
        guard first else { return }
        Console.error("note: no --env given; using '\(name)', the only environment the environment files define")
    }
}
