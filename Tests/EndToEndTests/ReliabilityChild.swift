import CourierTestSupport
import Foundation

/// A child process started with posix_spawn and reaped with waitpid. Foundation's `Process` is not
/// used because, with another child still running, waiting for it hung on this platform.
final class ReliabilityChild {
    let pid: pid_t
    private var exitStatus: Int32?

    /// Starts `program`; stdout and stderr go to the given files (created or truncated), stdin is /dev/null.
    init(_ program: URL, _ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil,
         stdout: String = "/dev/null", stderr: String = "/dev/null") throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        switch ChildSpawn.start(program, arguments, environment: environment, in: folder, actions: &actions) {
        case .success(let pid):
            self.pid = pid
        case .failure(let error):
            throw NSError(domain: "ReliabilityChild", code: Int(error.code.rawValue),
                          userInfo: [NSLocalizedDescriptionKey: "cannot start \(program.path): \(error.code.rawValue)"])
        }
    }

    /// The exit status once the child has ended (128 + signal when killed), nil while it runs.
    func poll() -> Int32? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        exitStatus = Self.decode(status)
        return exitStatus
    }

    /// Waits for the child to end and returns its status.
    @discardableResult
    func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        exitStatus = Self.decode(status)
        return exitStatus ?? -1
    }

    /// Sends `signal` to the child.
    func kill(_ signal: Int32) {
        if exitStatus == nil { _ = Foundation.kill(pid, signal) }
    }

    /// Kills the child and reaps it.
    func stop() {
        kill(SIGKILL)
        wait()
    }

    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
