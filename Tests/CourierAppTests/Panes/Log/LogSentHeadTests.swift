import CourierApp
import CourierHTTP
import CourierTerminal
import Foundation
import Testing

/// The Log's detail says what went out (the headers libcurl added too), a cache miss's freshness in words,
/// and the pane's title what its row marks mean.
@Suite("the Log: headers as sent, freshness in words, a legend for its marks")
struct LogSentHeadTests {
    let t0 = Date(timeIntervalSince1970: 1_767_225_600)
    let url = URL(string: "http://127.0.0.1:8080/users")!
    let request = RequestID(7)

    private func detail(_ log: LogPaneState) -> String {
        guard let attempt = log.attempts.last else { return "" }
        return log.detailLines(attempt, theme: .dark).map(\.plainText).joined(separator: "\n")
    }

    @Test func theDetailListsTheHeadersTheTransportSentNotNone() {
        // Given a request with no headers of its own
        var log = LogPaneState(timeZone: TimeZone(identifier: "UTC")!)
        log.apply(.attemptStarted(request, attempt: 1, method: .get, url: url, headers: [:], at: t0), now: t0)
        #expect(detail(log).contains("(none)"))
        // When the transport reports the head it wrote, with its own fields and a token
        let head = "GET /users HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUser-Agent: courier/1.0\r\nAccept: */*\r\n"
            + "Accept-Encoding: gzip, br\r\nAuthorization: Bearer s3cr3t-token\r\n\r\n"
        log.recordSentHeaders(LogPaneState.headers(ofHead: head), for: request)
        // Then the detail lists them, the token masked
        let text = detail(log)
        #expect(!text.contains("(none)"))
        for line in ["Host: 127.0.0.1:8080", "User-Agent: courier/1.0", "Accept: */*", "Accept-Encoding: gzip, br",
                     "Authorization: Bearer REDACTED"] {
            #expect(text.contains(line), "\(line) missing from:\n\(text)")
        }
        #expect(!text.contains("s3cr3t"))
    }

    @Test func aStaleAnswerSaysStaleByNotANegativeTimeToLive() {
        var log = LogPaneState(timeZone: TimeZone(identifier: "UTC")!)
        log.apply(.cacheDecision(request, CacheReport(decision: .stale, age: 62, ttl: -2)), now: t0)
        log.apply(.attemptStarted(request, attempt: 1, method: .get, url: url, headers: [:], at: t0), now: t0)
        let text = detail(log)
        #expect(text.contains("stale (age 62 s, stale by 2 s)"), "\(text)")
        #expect(!text.contains("ttl -"))
    }

    @Test func theTitleExplainsTheReusedAndRetryMarksWhenRowsCarryThem() {
        var log = LogPaneState(timeZone: TimeZone(identifier: "UTC")!)
        #expect(log.legend == "")
        log.apply(.attemptStarted(request, attempt: 1, method: .get, url: url, headers: [:], at: t0), now: t0)
        log.apply(.attemptFinished(request, attempt: 1, outcome: .response(status: 503, headers: [:]),
                                   timing: Timing(total: .milliseconds(5), reusedConnection: true)), now: t0)
        #expect(log.legend == "↺ reused connection")
        log.apply(.retryScheduled(request, attempt: 1, reason: "503", delay: .seconds(1)), now: t0)
        #expect(log.legend == "↺ reused connection · ↻ retry")
        var buffer = Buffer(size: Size(width: 80, height: 6))
        let context = RenderContext(now: t0, focused: false, area: buffer.area)
        LogPaneView.frame(log, context).render(into: &buffer, area: buffer.area, theme: .dark, focused: false)
        #expect(buffer.text.contains("↺ reused connection · ↻ retry"))
    }
}
