import Foundation

/// A self-pipe that lets other threads interrupt the connection thread's poll(2).
final class WakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Wakes the poller; a full pipe already means a wake-up is pending.
    func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    func drain() {
        var scratch = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &scratch, scratch.count) > 0 {}
    }
}

/// Monotonic seconds, for deadlines that must not jump with the wall clock.
enum Monotonic {
    static var now: Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }
}
