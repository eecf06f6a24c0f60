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
// The courier command line: dispatches to one subcommand. The crash reporter comes first, before any subcommand
// can take over the terminal. Scripts that use promises run in a process of this very binary. libcurl is loaded
// by the first request, on the thread that makes it: loading it on a thread of its own while `main` went on made a
// one-shot send slower, not faster (the dynamic loader's `mprotect` and `munmap` calls then interrupt the other
// running thread to flush its view of the memory map, and that thread's page faults do the same to the loader).
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
