import Foundation

extension ScriptProcess {
    /// Microseconds between the child's looks at its parent: when Courier is gone (killed, crashed), the child ends
    /// too, so an endless script never outlives the program that started it.
    static let parentCheckInterval: useconds_t = 100_000

    /// The child's side (`courier __script`): reads a script and its input (a `ScriptFrame` job) from standard
    /// input, runs it here with its promise jobs, asking Courier over the same socket for what it sends, and
    /// writes the result frame to standard output. Returns the exit status: 0 when a result was written, 2
    /// when the input was not a script.
    public static func serve() -> Int32 {
        // Nothing Courier had open stays open here (a listening socket, a terminal) while a script runs.
        closefrom(3)
        watchParent()
        guard let (kind, payload) = ScriptFrame.read(from: 0), kind == .job,
              let job = try? JSONDecoder().decode(ScriptJob.self, from: payload) else {
            ScriptFrame.writeAll(Data("courier \(command): expected a script and its input from Courier on standard input\n".utf8), to: 2)
            return 2
        }
        var input = job.input
        if job.canSend {
            input.services.send = { request in ask(.send, request).sendResult }
        }
        if job.knowsDynamic {
            input.services.dynamicValue = { expression in ask(.dynamic, ScriptAsk(expression: expression)).value }
        }
        if job.hasCookieJar {
            input.services.cookies = { call in
                ask(.cookies, ScriptAsk(expression: call)).value ?? #"{"error": "the script process lost its connection to Courier"}"#
            }
        }
        let result = ScriptEngine.runHere(job.source, input: input, jobs: .run)
        guard let output = try? JSONEncoder().encode(result) else { return 2 }
        return ScriptFrame.write(.result, output, to: 1) ? 0 : 1
    }

    /// Asks Courier (the parent) and waits for its answer; an answer saying what went wrong when there is none.
    private static func ask(_ kind: ScriptFrame.Kind, _ question: some Encodable) -> ScriptAnswer {
        guard let data = try? JSONEncoder().encode(question), ScriptFrame.write(kind, data, to: 1),
              let (answered, payload) = ScriptFrame.read(from: 0), answered == .answer,
              let answer = try? JSONDecoder().decode(ScriptAnswer.self, from: payload) else {
            return ScriptAnswer(error: "the script process lost its connection to Courier")
        }
        return answer
    }

    /// Ends this process as soon as its parent is gone (the parent of an orphan changes).
    private static func watchParent() {
        // The parent Courier named, not the one the child has now: Courier may have ended (and the child been
        // adopted) before this line ran.
        let named = ProcessInfo.processInfo.environment[ScriptChild.parentVariable].flatMap { pid_t($0) }
        let parent = named ?? getppid()
        Thread.detachNewThread {
            while getppid() == parent { usleep(parentCheckInterval) }
            _exit(3)
        }
    }
}
