import Foundation

/// Named variables of the process environment, read one by one: building `ProcessInfo`'s whole environment as
/// a dictionary is start-up work that a one-shot command does not otherwise need.
public enum ProcessEnvironment {
    /// The variables among `names` that are set, by name.
    public static func values(_ names: [String]) -> [String: String] {
        var found: [String: String] = [:]
        for name in names {
            if let value = getenv(name) { found[name] = String(cString: value) }
        }
        return found
    }
}
