import Foundation

/// Where Courier keeps what outlives a run (history, cookie jars, the files redirects wrote, the demo's
/// copy): `$XDG_STATE_HOME/courier` when that is absolute (the XDG rule), else `~/.local/state/courier`.
public enum StateFolder {
    /// The folder `name` inside Courier's state folder for `environment` (the process's by default).
    public static func url(_ name: String,
                           environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("courier").appendingPathComponent(name)
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return home.appendingPathComponent(".local/state/courier").appendingPathComponent(name)
    }
}
