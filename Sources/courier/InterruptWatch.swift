import Foundation
import Synchronization

/// The pipe the Ctrl-C handler writes to; -1 while no watch is installed. Set before the handler is
/// installed and cleared after it is removed, so the handler reads a settled value.
nonisolated(unsafe) private var interruptPipeWriteEnd: Int32 = -1

/// The SIGINT handler: one byte into the watch's pipe. `write` is async-signal-safe; errno is kept.
private let interruptHandler: @convention(c) (Int32) -> Void = { _ in
    let saved = errno
    var byte: UInt8 = 1
    _ = write(interruptPipeWriteEnd, &byte, 1)
    errno = saved
}

/// Ctrl-C (SIGINT) for a headless command: a handler writes a byte into a pipe that a thread of its own
/// reads, so the interruption reaches the command whichever thread the kernel delivers it to (a dispatch
/// signal source depends on that thread handing the signal on, and one Ctrl-C in a loaded run was lost).
/// One watch at a time; `stop()` puts back the default action.
final class InterruptWatch: Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32
    private let stopped = Atomic(false)

    /// Starts watching: `action` runs on the watch's thread once for every Ctrl-C until `stop()`.
    init(_ action: @escaping @Sendable () -> Void) {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) != 0 { ends = [-1, -1] }
        readEnd = ends[0]
        writeEnd = ends[1]
        for end in ends where end >= 0 { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        interruptPipeWriteEnd = writeEnd
        let reader = readEnd
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(reader, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 || byte == 0 { break }
                action()
            }
            close(reader)
        }
        thread.name = "courier.interrupt"
        thread.start()
        var handler = sigaction()
        handler.__sigaction_handler.sa_handler = interruptHandler
        sigemptyset(&handler.sa_mask)
        handler.sa_flags = SA_RESTART
        sigaction(SIGINT, &handler, nil)
    }

    /// Ctrl-C caught into a pipe from now on, for `Armed.wait(for:_:)` on this thread. Armed before the work
    /// starts, so a Ctrl-C that comes while it starts is kept for the wait (not lost, and not the default
    /// action's end of the process). Unlike `init`, no thread is started: a one-shot command's main thread
    /// waits anyway.
    static func arm() -> Armed {
        var ends: [Int32] = [-1, -1]
        guard makePipe(&ends) else { return Armed(readEnd: -1, writeEnd: -1) }
        interruptPipeWriteEnd = ends[1]
        var handler = sigaction()
        handler.__sigaction_handler.sa_handler = interruptHandler
        sigemptyset(&handler.sa_mask)
        handler.sa_flags = SA_RESTART
        sigaction(SIGINT, &handler, nil)
        return Armed(readEnd: ends[0], writeEnd: ends[1])
    }

    /// Ctrl-C armed by `arm()`, waiting to be watched.
    struct Armed: ~Copyable {
        let readEnd: Int32
        let writeEnd: Int32

        /// Waits until `done` is signalled, running `action` for every Ctrl-C since `arm()`; Ctrl-C's default
        /// action is back on return.
        consuming func wait(for done: DoneSignal, _ action: () -> Void) {
            guard readEnd >= 0, done.readEnd >= 0 else {
                done.wait()
                disarm()
                return
            }
            var fds = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: done.readEnd, events: Int16(POLLIN), revents: 0)]
            while true {
                // EINTR: the handler ran on this thread; its byte is in the pipe.
                guard poll(&fds, 2, -1) > 0 else { continue }
                if fds[0].revents & Int16(POLLIN) != 0 {
                    var byte: UInt8 = 0
                    if read(readEnd, &byte, 1) == 1 { action() }
                }
                if fds[1].revents != 0 { break }
            }
            disarm()
        }

        private func disarm() {
            signal(SIGINT, SIG_DFL)
            interruptPipeWriteEnd = -1
            if readEnd >= 0 { close(readEnd) }
            if writeEnd >= 0 { close(writeEnd) }
        }
    }

    /// Puts back Ctrl-C's default action and ends the watch's thread. Safe to call more than once.
    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        signal(SIGINT, SIG_DFL)
        interruptPipeWriteEnd = -1
        var byte: UInt8 = 0
        _ = write(writeEnd, &byte, 1)
        close(writeEnd)
    }
}

/// Work finished, told to a thread that waits for it in `poll` (`InterruptWatch.Armed.wait(for:_:)`): a pipe written once
/// (and a semaphore, for when no pipe could be made).
final class DoneSignal: Sendable {
    /// The pipe's read end, readable once the work is done; -1 when there is no pipe.
    let readEnd: Int32
    private let writeEnd: Int32
    private let semaphore = DispatchSemaphore(value: 0)

    init() {
        var ends: [Int32] = [-1, -1]
        if !makePipe(&ends) { ends = [-1, -1] }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        if readEnd >= 0 { close(readEnd) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    /// Marks the work done; the waiter wakes.
    func signal() {
        semaphore.signal()
        var byte: UInt8 = 1
        if writeEnd >= 0 { _ = write(writeEnd, &byte, 1) }
    }

    /// Blocks until `signal()` (for a caller that watches nothing else).
    func wait() { semaphore.wait() }
}

/// A pipe whose ends are closed in child processes; false when none could be made.
private func makePipe(_ ends: inout [Int32]) -> Bool {
    guard pipe(&ends) == 0 else { return false }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return true
}
