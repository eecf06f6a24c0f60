import Foundation

/// A second process that keeps one core busy (a shell spinning), as the machine is when a build or a test suite
/// runs beside the tool: #34's goals hold under that. The benchmarks of whole processes run once on the quiet
/// machine and once beside it.
enum BusyCore {
    /// Starts the spinner; nil when it cannot start.
    static func start() -> pid_t? {
        var pid: pid_t = 0
        let arguments = ["/bin/sh", "-c", "while :; do :; done"]
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0 else { return nil }
        return pid
    }

    static func stop(_ pid: pid_t) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }

    /// Runs `body` with one core kept busy, after a line saying so.
    static func beside(_ name: String, _ body: () -> Void) {
        guard let pid = start() else {
            print("\(name): cannot start the busy process")
            return
        }
        defer { stop(pid) }
        print("\(name), again with one core kept busy by another process:")
        body()
    }
}
