import CProcess
import Glibc
import Synchronization

/// On a crash signal, writes a crash report file and one line on standard error saying where it went,
/// then lets the handler that was there before (the Swift runtime's backtracer, or the default action)
/// run, so the process still ends with the signal.
///
/// One chain, one order. `install` runs at start-up, before any `CursesBackend`; the explorer's
/// `TerminalSignals` is installed later and keeps this reporter as its "previous" handler. A crash in the
/// explorer therefore runs: TerminalSignals (restore the terminal) → this reporter (report, then the
/// line, now on the normal screen) → the runtime's handler or the default action. Neither replaces the
/// other's handler; each hands the crash on to the next as `CrashSignalChain` does.
///
/// Async-signal safety: everything the handler reads is prepared by `install` in memory that is never
/// freed: the report path, the folders to create, the fixed part of the report, a text buffer, room for
/// the frames and the functions that capture and name them. `install` also rehearses a whole report into
/// /dev/null, so every first-use cost (the unwinder's tables, symbol lookup) is paid before any crash. The handler
/// calls only `mkdir`, `open`, `write`, `close`, `clock_gettime`, `nanosleep`, `sigaction`,
/// `sigprocmask`, `raise`, `pthread_self`, the unwinder (`courier_backtrace`) and glibc's
/// `backtrace_symbols_fd` (not on POSIX's list, but made safe by that preloading, and the accepted practice
/// for crash reports), and
/// allocates nothing. The report holds no arguments, environment, headers or bodies: only the command.
public enum CrashReporter {
    typealias Frames = UnsafeMutablePointer<UnsafeMutableRawPointer?>
    typealias BacktraceCapture = @convention(c) (Frames?, Int32) -> Int32
    typealias BacktraceSymbols = @convention(c) (UnsafePointer<UnsafeMutableRawPointer?>?, Int32, Int32) -> Void

    /// What the handler reads. One instance for the process, set up once by `install` and never freed.
    struct Context {
        var reportPath: UnsafeMutablePointer<CChar>?
        var reportPathCount = 0
        var folders: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var folderCount = 0
        var header: UnsafeMutablePointer<UInt8>?
        var headerCount = 0
        var text: UnsafeMutablePointer<UInt8>
        var frames: UnsafeMutablePointer<UnsafeMutableRawPointer?>
        var capture: BacktraceCapture?
        var symbols: BacktraceSymbols?
    }

    /// The signals a crash ends in; Swift traps (`fatalError`, preconditions, force-unwraps) are SIGILL
    /// or SIGTRAP.
    public static let signals: [Int32] = TerminalSignals.crashes
    /// Room for the report's lines other than the frames, and for the line on standard error.
    static let textCapacity = 8_192
    /// The deepest backtrace recorded; deeper frames are the callers of callers and rarely matter.
    static let frameCapacity: Int32 = 128
    /// An alternate signal stack, so a stack overflow can still be reported.
    static let alternateStackSize = 64 * 1_024

    nonisolated(unsafe) static let context = UnsafeMutablePointer<Context>.allocate(capacity: 1)
    /// The actions that were installed before ours, indexed by signal number.
    nonisolated(unsafe) static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    /// The thread reporting the first crash (its `pthread_self`), 0 before any. A crash on another thread
    /// meanwhile waits for that report to end the process; a fault inside the handler only chains on.
    static let owner = Atomic<UInt>(0)
    /// How long a second crashing thread waits, in 10 ms naps, for the first to finish and end the process.
    static let otherThreadNaps = 1_000
    /// Set by `TerminalSignals` when it restored the terminal before handing the crash on to us.
    static let terminalRestored = Atomic<Bool>(false)
    static let installed = Mutex(false)

    /// Prepares the report and installs the handlers, once per process.
    /// - Parameters:
    ///   - folder: where the report goes; nil when there is nowhere (the line then says so).
    ///   - command: what the report names the command: `argv[0]` and the subcommand, never arguments.
    ///   - version: Courier's version, when the build has one.
    ///   - startedAt: seconds since 1970, for the file name and the report.
    public static func install(folder: CrashReportFolder?, command: String, version: String? = nil,
                               startedAt: Int, pid: Int32 = getpid()) {
        let first = installed.withLock { done -> Bool in
            defer { done = true }
            return !done
        }
        guard first else { return }
        prepareFlags()
        let textBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: textCapacity)
        let frames = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: Int(frameCapacity))
        var setup = Context(text: textBytes, frames: frames)
        if let folder {
            let path = folder.reportPath(startedAt: startedAt, pid: pid)
            setup.reportPath = strdup(path)
            setup.reportPathCount = path.utf8.count
            let folders = folder.foldersToCreate
            let list = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
                .allocate(capacity: max(1, folders.count))
            for (index, name) in folders.enumerated() { (list + index).initialize(to: strdup(name)) }
            setup.folders = list
            setup.folderCount = folders.count
        }
        let header = headerText(command: command, version: version, startedAt: startedAt, pid: pid)
        let headerBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, header.utf8.count))
        headerBytes.initialize(from: Array(header.utf8), count: header.utf8.count)
        setup.header = headerBytes
        setup.headerCount = header.utf8.count
        // The frames come from the unwinder linked into the binary (glibc's `backtrace` would load libgcc_s.so
        // on its first call); naming them is glibc's (looked up here: execinfo.h is not in the Glibc module).
        // Both are first called by `rehearse`, so their first-use costs are not paid inside a handler.
        setup.capture = courier_backtrace
        if let symbols = dlsym(nil, "backtrace_symbols_fd") {
            setup.symbols = unsafeBitCast(symbols, to: BacktraceSymbols.self)
        }
        context.initialize(to: setup)
        rehearse()
        ensureAlternateStack()
        for signal in signals { CrashSignalChain.install(signal, crashReportHandler, saving: previous + Int(signal)) }
    }

    /// The report's fixed lines: the command, the version, the process and its start.
    static func headerText(command: String, version: String?, startedAt: Int, pid: Int32) -> String {
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        defer { bytes.deallocate() }
        var started = SignalSafeText(buffer: bytes, capacity: 64)
        started.append(utc: startedAt)
        // Appended, not joined: the first `joined(separator:)` of a process looks up its generic types by name,
        // 0.1 ms of every command's start.
        var text = "command: \(command)\n"
        if let version { text += "version: \(version)\n" }
        text += "pid: \(pid)\nstarted: \(started.string)\n"
        return text
    }

    /// Writes a whole report and the line to /dev/null once, outside any handler: every lazy first-use
    /// cost on the handler's path (the unwinder, symbol lookup, runtime type data in debug builds) is
    /// paid now rather than during a crash.
    static func rehearse() {
        let fd = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        // One frame is enough to load what naming frames needs; naming them all cost every command
        // about a millisecond.
        writeReport(SIGSEGV, to: fd, symbolized: 1)
        writeNotice(SIGSEGV, reportWritten: true, to: fd)
        close(fd)
    }

    /// Touches the flags so their one-time initialisation never happens inside a handler.
    static func prepareFlags() {
        _ = owner.load(ordering: .relaxed)
        _ = terminalRestored.load(ordering: .relaxed)
    }

    /// Called by `TerminalSignals` after it restored the terminal for a crash. Async-signal-safe.
    static func noteTerminalRestored() {
        terminalRestored.store(true, ordering: .releasing)
    }


    /// Gives the main thread an alternate stack when it has none (the Swift runtime sets one up when its
    /// backtracer is enabled), so a stack overflow still reaches the handler.
    private static func ensureAlternateStack() {
        var current = stack_t()
        guard sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0 else { return }
        var stack = stack_t()
        stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: alternateStackSize, alignment: 16)
        stack.ss_size = alternateStackSize
        stack.ss_flags = 0
        sigaltstack(&stack, nil)
    }
}

/// The crash handler: report once, then hand the signal to the previous handler or the default action.
private let crashReportHandler: CrashSignalChain.Handler = { signal, info, _ in
    // pthread_self only reads the thread pointer on glibc; it allocates nothing and takes no lock.
    let me = UInt(bitPattern: Int(bitPattern: pthread_self()))
    let claim = CrashReporter.owner
        .compareExchange(expected: 0, desired: me, ordering: .acquiringAndReleasing)
    if claim.exchanged {
        let written = CrashReporter.writeReport(signal)
        // A closed standard error (a pipe whose reader left) must not turn the crash into a SIGPIPE death:
        // blocked, the write fails with EPIPE instead, and the crash signal still ends the process. It
        // stays blocked: unblocking would deliver the pending SIGPIPE before the crash signal.
        var pipe = sigset_t()
        sigemptyset(&pipe)
        sigaddset(&pipe, SIGPIPE)
        sigprocmask(SIG_BLOCK, &pipe, nil)
        CrashReporter.writeNotice(signal, reportWritten: written)
    } else if claim.original != me {
        CrashReporter.waitForTheFirstReport()
    }
    CrashSignalChain.handOn(signal, info, previous: CrashReporter.previous + Int(signal))
}

// MARK: - In the handler

extension CrashReporter {
    /// Creates the folder if needed and writes the report; false when it could not be created.
    /// Async-signal-safe.
    static func writeReport(_ signal: Int32) -> Bool {
        let c = context.pointee
        guard let path = c.reportPath else { return false }
        var index = 0
        while index < c.folderCount {
            if let folder = c.folders?[index] { _ = mkdir(folder, CrashReportPolicy.folderMode) }
            index += 1
        }
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, CrashReportPolicy.fileMode)
        guard fd >= 0 else { return false }
        writeReport(signal, to: fd)
        close(fd)
        return true
    }

    /// The report's text, written to `fd`. Async-signal-safe.
    /// `symbolized` caps the frames named: each costs a scan of the binary's symbol table.
    static func writeReport(_ signal: Int32, to fd: Int32, symbolized: Int32 = frameCapacity) {
        let c = context.pointee
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var text = SignalSafeText(buffer: c.text, capacity: textCapacity)
        text.append("Courier crash report\nsignal: ")
        text.append(signalName(signal))
        text.append(" (")
        text.append(decimal: Int(signal))
        text.append(")\ntime: ")
        text.append(utc: Int(now.tv_sec))
        text.append("\n")
        if let header = c.header { text.append(bytes: header, count: c.headerCount) }
        if terminalRestored.load(ordering: .acquiring) {
            text.append("terminal: restored before this report was written\n")
        }
        text.append("backtrace (innermost first; symbolicate an offset with ")
        text.append("`addr2line -f -C -e BINARY OFFSET | swift demangle`):\n")
        text.flush(to: fd)
        if let capture = c.capture, let symbols = c.symbols {
            let count = capture(c.frames, frameCapacity)
            symbols(c.frames, min(count, symbolized), fd)
        } else {
            text.append("(the frames cannot be named: glibc's backtrace_symbols_fd is unavailable)\n")
        }
        text.append("end of report\n")
        text.flush(to: fd)
    }

    /// The one line on standard error: what happened, whether the terminal was restored, where the
    /// report went. Async-signal-safe.
    static func writeNotice(_ signal: Int32, reportWritten: Bool, to fd: Int32 = STDERR_FILENO) {
        let c = context.pointee
        var text = SignalSafeText(buffer: c.text, capacity: textCapacity)
        text.append("courier crashed (")
        text.append(signalName(signal))
        text.append(")")
        if terminalRestored.load(ordering: .acquiring) { text.append("; the terminal was restored") }
        if let path = c.reportPath {
            text.append(reportWritten ? "; crash report: " : "; no crash report could be written to ")
            let bytes = UnsafeRawPointer(path).assumingMemoryBound(to: UInt8.self)
            text.append(bytes: bytes, count: c.reportPathCount)
        } else {
            text.append("; no crash report: neither XDG_STATE_HOME nor HOME is set")
        }
        text.append("\n")
        text.flush(to: fd)
    }

    /// Naps while another thread reports the first crash; that thread ends the process when done.
    /// Bounded, in case its chained handler returns instead. Async-signal-safe.
    static func waitForTheFirstReport() {
        var naps = 0
        while naps < otherThreadNaps {
            var nap = timespec(tv_sec: 0, tv_nsec: 10_000_000)
            _ = nanosleep(&nap, nil)
            naps += 1
        }
    }

    /// The signal's name, from static text. Async-signal-safe.
    static func signalName(_ signal: Int32) -> StaticString {
        switch signal {
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGILL: "SIGILL"
        case SIGFPE: "SIGFPE"
        case SIGABRT: "SIGABRT"
        case SIGTRAP: "SIGTRAP"
        default: "signal"
        }
    }
}
