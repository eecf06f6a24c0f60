import Foundation

/// One running script process (`ScriptProcess`): its pid, the socket that is its standard input and output,
/// and the one its standard error goes to. Every descriptor and the pid stay in this file; the child is
/// always reaped before `exchange` returns.
final class ScriptChild {
    /// How an exchange ended.
    enum Outcome {
        /// The child exited 0 after writing this.
        case finished(Data)
        /// It was killed: past its limit, or its caller gave up on it.
        case stopped(ScriptWatch.Stop)
        /// It ended without a result: how (`exited with status 2: …`, `was killed by signal 11`).
        case failed(String)
    }

    /// What the child may see of Courier's environment: what changes how JavaScript formats dates, numbers
    /// and text (so a script prints the same in either process), and which JavaScriptCore to load. Nothing
    /// else: no tokens, no paths, no proxies.
    static let keptVariables: Set<String> = ["TZ", "LANG", "LANGUAGE", "COURIER_JAVASCRIPTCORE_LIBRARY"]
    /// Set in the child: a crash there must not start Swift's interactive backtracer.
    static let addedVariables = ["SWIFT_BACKTRACE=enable=no"]
    /// Signals the child handles as a program started from a shell does, whatever Courier does with them.
    static let defaultSignals = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD]
    /// Milliseconds between looks at the child's CPU time and the caller's cancel, as `ScriptWatch`'s slice.
    static let pollMilliseconds: Int32 = 20
    /// The bytes of the child's standard error kept for the message when it fails.
    static let keptErrorBytes = 4096

    let pid: pid_t
    private let socket: Int32
    private let errors: Int32
    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    private init(pid: pid_t, socket: Int32, errors: Int32) {
        self.pid = pid
        self.socket = socket
        self.errors = errors
    }

    deinit {
        close(socket)
        close(errors)
    }

    /// Starts `executable ARGUMENTS` with a socket as standard input and output and another as standard error,
    /// in Courier's process group (a Ctrl-C at the terminal reaches it too).
    static func start(_ executable: URL, arguments: [String]) -> Result<ScriptChild, POSIXError> {
        // Sockets rather than pipes: made close-on-exec in one call (another thread may be starting a process
        // meanwhile, which must not inherit them), and written to without SIGPIPE.
        guard let pair = socketPair() else { return .failure(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)) }
        guard let errorPair = socketPair() else {
            let error = errno
            pair.forEach { close($0) }
            return .failure(POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, pair[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPair[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The spawning thread may block signals (the explorer's do); the child starts with none blocked.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in defaultSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment().map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        close(pair[1])
        close(errorPair[1])
        guard spawned == 0 else {
            close(pair[0])
            close(errorPair[0])
            return .failure(POSIXError(POSIXErrorCode(rawValue: spawned) ?? .ENOENT))
        }
        _ = fcntl(pair[0], F_SETFL, O_NONBLOCK)
        _ = fcntl(errorPair[0], F_SETFL, O_NONBLOCK)
        return .success(ScriptChild(pid: pid, socket: pair[0], errors: errorPair[0]))
    }

    /// A connected pair of close-on-exec stream sockets; nil when none could be made.
    private static func socketPair() -> [Int32]? {
        var pair: [Int32] = [-1, -1]
        let made = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair)
        return made == 0 ? pair : nil
    }

    /// The child's environment: `keptVariables` and the locale's `LC_*` from Courier's, plus `addedVariables`.
    static func environment() -> [String] {
        let kept = ProcessInfo.processInfo.environment.filter { name, _ in
            keptVariables.contains(name) || name.hasPrefix("LC_")
        }
        return kept.map { "\($0.key)=\($0.value)" } + addedVariables + ["\(parentVariable)=\(getpid())"]
    }

    /// Names the process that started the child, which the child watches (`ScriptProcess.serve`): read from
    /// its own start, because Courier may be gone before the child has run a line of its own.
    static let parentVariable = "COURIER_SCRIPT_PARENT"

    /// Writes `job` to the child and reads what it writes back, until it ends or is killed: when its main
    /// thread has used `cpuLimit` seconds of CPU, when `wallLimit` seconds have passed, or when `isCancelled`
    /// says so (checked every `pollMilliseconds`). Each question the child asks meanwhile (`ScriptFrame`) is
    /// answered with what `answer` gives, which may take a while (a request sent); nil means it is not one.
    func exchange(_ job: Data, cpuLimit: Double, wallLimit: Double, isCancelled: () -> Bool,
                  answer: (ScriptFrame.Kind, Data) -> Data?) -> Outcome {
        let clock = ContinuousClock()
        let started = clock.now
        var outgoing = ScriptFrame.encode(.job, job)
        var written = 0
        var incoming = Data()
        var result: Data?
        var malformed = false
        var errorTail = Data()
        var outputOpen = true, errorsOpen = true
        var stop: ScriptWatch.Stop?
        while outputOpen && !malformed {
            let sending = written < outgoing.count
            var watched = [pollfd(fd: socket, events: Int16(POLLIN) | (sending ? Int16(POLLOUT) : 0), revents: 0)]
            if errorsOpen { watched.append(pollfd(fd: errors, events: Int16(POLLIN), revents: 0)) }
            _ = poll(&watched, nfds_t(watched.count), Self.pollMilliseconds)
            if sending && watched[0].revents != 0 {
                written = send(outgoing, from: written)
            }
            if watched[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                outputOpen = Self.read(socket, into: &incoming, keeping: nil)
            }
            while let (kind, payload) = ScriptFrame.take(from: &incoming, malformed: &malformed) {
                if kind == .result {
                    result = payload
                } else if let reply = answer(kind, payload) {
                    outgoing.removeFirst(written)
                    outgoing.append(ScriptFrame.encode(.answer, reply))
                    written = 0
                } else {
                    malformed = true
                }
            }
            if errorsOpen && watched.count > 1 && watched[1].revents != 0 {
                errorsOpen = Self.read(errors, into: &errorTail, keeping: Self.keptErrorBytes)
            }
            guard outputOpen else { break }
            if isCancelled() {
                stop = .cancelled
            } else if cpuSeconds() >= cpuLimit || clock.now - started >= .seconds(wallLimit) {
                stop = .timeLimit
            }
            if stop != nil { break }
        }
        if let stop {
            kill(pid, SIGKILL)
            _ = reap()
            return .stopped(stop)
        }
        if malformed {
            kill(pid, SIGKILL)
            _ = reap()
            return .failed("wrote something other than a message")
        }
        let status = reap()
        if errorsOpen { _ = Self.read(errors, into: &errorTail, keeping: Self.keptErrorBytes) }
        if status == 0 { return .finished(result ?? Data()) }
        let said = String(decoding: errorTail, as: UTF8.self).split(separator: "\n").last.map { ": " + $0 } ?? ""
        let signal = status & 0x7f
        return .failed((signal == 0 ? "exited with status \((status >> 8) & 0xff)" : "was killed by signal \(signal)")
                       + said.prefix(300))
    }

    /// Sends what the socket takes of `data` from `offset`; the new offset (the end when the child is gone:
    /// its exit tells the rest).
    private func send(_ data: Data, from offset: Int) -> Int {
        let sent = data.withUnsafeBytes { bytes in
            Glibc.send(socket, bytes.baseAddress! + offset, data.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        if sent < 0 && (errno == EAGAIN || errno == EINTR) { return offset }
        return sent < 0 ? data.count : offset + sent
    }

    /// Reads what `descriptor` has, appending to `data` (keeping its last `keeping` bytes when given); false at
    /// the end of the stream.
    private static func read(_ descriptor: Int32, into data: inout Data, keeping: Int?) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = Glibc.read(descriptor, &buffer, buffer.count)
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
                if let keeping, data.count > keeping { data = Data(data.suffix(keeping)) }
                continue
            }
            if count < 0 && errno == EINTR { continue }
            return count < 0 && errno == EAGAIN
        }
    }

    /// Waits for the child to end; its raw wait status.
    private func reap() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return status
    }

    /// The CPU time the child's main thread (the one that runs the script) has used, in seconds, from
    /// `/proc/PID/task/PID/stat`; 0 when it cannot be read.
    private func cpuSeconds() -> Double {
        let descriptor = open("/proc/\(pid)/task/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        // The thread's name, in parentheses, may hold anything; the fields after it start with the state,
        // and user and system time (in clock ticks) are the 12th and 13th of them.
        guard count > 0, let name = buffer[0..<count].lastIndex(of: UInt8(ascii: ")")) else { return 0 }
        let fields = buffer[(name + 1)..<count].split(separator: UInt8(ascii: " "))
        guard fields.count > 12, let user = Int(String(decoding: fields[11], as: UTF8.self)),
              let system = Int(String(decoding: fields[12], as: UTF8.self)) else { return 0 }
        return Double(user + system) / Self.ticksPerSecond
    }
}
