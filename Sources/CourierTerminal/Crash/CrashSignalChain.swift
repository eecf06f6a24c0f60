import Glibc

/// How Courier's crash handlers (`CrashReporter`, `TerminalSignals`) install themselves and hand a crash
/// on, so that a handler installed before or after ours keeps working.
///
/// - Handing on: after its work a handler puts back the action that was there before it. A fault the
///   kernel raised for an instruction (SIGSEGV, SIGBUS, SIGILL, SIGFPE with a positive `si_code`) is
///   then left to happen again: the handler returns, the instruction runs again and faults into the
///   previous handler with its real context. Runtimes that fault on purpose and handle it (JavaScriptCore's
///   execution-time traps) see their own fault, and a backtracer sees the faulting frame, not our `raise`.
///   Anything else (abort, int3, a signal sent by `kill`) is raised again.
/// - Uninstalling puts back the previous action only where ours is still the installed one: a handler
///   installed on top of ours since (JavaScriptCore's) stays.
///
/// Async-signal-safe: `handOn` calls only `sigaction`, `sigprocmask` and `raise`.
enum CrashSignalChain {
    typealias Handler = @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void

    /// The signals whose kernel-raised form re-faults when the handler returns.
    static func refaults(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?) -> Bool {
        guard let info, info.pointee.si_code > 0 else { return false }
        return signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE
    }

    /// Installs `handler` for `signal` on the alternate stack, saving what was there into `previous`.
    static func install(_ signal: Int32, _ handler: Handler, saving previous: UnsafeMutablePointer<sigaction>,
                        flags: Int32 = 0) {
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_SIGINFO | SA_ONSTACK | flags
        sigaction(signal, &action, previous)
    }

    /// Puts `previous` back for `signal` if `handler` is still the one installed.
    static func uninstall(_ signal: Int32, _ handler: Handler, previous: UnsafeMutablePointer<sigaction>) {
        var current = sigaction()
        guard sigaction(signal, nil, &current) == 0, current.sa_flags & SA_SIGINFO != 0,
              let installed = current.__sigaction_handler.sa_sigaction,
              unsafeBitCast(installed, to: UnsafeRawPointer.self) == unsafeBitCast(handler, to: UnsafeRawPointer.self)
        else { return }
        sigaction(signal, previous, nil)
    }

    /// Puts back `previous` and lets it have the signal: by returning into the faulting instruction, or
    /// by raising it again. Async-signal-safe.
    static func handOn(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?,
                       previous: UnsafeMutablePointer<sigaction>) {
        sigaction(signal, previous, nil)
        if refaults(signal, info) { return }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        sigprocmask(SIG_UNBLOCK, &set, nil)
        raise(signal)
    }
}
