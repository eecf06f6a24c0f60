import CourierBody
import CourierHTTP
import CourierSecurity
import Foundation

/// The `--json` object of a response, written member by member into a `JSONWriter` (no dictionary, no
/// sorting). Members are written in alphabetical order, as the sorted-key writer before it printed them, so
/// the object reads the same to a script and to a person.
extension ResponseOutput {
    /// What `courier run` adds to a response's object: which file, which iteration, the scripts' tests and
    /// logs, where `>>` saved the body, the `# @note`.
    struct RunMembers {
        /// Set when a folder runs.
        var file: String?
        /// The environment the request resolved against (given with `--env` or chosen without it).
        var environment: String?
        /// Set when `--data` or `--iteration-count` runs more than once (0-based).
        var iteration: Int?
        var logs: [String] = []
        var note: String?
        var saved: [String] = []
        var scriptError: String?
        var tests: [(name: String, passed: Bool, message: String)] = []
    }

    /// One JSON object: status, headers, body, cache, error and attempts (keys in alphabetical order, stable
    /// for scripts). `bodyPlaceholder` stands in for a body written separately (`JSONBodyWriter`), with its
    /// encoding.
    static func json(response: HTTPResponse?, error: APIError?, attempts: [AttemptRecord], name: String? = nil,
                     options: Options = Options(), bodyPlaceholder: (text: String, encoding: String?)? = nil) -> String {
        var writer = JSONWriter()
        writeJSON(response: response, error: error, attempts: attempts, name: name, options: options,
                  bodyPlaceholder: bodyPlaceholder, into: &writer)
        return String(decoding: writer.finishLine(), as: UTF8.self)
    }

    /// Writes the response's object into `writer`; `run` adds `courier run`'s members in their places.
    static func writeJSON(response: HTTPResponse?, error: APIError?, attempts: [AttemptRecord], name: String?,
                          options: Options, bodyPlaceholder: (text: String, encoding: String?)? = nil,
                          run: RunMembers? = nil, into out: inout JSONWriter) {
        let cache = response?.cache
        let wireSize = response.map(\.timing.bytesOnWire).flatMap { wire in
            wire > 0 && wire != response?.body.size ? wire : nil
        }
        out.openObject()
        if let age = cache?.age { out.member("age_s", Int(age.rounded())) }
        out.key("attempts")
        out.openArray()
        for attempt in attempts { writeAttempt(attempt, into: &out) }
        out.closeArray()
        writeBody(response, options: options, placeholder: bodyPlaceholder, into: &out)
        if let response {
            out.member("body_size", response.body.size)
            if let wireSize { out.member("body_wire_size", wireSize) }
        }
        out.member("cache", (cache?.decision ?? .bypass).rawValue)
        if let cache {
            if let detail = cache.detail { out.member("cache_detail", detail) }
            out.member("cache_reason", cache.reason)
        }
        if let note = response?.contentEncodingNote { out.member("content_encoding_note", note) }
        if let environment = run?.environment { out.member("environment", environment) }
        writeError(error, into: &out)
        if let file = run?.file { out.member("file", file) }
        out.key("headers")
        out.openArray()
        for field in response?.headers.redacted(showSecrets: options.showSecrets) ?? [:] {
            out.openArray()
            out.string(field.name)
            out.string(field.value)
            out.closeArray()
        }
        out.closeArray()
        if let response { out.member("http_version", response.httpVersion) }
        if let iteration = run?.iteration { out.member("iteration", iteration) }
        if let logs = run?.logs, !logs.isEmpty { out.member("logs", strings: logs) }
        if let name { out.member("name", name) }
        if let note = run?.note { out.member("note", note) }
        if let saved = run?.saved, !saved.isEmpty { out.member("saved", strings: saved) }
        if let scriptError = run?.scriptError { out.member("scriptError", scriptError) }
        out.member("status", response?.status)
        if let streamed = options.streamed { out.member("streamed", streamed) }
        if let run { writeTests(run.tests, into: &out) }
        if let ttl = cache?.ttl { out.member("ttl_s", Int(ttl.rounded())) }
        if let response {
            out.member("url", options.showSecrets ? response.url.absoluteString
                                                  : SecretPolicy.maskedURL(response.url.absoluteString))
        }
        out.closeObject()
    }

    /// `body` and, when there is one, `body_encoding` or `body_file`.
    private static func writeBody(_ response: HTTPResponse?, options: Options,
                                  placeholder: (text: String, encoding: String?)?, into out: inout JSONWriter) {
        if options.streamed != nil {
            out.nullMember("body")
        } else if let bodyFile = options.bodyFile {
            out.nullMember("body")
            out.member("body_file", bodyFile.path)
        } else if let placeholder {
            out.member("body", placeholder.text)
            if let encoding = placeholder.encoding { out.member("body_encoding", encoding) }
        } else if let data = response.flatMap({ try? $0.body.readAll() }) {
            if let text = String(data: data, encoding: .utf8) {
                out.member("body", text)
            } else {
                out.member("body", data.base64EncodedString())
                out.member("body_encoding", "base64")
            }
        } else {
            out.nullMember("body")
        }
    }

    /// `"error": {"kind", "message"}` or `"error": null`.
    static func writeError(_ error: APIError?, into out: inout JSONWriter) {
        out.key("error")
        guard let error else { return out.null() }
        out.openObject()
        out.member("kind", error.kind.rawValue)
        out.member("message", error.logDescription)
        out.closeObject()
    }

    /// `"tests": [{"message", "name", "passed"}]`.
    static func writeTests(_ tests: [(name: String, passed: Bool, message: String)], into out: inout JSONWriter) {
        out.key("tests")
        out.openArray()
        for test in tests {
            out.openObject()
            out.member("message", test.message)
            out.member("name", test.name)
            out.member("passed", test.passed)
            out.closeObject()
        }
        out.closeArray()
    }

    private static func writeAttempt(_ record: AttemptRecord, into out: inout JSONWriter) {
        out.openObject()
        out.member("attempt", record.sequence)
        out.member("delay_s", record.delayBeforeNext.map { round3($0.seconds) })
        writeError(record.error, into: &out)
        out.member("reason", record.retryReason)
        out.member("retry_declined", record.retryDeclined?.description)
        out.member("reused_connection", record.reusedConnection)
        out.member("status", record.status)
        out.key("timing")
        if let timing = record.timing {
            func ms(_ duration: Duration?) -> Double? { duration.map { round3($0.milliseconds) } }
            out.openObject()
            out.member("connect_ms", ms(timing.connect))
            out.member("dns_ms", ms(timing.dns))
            out.member("tls_ms", ms(timing.tls))
            out.member("total_ms", ms(timing.total))
            out.member("ttfb_ms", ms(timing.firstByte))
            out.closeObject()
        } else {
            out.null()
        }
        out.closeObject()
    }

    private static func round3(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
