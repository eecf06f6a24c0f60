import Glibc

/// What is kept and how it is protected: crash reports are few, private and never executable.
public enum CrashReportPolicy {
    /// The folder never holds more reports than this: start-up prunes to one less, a crash adds one.
    public static let keptReports = 20
    /// Reports may show where in the code a request was; only the user reads them.
    public static let fileMode: mode_t = 0o600
    /// The folder and any parent the handler creates, as XDG asks for state folders.
    public static let folderMode: mode_t = 0o700
    /// Report files are `courier-<UTC time>-<pid>.crash`; only these are ever pruned.
    public static let filePrefix = "courier-"
    /// See `filePrefix`.
    public static let fileSuffix = ".crash"
}

/// The folder crash reports go to, `$XDG_STATE_HOME/courier/crashes` (default
/// `~/.local/state/courier/crashes`), with the names of its reports and their pruning. Nothing here runs
/// in a signal handler; the folder itself is created only when a crash happens.
public struct CrashReportFolder: Sendable, Equatable {
    /// The absolute path of the folder.
    public let path: String

    /// The folder at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The folder for `environment`: `XDG_STATE_HOME` when it is absolute (the XDG rule), else under
    /// `HOME`; nil when neither gives an absolute path.
    public static func resolve(environment: [String: String]) -> CrashReportFolder? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return CrashReportFolder(path: join(state, "courier/crashes"))
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return CrashReportFolder(path: join(home, ".local/state/courier/crashes"))
        }
        return nil
    }

    /// The report name for a process started at `startedAt` (seconds since 1970) with `pid`:
    /// `courier-20261129T205501Z-4242.crash`. Names sort by start time.
    public static func fileName(startedAt: Int, pid: Int32) -> String {
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        defer { bytes.deallocate() }
        var text = SignalSafeText(buffer: bytes, capacity: 64)
        text.append(utc: startedAt, compact: true)
        return CrashReportPolicy.filePrefix + text.string + "-\(pid)" + CrashReportPolicy.fileSuffix
    }

    /// The full path of the report for a process started at `startedAt` with `pid`.
    public func reportPath(startedAt: Int, pid: Int32) -> String {
        CrashReportFolder.join(path, CrashReportFolder.fileName(startedAt: startedAt, pid: pid))
    }

    /// The folder and each of its ancestors, outermost first: what a handler creates (`mkdir` fails
    /// harmlessly for those that exist).
    public var foldersToCreate: [String] {
        var folders: [String] = []
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + String(component)
            folders.append(current)
        }
        return folders
    }

    /// The names of the reports in the folder, oldest first; empty when there is no folder.
    public func reports() -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix(CrashReportPolicy.filePrefix) && name.hasSuffix(CrashReportPolicy.fileSuffix) {
                names.append(name)
            }
        }
        return names.sorted()
    }

    /// Removes the oldest reports so that at most `keeping` remain; returns the names removed. Called at
    /// start-up, never in a handler. Files that are not reports are left alone.
    @discardableResult
    public func prune(keeping: Int = CrashReportPolicy.keptReports - 1) -> [String] {
        let names = reports()
        guard names.count > keeping else { return [] }
        let doomed = Array(names.prefix(names.count - max(0, keeping)))
        return doomed.filter { unlink(CrashReportFolder.join(path, $0)) == 0 }
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
