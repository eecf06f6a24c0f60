import Glibc

/// Signal handling for the curses backend.
///
/// Async-signal safety: a handler may only call functions POSIX lists as async-signal-safe. So
/// everything a handler needs is prepared before the handlers are installed, in memory that is never
/// freed or moved while they are: the file descriptors, the terminal modes to put back, and the bytes
/// that undo curses' screen setup (leave the alternate screen, show the cursor, stop mouse and
/// bracketed-paste reports). The handlers then call only `write`, `tcsetattr`, `sigaction`,
/// `sigprocmask` and `raise`, and allocate nothing:
/// - SIGINT, SIGTERM, SIGHUP: restore the terminal, then die of the signal as if unhandled.
/// - SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP: restore, then hand the crash on to the handler
///   that was there before (the `CrashReporter` the command installed first, else the Swift runtime's
///   backtracer, if any) as `CrashSignalChain` does, so the crash is still reported, after the restore.
///   On the alternate signal stack, so a stack overflow still restores the terminal.
/// - SIGTSTP: restore, stop; SIGCONT (and SIGWINCH): write one byte to the backend's self-pipe, and
///   the main loop re-enters curses mode and redraws everything outside the handler.
enum TerminalSignals {
    /// What the handlers read. One instance for the process, allocated once and never freed.
    struct Context {
        var inputFD: Int32 = -1
        var outputFD: Int32 = -1
        var pipeFD: Int32 = -1
        var shellModes = termios()
        var restoreBytes: UnsafeMutablePointer<UInt8>?
        var restoreCount = 0
        var installed = false
    }

    /// The signals that end the process after the terminal is restored.
    static let terminating: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
    /// Crash signals: restore, then let the previous handler or the default action run.
    static let crashes: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]
    /// Signals that only wake the main loop through the pipe: the byte written for each.
    static let notifying: [Int32: UInt8] = [SIGWINCH: UInt8(ascii: "W"), SIGCONT: UInt8(ascii: "C")]

    nonisolated(unsafe) static let context = UnsafeMutablePointer<Context>.allocate(capacity: 1)
    /// The actions that were installed before ours, indexed by signal number.
    nonisolated(unsafe) static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)

    /// Prepares the context and installs every handler.
    static func install(inputFD: Int32, outputFD: Int32, pipeFD: Int32, shellModes: termios, restoreSequence: [UInt8]) {
        context.initialize(to: Context())
        CrashReporter.prepareFlags()
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, restoreSequence.count))
        bytes.initialize(from: restoreSequence, count: restoreSequence.count)
        context.pointee = Context(inputFD: inputFD, outputFD: outputFD, pipeFD: pipeFD, shellModes: shellModes,
                                  restoreBytes: bytes, restoreCount: restoreSequence.count, installed: true)
        for signal in terminating { set(signal, terminateHandler) }
        for signal in crashes { CrashSignalChain.install(signal, crashHandler, saving: previous + Int(signal)) }
        for signal in notifying.keys { set(signal, notifyHandler) }
        set(SIGTSTP, suspendHandler)
    }

    /// Puts back the handlers that were there before `install`.
    static func uninstall() {
        guard context.pointee.installed else { return }
        context.pointee.installed = false
        for signal in terminating + Array(notifying.keys) + [SIGTSTP] {
            sigaction(signal, previous + Int(signal), nil)
        }
        for signal in crashes { CrashSignalChain.uninstall(signal, crashHandler, previous: previous + Int(signal)) }
        context.pointee.restoreBytes?.deallocate()
        context.pointee.restoreBytes = nil
    }

    private static func set(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        // SA_RESTART keeps reads and writes elsewhere in the process from failing with EINTR.
        action.sa_flags = SA_RESTART
        sigaction(signal, &action, previous + Int(signal))
    }

    /// Writes the restore bytes and puts back the shell's terminal modes. Async-signal-safe.
    static func restoreTerminal() {
        let c = context.pointee
        if let bytes = c.restoreBytes, c.restoreCount > 0 { _ = write(c.outputFD, bytes, c.restoreCount) }
        var modes = c.shellModes
        _ = tcsetattr(c.inputFD, TCSADRAIN, &modes)
    }
}

/// SIGINT/SIGTERM/SIGHUP/SIGQUIT: restore, then die of the same signal.
private let terminateHandler: @convention(c) (Int32) -> Void = { signal in
    TerminalSignals.restoreTerminal()
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_DFL
    sigaction(signal, &action, nil)
    unblock(signal)
    raise(signal)
}

/// Crash signals: restore, hand the signal to whoever handled it before us: the `CrashReporter` when the
/// command installed one (it then says the terminal was restored), else the runtime's or the default.
/// Reached after `uninstall` only through a handler installed on top of ours that chains to it: the
/// terminal is no longer ours to restore then.
private let crashHandler: CrashSignalChain.Handler = { signal, info, _ in
    if TerminalSignals.context.pointee.installed {
        TerminalSignals.restoreTerminal()
        CrashReporter.noteTerminalRestored()
    }
    CrashSignalChain.handOn(signal, info, previous: TerminalSignals.previous + Int(signal))
}

/// SIGWINCH/SIGCONT: one byte down the self-pipe; the main loop does the work.
private let notifyHandler: @convention(c) (Int32) -> Void = { signal in
    var byte: UInt8 = signal == SIGWINCH ? UInt8(ascii: "W") : UInt8(ascii: "C")
    _ = write(TerminalSignals.context.pointee.pipeFD, &byte, 1)
}

/// SIGTSTP: restore and stop; after SIGCONT, reinstall and ask the main loop to re-enter.
private let suspendHandler: @convention(c) (Int32) -> Void = { _ in
    TerminalSignals.restoreTerminal()
    var action = sigaction()
    action.__sigaction_handler.sa_handler = SIG_DFL
    var ours = sigaction()
    sigaction(SIGTSTP, &action, &ours)
    unblock(SIGTSTP)
    raise(SIGTSTP)
    // Execution continues here after SIGCONT.
    sigaction(SIGTSTP, &ours, nil)
    var byte = UInt8(ascii: "C")
    _ = write(TerminalSignals.context.pointee.pipeFD, &byte, 1)
}

/// Unblocks `signal` for this thread (it is blocked while its handler runs). Async-signal-safe.
private func unblock(_ signal: Int32) {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, signal)
    sigprocmask(SIG_UNBLOCK, &set, nil)
}
