import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs a secret store's command (`pass show`, `op read`) found on PATH, with the terminal's standard input
/// (gpg's pinentry may ask there) and its output read whole: these print one short secret. While the explorer
/// owns the terminal, the command runs without one (a session of its own, no standard input, `GPG_TTY` on
/// /dev/null), so a curses pinentry fails and says so instead of drawing over the screen.
enum SecretCommand {
    /// Whether commands run without the terminal (`SecretStores.keepOffTheTerminal()`).
    static let offTheTerminal = Atomic<Bool>(false)
    /// glibc's POSIX_SPAWN_SETSID (spawn.h shows it only to _GNU_SOURCE, so Swift does not see it).
    private static let spawnSetSID: Int16 = 0x80

    struct Result {
        var status: Int32
        var stdout: Data
        var stderr: Data
    }

    struct NotFound: Error {}

    static func run(_ program: String, _ arguments: [String]) throws(NotFound) -> Result {
        var outPipe: [Int32] = [0, 0], errPipe: [Int32] = [0, 0]
        guard pipe(&outPipe) == 0 else { throw NotFound() }
        guard pipe(&errPipe) == 0 else { close(outPipe[0]); close(outPipe[1]); throw NotFound() }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2)
        let detached = offTheTerminal.load(ordering: .relaxed)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var environment = ProcessInfo.processInfo.environment
        if detached {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawnattr_setflags(&attributes, Self.spawnSetSID)
            environment["GPG_TTY"] = "/dev/null"
        }
        let environ = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in environ { free(pointer) } }
        for fd in [outPipe[0], outPipe[1], errPipe[0], errPipe[1]] { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
        close(outPipe[1])
        close(errPipe[1])
        guard spawned == 0 else {
            close(outPipe[0])
            close(errPipe[0])
            throw NotFound()
        }
        // Standard error is read on another thread so that neither pipe can fill while the other is read.
        let errorOutput = ErrorReader(fd: errPipe[0])
        let stdout = readAll(outPipe[0])
        let stderr = errorOutput.finish()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exited = status & 0x7f == 0
        return Result(status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), stdout: stdout, stderr: stderr)
    }

    static func readAll(_ fd: Int32) -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count > 0 { data.append(contentsOf: buffer[0..<count]); continue }
            if count < 0 && errno == EINTR { continue }
            break
        }
        close(fd)
        return data
    }

    /// Reads one descriptor to its end on a thread of its own.
    final class ErrorReader: @unchecked Sendable {
        private var data = Data()
        private let done = DispatchSemaphore(value: 0)

        init(fd: Int32) {
            Thread { [self] in
                data = SecretCommand.readAll(fd)
                done.signal()
            }.start()
        }

        func finish() -> Data {
            done.wait()
            return data
        }
    }
}
