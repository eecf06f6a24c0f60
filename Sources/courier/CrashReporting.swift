import CourierHTTP
import CourierSecurity
import CourierTerminal
import Foundation

/// Start-up wiring of the crash report for every command: where it goes, what names the command, and the
/// pruning of old reports. Runs first in `main`, before any terminal is taken over, so the explorer's
/// terminal restore chains into the reporter rather than the other way round.
enum CrashReporting {
    /// Prepares and installs the reporter for a process started with `arguments` (argv, program first).
    static func start(arguments: [String], environment: [String: String] = readEnvironment()) {
        let folder = CrashReportFolder.resolve(environment: environment)
        // Pruned here, never in the handler: the folder holds at most `keptReports` after the next crash.
        folder?.prune()
        CrashReporter.install(folder: folder, command: commandName(arguments), version: CourierVersion.current,
                              startedAt: Int(time(nil)))
        CrashTestHook.arm(environment: environment)
    }

    /// The variables the reporter reads.
    static func readEnvironment() -> [String: String] {
        ProcessEnvironment.values(["XDG_STATE_HOME", "HOME", CrashTestHook.variable])
    }

    /// `argv[0]` and the subcommand's name, never the arguments after it: they may hold tokens, or URLs
    /// with credentials. A path or nothing after the program is the explorer.
    static func commandName(_ arguments: [String]) -> String {
        let program = arguments.first ?? "courier"
        guard arguments.count > 1 else { return program + " explorer" }
        let first = arguments[1]
        if CommandLineMain.subcommands.contains(where: { $0.name == first }) { return program + " " + first }
        if ["--help", "-h", "help"].contains(first) { return program + " help" }
        return program + " explorer"
    }
}
