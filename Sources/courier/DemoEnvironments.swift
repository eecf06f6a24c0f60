import CourierCollections
import Foundation

/// Which environments of the demo collection `courier demo` points at its server, and the sentence saying so.
enum DemoEnvironments {
    /// The demo collection's own environment, for the demo server wherever it listens.
    static let own = "demo"

    /// Says where `{{base}}` goes: the demo server for `demo` and the environments without a base, and
    /// which environments keep a base of their own (the status bar shows the address itself).
    static func notice(collection path: String) -> String {
        let file = URL(fileURLWithPath: path)
        let set = try? EnvironmentSet.discover(near: file, root: file.deletingLastPathComponent())
        let names = set?.names ?? []
        let own = names.filter { name in
            name != Self.own && (try? set?.environment(named: name).values["base"]) != nil
        }
        let filled = names.filter { !own.contains($0) }
        var text = "{{base}} is the demo server in \(filled.isEmpty ? Self.own : filled.joined(separator: ", "))"
        if own.count == 1 { text += "; \(own[0]) keeps its own" }
        if own.count > 1 { text += "; \(own.joined(separator: ", ")) keep their own" }
        return text
    }
}
