import Foundation
import Synchronization

/// A child process started with posix_spawn in a process group of its own. Its output is read by two
/// reader threads and its exit is reaped by a third, so an async test awaits both through continuations
/// and never blocks a cooperative thread or polls. Foundation's `Process` is not used: waiting for one
/// child hung here while another was running, and its children inherit the test runner's blocked signals.
public final class ChildProcess: Sendable {
    /// Where the child's standard input comes from.
    public enum Input: Sendable {
        /// /dev/null: the child sees end of file at once.
        case none
        /// These bytes, then end of file.
        case data(Data)
        /// A pipe the test writes to with `write(_:)` and closes with `closeInput()`.
        case open
    }

    public let pid: pid_t
    public let stdout = ChildOutput()
    public let stderr = ChildOutput()
    private let inputFD: Mutex<Int32?>
    private let timedOut = Mutex(false)
    private let exit = Mutex<(status: Int32?, waiters: [CheckedContinuation<Int32, Never>])>((nil, []))

    /// Starts `program ARGUMENTS` in `folder` with the test's environment plus `environment`.
    public init(_ program: URL, _ arguments: [String], environment: [String: String] = [:], in folder: URL? = nil,
                input: Input = .none) throws {
        let outPipe = try Self.pipe(), errPipe = try Self.pipe()
        var inPipe: (read: Int32, write: Int32)?
        if case .none = input {} else { inPipe = try Self.pipe() }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let inPipe {
            posix_spawn_file_actions_adddup2(&actions, inPipe.read, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outPipe.write, 1)
        posix_spawn_file_actions_adddup2(&actions, errPipe.write, 2)
        let spawned = ChildSpawn.start(program, arguments, environment: environment, in: folder, actions: &actions)
        close(outPipe.write)
        close(errPipe.write)
        if let inPipe { close(inPipe.read) }
        switch spawned {
        case .success(let pid):
            self.pid = pid
        case .failure(let error):
            [outPipe.read, errPipe.read, inPipe?.write ?? -1].filter { $0 >= 0 }.forEach { close($0) }
            throw error
        }
        inputFD = Mutex(inPipe?.write)
        Self.drain(outPipe.read, into: stdout)
        Self.drain(errPipe.read, into: stderr)
        Thread { [self] in reap() }.start()
        if case .data(let bytes) = input {
            // From a thread of its own: a child that does not read its input must not block the test.
            Thread { [self] in
                write(bytes)
                closeInput()
            }.start()
        }
    }

    /// Writes to the child's standard input (opened with `.open` or `.data`); false once it is closed.
    @discardableResult
    public func write(_ bytes: Data) -> Bool {
        guard let fd = inputFD.withLock({ $0 }) else { return false }
        return bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// Closes the child's standard input: it reads end of file.
    public func closeInput() {
        if let fd = inputFD.withLock({ state -> Int32? in defer { state = nil }; return state }) { close(fd) }
    }

    /// Sends `signal` to the child (not to its group), unless it has already been reaped.
    public func signal(_ signal: Int32) {
        exit.withLock { state in
            // Under the lock: once reaped, the pid may belong to another process.
            if state.status == nil { _ = kill(pid, signal) }
        }
    }

    /// Sends `signal` to the child's process group: the child and whatever it started.
    public func signalGroup(_ signal: Int32) {
        exit.withLock { state in
            if state.status == nil { _ = kill(-pid, signal) }
        }
    }

    /// The exit status once the child has ended (128 + signal when killed), nil while it runs.
    public var status: Int32? { exit.withLock { $0.status } }

    /// Waits for the child to end and returns its status (128 + signal when killed).
    public func exitStatus() async -> Int32 {
        await withCheckedContinuation { continuation in
            let status: Int32? = exit.withLock { state in
                if state.status == nil { state.waiters.append(continuation) }
                return state.status
            }
            if let status { continuation.resume(returning: status) }
        }
    }

    /// Waits for the child to end, killing its group with SIGKILL after `limit`; the status, or nil when it
    /// had to be killed. Then waits (bounded: a grandchild may hold the pipes) for both streams to end.
    @discardableResult
    public func finish(limit: Duration = .seconds(300)) async -> Int32? {
        let killer = Task { [self] in
            try await Task.sleep(for: limit)
            timedOut.withLock { $0 = true }
            signalGroup(SIGKILL)
        }
        let status = await exitStatus()
        killer.cancel()
        await stdout.endOfStream(limit: .seconds(10))
        await stderr.endOfStream(limit: .seconds(10))
        return timedOut.withLock { $0 } ? nil : status
    }

    // MARK: Plumbing

    private func reap() {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) == -1 && errno == EINTR {}
        let decoded = Self.decode(raw)
        let waiters = exit.withLock { state in
            state.status = decoded
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: decoded) }
    }

    private static func drain(_ fd: Int32, into output: ChildOutput) {
        Thread {
            defer { close(fd); output.end() }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                output.append(Data(buffer[0..<count]))
            }
        }.start()
    }

    /// A pipe whose ends close on exec, so another child started later does not keep this one open (the
    /// Glibc module offers no pipe2; the window before fcntl is a few instructions long).
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    private static func decode(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}

extension ChildProcess {
    /// The child's peak resident set so far (VmHWM), in bytes; nil once it has exited.
    public var peakResidentBytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first
                .flatMap({ Int($0) }) else { return nil }
        return kilobytes * 1024
    }

    /// Waits for the child to end like `finish(limit:)`, sampling its peak resident set every 5 ms on
    /// the way (VmHWM only exists while the child does); the status and the highest sample. The samples are
    /// taken on a thread of their own: taken by a task, a whole run of parallel tests kept the cooperative
    /// threads busy for longer than a short child lived, its peak was read at its start (or never) and the
    /// growth from a short run to a long one came out as the long run's whole peak.
    public func finishSamplingPeakMemory(limit: Duration = .seconds(60)) async -> (status: Int32?, peak: Int) {
        let sampler = PeakSampler()
        Thread { [self] in
            while isRunning && !sampler.stopped {
                if let sample = peakResidentBytes { sampler.note(sample) }
                usleep(5_000)
            }
        }.start()
        let status = await finish(limit: limit)
        sampler.stop()
        return (status, sampler.peak)
    }

    /// True while the child has not been reaped.
    public var isRunning: Bool { status == nil }
}

/// The highest of the samples a sampling thread takes, and when it should stop.
private final class PeakSampler: Sendable {
    private let state = Mutex((peak: 0, stopped: false))

    var peak: Int { state.withLock { $0.peak } }
    var stopped: Bool { state.withLock { $0.stopped } }

    func note(_ sample: Int) { state.withLock { $0.peak = max($0.peak, sample) } }
    func stop() { state.withLock { $0.stopped = true } }
}
