import CourierApp
import CourierHTTP
import CourierMessage
import CourierTerminal
import Foundation
import Testing

@Suite struct LogPaneTests {
    let t0 = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01 00:00:00 UTC
    let url = URL(string: "http://127.0.0.1:8080/flaky?x=1")!
    let request = RequestID(41)

    private func at(_ seconds: Double) -> Date { t0.addingTimeInterval(seconds) }
    private func ms(_ value: Int64) -> Duration { .milliseconds(value) }

    private func started(_ id: RequestID, _ attempt: Int, _ seconds: Double, url: URL? = nil,
                         headers: HTTPHeaders = [:]) -> ClientEvent {
        .attemptStarted(id, attempt: attempt, method: .get, url: url ?? self.url, headers: headers, at: at(seconds))
    }

    private func render(_ state: LogPaneState, width: Int = 80, height: Int = 8, now: Double,
                        focused: Bool = true) -> Buffer {
        var buffer = Buffer(size: Size(width: width, height: height))
        LogPaneView.render(state, RenderContext(now: at(now), focused: focused, area: buffer.area), into: &buffer)
        return buffer
    }

    /// A 503 with Retry-After, then a retry that succeeds on a reused connection.
    private func flakyLog(retried: Bool) -> LogPaneState {
        var log = LogPaneState(timeZone: TimeZone(identifier: "UTC")!)
        log.apply(started(request, 1, 0), now: at(0))
        log.apply(.attemptFinished(request, attempt: 1, outcome: .response(status: 503, headers: ["Retry-After": "1"]),
                                   timing: Timing(dns: ms(4), connect: ms(10), firstByte: ms(80), total: ms(100))),
                  now: at(0.1))
        log.apply(.retryScheduled(request, attempt: 1, reason: "503 with Retry-After", delay: .seconds(1)), now: at(0.1))
        if retried {
            log.apply(started(request, 2, 1.1), now: at(1.1))
            log.apply(.attemptFinished(request, attempt: 2, outcome: .response(status: 200, headers: [:]),
                                       timing: Timing(firstByte: ms(40), total: ms(50), reusedConnection: true)),
                      now: at(1.15))
        }
        return log
    }

    @Test func aRetryShowsItsReasonAndACountdownWhileTheWaitRuns() {
        // Given a 503 whose retry is scheduled in 1 s
        let log = flakyLog(retried: false)
        // When the pane is drawn 0.3 s into the wait
        let buffer = render(log, now: 0.4)
        // Then the retry line counts down, and the attempt has its waterfall and total
        Snapshot.assert(buffer, named: "log-retry-countdown", pane: "log pane")
        #expect(buffer.text.contains("↻ retry in 0.7 s of 1.0 s · 503 with Retry-After"))
        #expect(log.nextTick(after: at(0.4)) != nil)
        // And once the wait is over the countdown stops asking for frames
        #expect(log.nextTick(after: at(1.2)) == nil)
    }

    @Test func aFinishedRetryIsGroupedUnderItsRequestWithReusedConnectionMarked() {
        let log = flakyLog(retried: true)
        let buffer = render(log, now: 2)
        Snapshot.assert(buffer, named: "log-retried", pane: "log pane")
        #expect(buffer.text.contains("↻ retried after 1.0 s"))
        #expect(log.rows.count == 3)
    }

    @Test func aSupersededAttemptIsGreyedAndNeverAFailure() throws {
        // Given a live-mode request superseded while in flight, and the newer one that completed
        var log = LogPaneState(timeZone: TimeZone(identifier: "UTC")!)
        let newer = RequestID(42)
        log.apply(started(request, 1, 0, url: URL(string: "http://127.0.0.1:8080/search?q=co")!), now: at(0))
        log.apply(.cancelled(request, superseded: true), now: at(0.2))
        log.apply(.attemptFinished(request, attempt: 1, outcome: .failure(.cancelled), timing: nil), now: at(0.2))
        log.apply(started(newer, 1, 0.2, url: URL(string: "http://127.0.0.1:8080/search?q=courier")!), now: at(0.2))
        log.apply(.attemptFinished(newer, attempt: 1, outcome: .response(status: 200, headers: [:]),
                                   timing: Timing(dns: ms(1), connect: ms(2), firstByte: ms(30), total: ms(32))),
                  now: at(0.3))
        let buffer = render(log, height: 4, now: 1, focused: false)
        Snapshot.assert(buffer, named: "log-superseded", pane: "log pane")
        // Then the superseded row is greyed, not red, and the errors filter leaves it out
        #expect(log.attempts[0].outcome == .cancelled(superseded: true))
        let column = try #require(buffer.lines()[1].firstRange(of: "superseded")).lowerBound
        let statusCell = buffer[buffer.lines()[1].distance(from: buffer.lines()[1].startIndex, to: column), 1]
        #expect(statusCell.grapheme == "s")
        #expect(statusCell.style.attributes.contains(.dim))
        #expect(statusCell.style != Theme.dark.error)
        log.handle(.toggleErrorsOnly)
        #expect(log.rows.isEmpty)
    }

    @Test func aCancelledWaitStopsTheCountdown() {
        var log = flakyLog(retried: false)
        log.apply(.cancelled(request, superseded: false), now: at(0.3))
        #expect(render(log, now: 0.5).text.contains("↻ retry cancelled · 503 with Retry-After"))
        #expect(log.nextTick(after: at(0.5)) == nil)
    }

    @Test func barsShareOneScaleSetByTheSlowestAttemptShown() {
        var log = LogPaneState(timeZone: TimeZone(identifier: "UTC")!)
        for (index, total) in [(1, Int64(200)), (2, Int64(100))] {
            let id = RequestID(UInt64(index))
            log.apply(started(id, 1, Double(index)), now: at(Double(index)))
            log.apply(.attemptFinished(id, attempt: 1, outcome: .response(status: 200, headers: [:]),
                                       timing: Timing(firstByte: .milliseconds(total), total: .milliseconds(total))),
                      now: at(Double(index)))
        }
        let buffer = render(log, width: 80, height: 4, now: 5)
        let lines = buffer.lines()
        let full = lines[1].filter { $0 == "█" }.count
        let half = lines[2].filter { $0 == "█" }.count
        #expect(full > 0 && half > 0)
        #expect(abs(full - 2 * half) <= 1)
        #expect(lines[0].contains("200 ms"))  // the scale is shown over the bars
    }

    @Test func theLogKeepsABoundedNumberOfAttempts() {
        var log = LogPaneState(maxAttempts: 3)
        for index in 1...5 { log.apply(started(RequestID(UInt64(index)), 1, Double(index)), now: at(Double(index))) }
        #expect(log.attempts.map(\.key.request) == [RequestID(3), RequestID(4), RequestID(5)])
        #expect(log.selectedAttempt?.key.request == RequestID(5))
    }

    @Test func filtersShowErrorsOnlyOrOneRequestAndClearEmptiesTheLog() {
        var log = flakyLog(retried: true)
        log.apply(started(RequestID(99), 1, 3), now: at(3))
        let refused = ConnectFailure(reason: .refused, host: "127.0.0.1", port: 1, underlying: "refused")
        log.apply(.attemptFinished(RequestID(99), attempt: 1, outcome: .failure(.cannotConnect(refused)), timing: nil),
                  now: at(3))
        log.handle(.toggleErrorsOnly)
        #expect(log.rows.map { log.attempts[$0.index].key.request } == [request, request, RequestID(99)])
        #expect(log.title == "Log · errors only")
        log.handle(.toggleErrorsOnly)
        log.handle(.top)
        log.handle(.toggleOnlySelectedRequest)
        #expect(Set(log.rows.map { log.attempts[$0.index].key.request }) == [request])
        log.handle(.toggleOnlySelectedRequest)
        #expect(log.rows.count == 4)
        log.handle(.clear)
        #expect(log.attempts.isEmpty && log.rows.isEmpty)
        #expect(render(log, now: 4).text.contains("Attempts, retries and timings appear here."))
    }

    @Test func selectionFollowsNewRowsUntilTheUserMovesUp() {
        var log = flakyLog(retried: true)
        #expect(log.selectedAttempt?.key.attempt == 2)
        log.handle(.up)
        log.handle(.up)
        #expect(log.selectedAttempt?.key.attempt == 1)
        log.apply(started(RequestID(50), 1, 5), now: at(5))
        #expect(log.selectedAttempt?.key.attempt == 1)
        #expect(log.title.contains("paused"))
        log.handle(.bottom)
        #expect(log.selectedAttempt?.key.request == RequestID(50))
    }

    @Test func enterOpensTheDetailWithRedactedHeadersTimingsAndTheErrorCause() {
        // Given an attempt sent with a bearer token that failed with a cause
        var log = LogPaneState(timeZone: TimeZone(identifier: "UTC")!)
        let headers: HTTPHeaders = ["Authorization": "Bearer secret-token-123", "Accept": "application/json"]
        log.apply(started(request, 1, 0, headers: headers), now: at(0))
        log.apply(.attemptFinished(request, attempt: 1, outcome: .failure(.timedOut(underlying: "no data for 5 s")),
                                   timing: Timing(dns: ms(3), connect: ms(9), total: .seconds(5))), now: at(5))
        // When Enter is pressed on it
        log.handle(.openDetail)
        let buffer = render(log, width: 70, height: 20, now: 6)
        // Then the detail shows the redacted header, the numbers and the cause; the secret is nowhere
        Snapshot.assert(buffer, named: "log-detail", pane: "log pane")
        let text = buffer.text
        #expect(text.contains("Authorization: Bearer REDACTED"))
        #expect(!text.contains("secret-token"))
        #expect(!log.attempts.description.contains("secret-token"))
        #expect(text.contains("timed out: no data for 5 s"))
        #expect(text.contains("DNS") && text.contains("3.0 ms"))
        // And Esc goes back to the rows
        log.handle(.closeDetail)
        #expect(log.detail == nil)
    }

    @Test func everyCommandHasAKeyAndHintsComeFromTheSameTable() {
        let commands: [LogPaneCommand] = [.down, .up, .pageDown, .pageUp, .top, .bottom, .openDetail, .closeDetail,
                                          .toggleErrorsOnly, .toggleOnlySelectedRequest, .clear]
        for command in commands {
            #expect(LogPaneState.keymap.contains { $0.command == command }, "no key for \(command)")
        }
        #expect(LogPaneState.keymap.command(for: Key(.enter)) == LogPaneCommand.openDetail)
        #expect(LogPaneState.keymap.filter(\.hint).map(\.keyLabel) == ["Enter", "e", "f", "x"])
    }

    @Test func concurrentRequestsKeepTheirAttemptsTogetherAndAClickSelectsARow() {
        // Given two requests whose attempts interleave in time
        var log = LogPaneState(timeZone: TimeZone(identifier: "UTC")!)
        let other = RequestID(7)
        log.apply(started(request, 1, 0), now: at(0))
        log.apply(started(other, 1, 0.1, url: URL(string: "http://127.0.0.1:8080/users")!), now: at(0.1))
        log.apply(started(request, 2, 0.2), now: at(0.2))
        // Then the rows keep each request's attempts together
        #expect(log.rows.map { log.attempts[$0.index].key } == [
            LogAttempt.Key(request: request, attempt: 1), LogAttempt.Key(request: request, attempt: 2),
            LogAttempt.Key(request: other, attempt: 1),
        ])
        // When the first row under the header is clicked
        log.select(at: Position(x: 3, y: 1), area: Rect(x: 0, y: 0, width: 80, height: 8))
        #expect(log.selectedAttempt?.key == LogAttempt.Key(request: request, attempt: 1))
        #expect(log.title.contains("paused"))
    }

    @Test func aNarrowPaneStillShowsEveryColumnButTheCache() {
        let buffer = render(flakyLog(retried: true), width: 58, height: 5, now: 2)
        Snapshot.assert(buffer, named: "log-narrow-58", pane: "log pane")
        #expect(buffer.lines()[1].contains("503"))
    }

    @Test("A failure the retry policy hands back gets a row saying why it was not retried")
    func aDeclinedRetryShowsItsReasonUnderTheAttempt() {
        // Given a POST answered 503, and a GET whose connection was lost three times
        var log = LogPaneState(timeZone: TimeZone(identifier: "UTC")!)
        let post = RequestID(60)
        log.apply(.attemptStarted(post, attempt: 1, method: .post, url: url, headers: [:], at: at(0)), now: at(0))
        log.apply(.attemptFinished(post, attempt: 1, outcome: .response(status: 503, headers: [:]),
                                   timing: Timing(firstByte: ms(8), total: ms(10))), now: at(0.01))
        // When the retry policy declines, with its reason
        log.apply(.retryDeclined(post, attempt: 1, RetryDeclined(trigger: .status(503), reason: .notIdempotent(.post))),
                  now: at(0.01))
        log.apply(started(request, 1, 1), now: at(1))
        log.apply(.attemptFinished(request, attempt: 1, outcome: .failure(.connectionLost(underlying: "reset")),
                                   timing: nil), now: at(1.01))
        log.apply(.retryDeclined(request, attempt: 1, RetryDeclined(trigger: .error(.connectionLost),
                                                                    reason: .attemptsExhausted(1))), now: at(1.01))
        // Then each attempt has a "not retried" row under it, in order, and the kind fits its column
        #expect(log.rows.map(\.kind) == [.attempt, .declined, .attempt, .declined])
        let text = render(log, width: 120, height: 8, now: 2).text
        #expect(text.contains("⊘ not retried · HTTP 503: POST without an Idempotency-Key is not retried"))
        #expect(text.contains("⊘ not retried · connectionLost after 1 attempt, the most allowed"))
        #expect(text.contains("conn. lost"))
        // And the errors-only filter keeps the declines with their failures
        log.handle(.toggleErrorsOnly)
        #expect(log.rows.count == 4)
        // And the detail repeats the reason
        log.handle(.openDetail)
        #expect(render(log, width: 120, height: 20, now: 2).text.contains("no retry    connectionLost after 1 attempt"))
    }
}
