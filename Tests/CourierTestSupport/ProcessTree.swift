import Foundation

/// What `/proc` says about a process and the processes it started: for tests that look at the script
/// processes Courier starts (are they there, computing, gone; what environment they got).
public enum ProcessTree {
    /// The processes `pid` started, and theirs, found by their parent in `/proc/*/stat`.
    public static func descendants(of pid: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        var parents: [pid_t: pid_t] = [:]
        for entry in entries {
            guard let child = pid_t(entry), let fields = statFields(child), fields.count > 1,
                  let parent = pid_t(fields[1]) else { continue }
            parents[child] = parent
        }
        var found: [pid_t] = []
        var frontier = [pid]
        while let next = frontier.popLast() {
            let children = parents.filter { $0.value == next }.map(\.key)
            found += children
            frontier += children
        }
        return found
    }

    /// `pid`'s descendants whose command line is `courier __script` (Courier's script processes) and that
    /// have not ended.
    public static func scriptProcesses(under pid: pid_t) -> [pid_t] {
        descendants(of: pid).filter { isRunning($0) && commandLine($0).last == "__script" }
    }

    /// True while `pid` exists and has not ended (a zombie, ended but not yet reaped, counts as ended).
    public static func isRunning(_ pid: pid_t) -> Bool {
        guard let state = statFields(pid)?.first else { return false }
        return state != "Z" && state != "X"
    }

    /// True while `pid` is computing: running, or ready to run and waiting for a core (state R).
    public static func isComputing(_ pid: pid_t) -> Bool { statFields(pid)?.first == "R" }

    /// The words `pid` was started with.
    public static func commandLine(_ pid: pid_t) -> [String] {
        words(FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"))
    }

    /// The `NAME=value` entries of `pid`'s environment as it was started.
    public static func environment(_ pid: pid_t) -> [String] {
        words(FileManager.default.contents(atPath: "/proc/\(pid)/environ"))
    }

    private static func words(_ data: Data?) -> [String] {
        (data ?? Data()).split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The fields of `/proc/PID/stat` after the command's name (which may hold spaces and parentheses):
    /// the state first, then the parent's pid, and so on.
    private static func statFields(_ pid: pid_t) -> [String]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let name = text.range(of: ") ", options: .backwards) else { return nil }
        return text[name.upperBound...].split(separator: " ").map(String.init)
    }
}
