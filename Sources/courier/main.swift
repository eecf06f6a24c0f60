import CProcess
import CourierHTTP
import CourierScript
import Foundation

// A script process (`courier __script`, started by this program for a script that uses promises) serves its
// one script and ends: no crash reporter, no subcommand table, and `_exit` so nothing of JavaScriptCore is torn
// down on the way out.
if CommandLine.arguments.count == 2 && CommandLine.arguments[1] == ScriptProcess.command {
    _exit(ScriptProcess.serve())
}
// The courier command line: dispatches to one subcommand. A command that sends starts loading libcurl first,
// so that the loading overlaps the rest of the start. The crash reporter comes next, before any subcommand
// can take over the terminal. Scripts that use promises run in a process of this very binary.
CommandLineMain.preload(for: CommandLine.arguments.dropFirst().first)
ScriptProcess.setExecutable(path: "/proc/self/exe")
CrashReporting.start(arguments: CommandLine.arguments)
let status = CommandLineMain.run(Array(CommandLine.arguments.dropFirst()))
// The command is done and has said everything: what is left is Courier's own clean-up (the temporary body files),
// then the end. The libraries' exit handlers (OpenSSL freeing its state, which first needs every curl loop thread
// stopped and waited for) only free memory the process is about to give back, a third of a millisecond of every
// one-shot command; `_exit` skips them after standard output and error are flushed (those two only: flushing every
// stream would wait for standard input's lock, which a thread blocked reading it holds, as `courier ws` leaves one).
Console.flush()
courier_flush_standard_streams()
TemporaryBodyFiles.releaseAll()
_exit(status)
