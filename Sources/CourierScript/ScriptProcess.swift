import Foundation
import Synchronization

/// Where a script that uses promises runs: a process of its own, which Courier kills (SIGKILL) when it passes
/// its time limit or its request is cancelled. JavaScriptCore's watchdog starts its count over at every promise
/// job, so an endless chain of short jobs (`function f() { Promise.resolve().then(f) } f()`, or
/// `while (true) await null`) is never stopped from inside; a kill stops it whatever JavaScriptCore does.
///
/// The child is this same program started with the hidden subcommand `command` (`courier` sets `executable`
/// to `/proc/self/exe` at start, so the child is the very binary that runs, even one replaced on disk since).
/// It reads the script and its input as JSON from its standard input and writes the result as JSON to its standard
/// output, both one socket private to the two processes, in frames (`ScriptFrame`), between which it may ask
/// Courier to send a request (`pm.sendRequest`) or for a dynamic variable; it sees no environment but the locale
/// and time zone, and reaches the network only through Courier.
/// Its own watchdog still stops a long synchronous stretch and names its line; Courier's kill, a little later
/// (`margin`), is for what that watchdog cannot see.
public enum ScriptProcess {
    /// The hidden subcommand of `courier` that serves one script (`serve()`); never listed in the help.
    public static let command = "__script"

    private static let configured = Mutex<String?>(nil)

    /// The executable started for scripts that use promises. `courier` sets it to itself; a test binary
    /// points it at the built `courier`. nil (the default of any other program) runs those scripts in this
    /// process, where their promise callbacks never run: `then` is an error that says so.
    public static var executable: URL? {
        get { configured.withLock { $0 }.map { URL(fileURLWithPath: $0, isDirectory: false) } }
        set { configured.withLock { $0 = newValue?.path } }
    }

    /// Sets `executable` from a path, made a URL only when a script needs the process (every command sets it
    /// at start, and most never run such a script).
    public static func setExecutable(path: String) {
        configured.withLock { $0 = path }
    }

    /// CPU seconds of the child's main thread past the script's time limit before the kill: the child's own
    /// start (about 30 ms), and reading back what a script its own watchdog stopped left behind.
    static let margin = 1.0
    /// Seconds of wall time past the time limit after which the child is killed even when it computes
    /// nothing: only a broken child gets there, since a script cannot wait without computing.
    static let wallMargin = 60.0

    /// Runs `source` in a child process started from `executable`; the result as `ScriptEngine.run` gives it.
    /// A child killed for its time limit or a cancel comes back with the error and nothing the script set.
    static func run(_ source: ScriptSource, input: ScriptInput, executable: URL) -> ScriptResult {
        var result = ScriptResult(globals: input.globals, requestVariables: input.requestVariables)
        func failed(_ message: String) -> ScriptResult {
            result.error = ScriptError(reason: .exception, message: message, file: source.file,
                                       line: source.firstCodeLine)
            return result
        }
        let job: Data
        do {
            job = try JSONEncoder().encode(ScriptJob(source: source, input: input,
                                                     canSend: input.services.send != nil,
                                                     knowsDynamic: input.services.dynamicValue != nil,
                                                     hasCookieJar: input.services.cookies != nil))
        } catch {
            return failed("internal: cannot encode the script's input: \(error)")
        }
        let child: ScriptChild
        switch ScriptChild.start(executable, arguments: [command]) {
        case .success(let started): child = started
        case .failure(let error):
            return failed("cannot start a process for this script, which uses promises (\(executable.path)): "
                          + "\(error.localizedDescription)")
        }
        let limit = max(input.timeLimit, 0.001)
        switch child.exchange(job, cpuLimit: limit + margin, wallLimit: limit + wallMargin,
                              isCancelled: input.isCancelled, answer: { answer($0, $1, services: input.services) }) {
        case .finished(let output):
            guard let decoded = try? JSONDecoder().decode(ScriptResult.self, from: output) else {
                return failed("internal: the script process answered something other than a result")
            }
            return decoded
        case .stopped(let stop):
            result.error = ScriptEngine.stopped(stop, line: source.firstCodeLine, source: source, input: input)
            return result
        case .failed(let how):
            return failed("the script's process \(how)")
        }
    }

    /// Courier's answer to a question of a script process (`ScriptFrame`): the response to its request, or a
    /// dynamic variable's value; nil for what is not a question.
    private static func answer(_ kind: ScriptFrame.Kind, _ payload: Data, services: ScriptServices) -> Data? {
        let reply: ScriptAnswer
        switch kind {
        case .send:
            guard let request = try? JSONDecoder().decode(ScriptOutgoingRequest.self, from: payload) else { return nil }
            reply = ScriptAnswer(services.send?(request) ?? .failure(ScriptSendFailure("scripts cannot send here")))
        case .dynamic:
            guard let ask = try? JSONDecoder().decode(ScriptAsk.self, from: payload) else { return nil }
            reply = ScriptAnswer(value: services.dynamicValue?(ask.expression))
        case .cookies:
            guard let ask = try? JSONDecoder().decode(ScriptAsk.self, from: payload) else { return nil }
            reply = ScriptAnswer(value: services.cookies?(ask.expression))
        case .job, .answer, .result:
            return nil
        }
        return try? JSONEncoder().encode(reply)
    }
}
