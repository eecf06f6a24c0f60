import Foundation

/// The one way tests start a child: posix_spawn with the caller's file actions, in a process group of its
/// own, with no signal blocked and default dispositions (as from a shell), in `folder` when given.
public enum ChildSpawn {
    /// Starts `program ARGUMENTS` with `environment` added to the test's (backtraces off); the pid, or the
    /// error number posix_spawn returned.
    public static func start(_ program: URL, _ arguments: [String], environment: [String: String], in folder: URL?,
                             actions: inout posix_spawn_file_actions_t) -> Result<pid_t, POSIXError> {
        var merged = ProcessInfo.processInfo.environment
        merged["SWIFT_BACKTRACE"] = "enable=no"
        for (name, value) in environment { merged[name] = value }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A process group of its own, so that a kill reaches only this child and what it starts. The test
        // runner's threads block signals and a child would inherit that mask: start it as a shell would.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP, SIGCONT, SIGCHLD, SIGWINCH] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // The Glibc module does not offer posix_spawn_file_actions_addchdir_np: a shell changes folder, then execs.
        let executable = folder == nil ? program.path : "/bin/sh"
        let words = folder.map { ["/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", $0.path, program.path] + arguments }
            ?? [program.path] + arguments
        let argv = words.map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else { return .failure(POSIXError(POSIXErrorCode(rawValue: result) ?? .ENOENT)) }
        return .success(pid)
    }
}
