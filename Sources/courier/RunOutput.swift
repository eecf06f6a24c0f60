import CourierBody
import CourierSecurity
import CourierCollections
import CourierHTTP
import Foundation

/// Printing one outcome of `courier run`, through the same ResponseOutput as `courier send`.
extension RunCommand {
    /// Prints one outcome, masking its request's secret set (`RunOutcome.secrets`: what the request sent as
    /// credentials, wherever the server echoes it). `secrets` are the environment's private values: hidden
    /// even when the request failed before it was built (an error message may quote a URL holding one).
    /// `file` is set when a folder runs: JSON objects then say which file they came from; `iteration` when
    /// `--data` or `--iteration-count` runs more than once (0-based, as `pm.info.iteration`).
    static func print(_ outcome: RunOutcome, attempts: [AttemptRecord], invocation: Invocation,
                      secrets: Set<String>, file: String? = nil, place: ErrorPlace? = nil, iteration: Int? = nil) {
        defer { if let body = outcome.response?.body { TemporaryBodyFiles.release(body) } }
        let name = outcome.template.displayName
        var options = ResponseOutput.Options(showSecrets: invocation.showSecrets, timing: invocation.timing)
        options.bodyLimit = invocation.fullBodies ? nil : bodyLimit
        let secrets = invocation.showSecrets ? [] : secrets.union(outcome.secrets)
        if invocation.quiet && (outcome.succeeded || outcome.skipped != nil) { return }
        if invocation.summary {
            Console.out(RunSummaryLine.line(outcome, secrets: secrets))
            return
        }
        var apiError: APIError?
        if case .transport(let error) = outcome.failure { apiError = error }
        if let result = outcome.webSocket {
            printWebSocket(result, name: name, json: invocation.json, file: file, secrets: secrets)
            return
        }
        if let skipped = outcome.skipped {
            if invocation.json {
                Console.out(skippedLine(name, reason: skipped, file: file))
            } else {
                Console.out("### \(name)\nskipped: \(skipped)\n")
            }
            return
        }
        if case .collection(let error) = outcome.failure {
            // The file the message names, kept whole when the rest is masked.
            let named = place.map { place in
                place.path == nil || place.path == outcome.template.id.file ? place.file : outcome.template.id.file
            } ?? ""
            let message = place.map { place in
                let own = place.path == nil || place.path == outcome.template.id.file
                return error.located(in: outcome.template, file: named,
                                     fileVariables: own ? place.variables : [], environments: place.sources)
            } ?? error.description
            if invocation.json {
                var out = JSONWriter()
                out.openObject()
                out.key("attempts")
                out.openArray()
                out.closeArray()
                if let environment = place?.environment { out.member("environment", environment) }
                out.key("error")
                out.openObject()
                out.member("kind", "collection")
                out.member("message", message)
                out.closeObject()
                let run = runMembers(outcome, file: file, iteration: iteration, environment: nil)
                if let file { out.member("file", file) }
                if let iteration { out.member("iteration", iteration) }
                if !run.logs.isEmpty { out.member("logs", strings: run.logs) }
                out.member("name", name)
                if let scriptError = run.scriptError { out.member("scriptError", scriptError) }
                out.nullMember("status")
                ResponseOutput.writeTests(run.tests, into: &out)
                out.closeObject()
                printJSON(&out, secrets: secrets, sparing: named)
            } else {
                let logs = scriptLines(outcome.scripts).filter { $0.hasPrefix("log: ") }
                let text = (["### \(name)"] + logs + ["Error: \(message)"]).joined(separator: "\n")
                Console.error(SecretMasker(secrets: secrets).mask(text, sparing: named) + "\n")
            }
            return
        }
        if invocation.json {
            // One object written member by member, the run's members in their places.
            var out = JSONWriter()
            let run = runMembers(outcome, file: file, iteration: iteration, environment: place?.environment)
            ResponseOutput.writeJSON(response: outcome.response, error: apiError, attempts: attempts, name: name,
                                     options: options, run: run, into: &out)
            printJSON(&out, secrets: secrets)
        } else {
            var out = TextLines()
            ResponseOutput.writeHuman(response: outcome.response, error: apiError, attempts: attempts, name: name,
                                      options: options, into: &out)
            if case .status(let status) = outcome.failure {
                let expected = outcome.template.expectedStatuses.sorted().map(String.init).joined(separator: ", ")
                out.line("failed: status \(status)" + (expected.isEmpty ? "" : ", expected \(expected)"))
            }
            for line in scriptLines(outcome.scripts) { out.line(line) }
            for path in outcome.savedTo { out.line("saved: \(path)") }
            if let note = outcome.template.tags[RequestTemplate.noteTag] { out.line(noteLine(note)) }
            // A blank line after each request.
            if secrets.isEmpty {
                out.append("\n")
                Console.out(out)
            } else {
                Console.out(SecretPolicy.masking(out.text, secrets: secrets) + "\n")
            }
        }
    }

    /// What `courier run` says of a request marked `# @note`, which the explorer asks about before sending:
    /// a run sends it without asking, and says so.
    static func noteLine(_ note: String) -> String {
        "note: " + (note.isEmpty ? "" : note + " ") + "(# @note: courier run sends it without asking)"
    }

    /// `{"name": …, "file": …}` for a skipped request (a folder run says which file it is in).
    private static func skippedLine(_ name: String, reason: String, file: String?) -> String {
        var out = JSONWriter()
        out.openObject()
        out.key("attempts")
        out.openArray()
        out.closeArray()
        out.nullMember("error")
        if let file { out.member("file", file) }
        out.member("name", name)
        out.member("skipped", reason)
        out.nullMember("status")
        ResponseOutput.writeTests([], into: &out)
        out.closeObject()
        return String(decoding: out.finishLine(), as: UTF8.self)
    }

    /// The members a run adds to a request's object: its file, iteration, scripts' tests and logs, saves, note.
    private static func runMembers(_ outcome: RunOutcome, file: String?, iteration: Int?,
                                   environment: String?) -> ResponseOutput.RunMembers {
        let scripts = outcome.scripts
        return ResponseOutput.RunMembers(
            file: file, environment: environment, iteration: iteration, logs: scripts.logs,
            note: outcome.template.tags[RequestTemplate.noteTag], saved: outcome.savedTo,
            scriptError: scripts.error?.description,
            tests: scripts.tests.map { (name: $0.name, passed: $0.passed, message: $0.message) })
    }

    /// Prints a finished object on one line, the request's secrets masked, except inside `path`: the file an
    /// error names stays whole, as in the text output.
    private static func printJSON(_ out: inout JSONWriter, secrets: Set<String>, sparing path: String = "") {
        let line = out.finishLine()
        if secrets.isEmpty {
            Console.out(bytes: line)
        } else {
            Console.out(SecretMasker(secrets: secrets).mask(String(decoding: line, as: UTF8.self), sparing: path))
        }
    }
}

/// Where a file's errors are reported: its path as printed, its file variables and the environments found.
struct ErrorPlace {
    var file: String
    var variables: [VariableDefinition]
    var sources: String
    /// The file's path in its requests' IDs: a request from another file (one a `run` line ran) is placed
    /// in that file instead.
    var path: String?
    /// The environment the file's requests resolve against, for `--json` (nil: none, only `$shared`).
    var environment: String? = nil
}
