@testable import CourierApp
import CourierHTTP
import CourierMessage
import CourierTerminal
import Foundation
import Testing

@Suite("Compare pane")
struct ComparePaneTests {
    static let url = URL(string: "http://127.0.0.1:8080/etag")!

    /// A stored response that went stale and came back from a validation as given.
    static func revalidation(status: Int, afterHeaders: HTTPHeaders, afterBody: String,
                             decision: CacheDecision) -> CacheRevalidation {
        let before = HTTPResponse(
            status: 200, reason: "OK",
            headers: ["ETag": "\"v1\"", "Cache-Control": "max-age=60", "X-Old": "gone", "Age": "65"],
            body: .data(Data("{\n  \"id\": 1,\n  \"name\": \"Ada\"\n}".utf8)), url: url,
            cache: CacheReport(decision: .stale, age: 65, ttl: -5))
        let after = HTTPResponse(status: 200, reason: "OK", headers: afterHeaders, body: .data(Data(afterBody.utf8)),
                                 url: url, cache: CacheReport(decision: decision, age: 0, ttl: 60))
        return CacheRevalidation(before: before, after: after, validationStatus: status,
                                 bytesTransferred: status == 304 ? 180 : 2_300, fullFetchBytes: 2_250,
                                 validationSeconds: 0.004, fullFetchSeconds: 0.031, at: Date(timeIntervalSince1970: 0))
    }

    static func render(_ state: ComparePaneState, width: Int = 72, height: Int = 22) -> [String] {
        var buffer = Buffer(size: Size(width: width, height: height))
        // Unfocused: thin lines, the same frame as every other pane.
        ComparePaneView.draw(state, RenderContext(area: Rect(x: 0, y: 0, width: width, height: height)), into: &buffer)
        return buffer.lines()
    }

    @Test func aRevalidationAnswered304ShowsUnchangedBodyTheSavingsAndUpdatedHeaders() {
        // Given a 304 that refreshed Cache-Control and dropped nothing but X-Old
        let revalidation = Self.revalidation(
            status: 304, afterHeaders: ["ETag": "\"v1\"", "Cache-Control": "max-age=120", "Age": "0"],
            afterBody: "{\n  \"id\": 1,\n  \"name\": \"Ada\"\n}", decision: .revalidated)
        let state = ComparePaneState(title: "GET /etag", revalidation: revalidation)
        // When it is drawn
        let lines = Self.render(state, height: 18)
        // Then both sides, the savings and the header changes are on screen as text
        #expect(lines == [
            "╭─ 3 Compare · GET /etag ──────────────────────────────────────────────╮",
            "│Stored                            │ Revalidated                       │",
            "│200 OK                            │ 200 OK                            │",
            "│cache                             │ cache revalidated                 │",
            "│age 65s · stale by 5s             │ age 0s · fresh, 60s left          │",
            "│body 30 B                         │ body 30 B                         │",
            "│                                                                      │",
            "│Validation   304 Not Modified                                         │",
            "│Transferred  180 B vs 2.2 KB for a full fetch · saved 2.0 KB (92%)    │",
            "│Time         4.0 ms vs 31 ms for a full fetch · saved 27 ms           │",
            "│                                                                      │",
            "│Headers      2 changed                                                │",
            "│  ~ Cache-Control: max-age=60 → max-age=120                           │",
            "│  - X-Old: gone                                                       │",
            "│                                                                      │",
            "│Body         unchanged (30 B)                                         │",
            "│                                                                      │",
            "╰──────────────────────────────────────────────────────────────────────╯",
        ])
    }

    @Test func aSetCookieTheCacheWithheldIsNamedNotShownAsAChange() {
        // Given a refetch whose answer set a cookie, which the cache never stores
        var revalidation = Self.revalidation(
            status: 200, afterHeaders: ["ETag": "\"v1\"", "Cache-Control": "max-age=60", "X-Old": "gone",
                                        "Set-Cookie": "session=s3cr3t"],
            afterBody: "{\n  \"id\": 1,\n  \"name\": \"Ada\"\n}", decision: .refetched)
        revalidation.withheldFields = ["Set-Cookie"]
        let lines = Self.render(ComparePaneState(title: "GET /etag", revalidation: revalidation), height: 18)
        // Then the compare view says it was withheld, and neither its value nor a change appears
        #expect(lines.contains("│Headers      unchanged                                                │"))
        #expect(lines.contains("│  Set-Cookie withheld from the cache                                  │"))
        #expect(!lines.joined().contains("s3cr3t"))
    }

    @Test func aRevalidationAnswered200ShowsALineDiffOfTheBody() {
        let revalidation = Self.revalidation(
            status: 200, afterHeaders: ["ETag": "\"v2\"", "Cache-Control": "max-age=60", "X-New": "1"],
            afterBody: "{\n  \"id\": 1,\n  \"name\": \"Grace\"\n}", decision: .refetched)
        let state = ComparePaneState(title: "GET /etag", revalidation: revalidation)
        let lines = Self.render(state, height: 24)
        #expect(Array(lines[7...21]) == [
            "│Validation   200 OK                                                   │",
            "│Transferred  2.2 KB vs 2.2 KB for a full fetch                        │",
            "│Time         4.0 ms vs 31 ms for a full fetch                         │",
            "│                                                                      │",
            "│Headers      3 changed                                                │",
            "│  ~ ETag: \"v1\" → \"v2\"                                                 │",
            "│  + X-New: 1                                                          │",
            "│  - X-Old: gone                                                       │",
            "│                                                                      │",
            "│Body         2 lines changed                                          │",
            "│    {                                                                 │",
            "│      \"id\": 1,                                                        │",
            "│  -   \"name\": \"Ada\"                                                   │",
            "│  +   \"name\": \"Grace\"                                                 │",
            "│    }                                                                 │",
        ])
        #expect(lines[3] == "│cache                             │ cache refetched                   │")
    }

    @Test func revalidateNowAsksTheAppOnceAndLoadingTheResultShowsIt() {
        // Given an empty pane
        var state = ComparePaneState(title: "GET /etag")
        #expect(Self.render(state, height: 4)[1] == "│No revalidation yet: press r to send the conditional request.         │")
        // When r is pressed twice before the answer arrives
        let key = ComparePaneState.keymap.command(for: .char("r"))
        #expect(key == .revalidateNow)
        #expect(state.handle(.revalidateNow) == .revalidateNow)
        #expect(state.handle(.revalidateNow) == nil)
        #expect(Self.render(state, height: 4)[1] == "│Revalidating…                                                         │")
        // Then loading the result shows it, and nothing stored says so
        state.load(nil)
        #expect(!state.isRevalidating)
        #expect(state.message?.hasPrefix("Nothing is stored") == true)
        #expect(state.handle(.close) == .close)
    }

    @Test func scrollingStopsAtTheEndOfTheDetails() {
        var state = ComparePaneState(title: "GET /etag", revalidation: Self.revalidation(
            status: 304, afterHeaders: ["ETag": "\"v1\""], afterBody: "x", decision: .revalidated))
        for _ in 0..<100 { _ = state.handle(.scrollDown) }
        #expect(state.scroll > 0)
        let atEnd = state.scroll
        _ = state.handle(.pageDown)
        #expect(state.scroll == atEnd)
        _ = state.handle(.top)
        #expect(state.scroll == 0)
    }

    @Test func theBodyDiffKeepsCommonLinesAndOrdersRemovalsFirst() {
        // Given a refetch whose body changed one line and gained another
        let revalidation = Self.revalidation(
            status: 200, afterHeaders: [:], afterBody: "{\n  \"id\": 2,\n  \"name\": \"Ada\"\n}\n", decision: .refetched)
        // When the comparison is worked out
        guard case .lines(let lines) = CacheComparison(revalidation).body else {
            Issue.record("expected a line diff")
            return
        }
        // Then common lines are kept and the removal comes before its replacement
        #expect(lines.map { "\($0.kind) \($0.text)" } == [
            "context {", "removed   \"id\": 1,", "added   \"id\": 2,", "context   \"name\": \"Ada\"", "context }",
        ])
    }

    @Test func eachSideStatesOneFreshnessVerdict() {
        // Given a stored side the cache served as stale whose time to live says it is fresh again
        let before = HTTPResponse(status: 200, headers: [:], body: .data(Data("x".utf8)), url: Self.url,
                                  cache: CacheReport(decision: .stale, age: 6, ttl: 54))
        let after = HTTPResponse(status: 200, headers: [:], body: .data(Data("x".utf8)), url: Self.url,
                                 cache: CacheReport(decision: .revalidated, age: 0, ttl: 60))
        let state = ComparePaneState(title: "GET /etag", revalidation: CacheRevalidation(
            before: before, after: after, validationStatus: 304, bytesTransferred: 1, fullFetchBytes: 1,
            validationSeconds: 0.001, fullFetchSeconds: 0.001, at: Date(timeIntervalSince1970: 0)))
        // When drawn
        let stored = Self.render(state).map { String($0.prefix(35)) }.joined(separator: "\n")
        // Then the stored column says fresh once, never stale beside it
        #expect(stored.contains("fresh, 54s left"), "\(stored)")
        #expect(!stored.contains("stale"), "\(stored)")
    }

    @Test func aMinifiedJSONBodyIsDiffedPrettyAndLongLinesWrapInsteadOfBeingCut() {
        // Given a refetch of minified JSON where one long value changed
        let long = String(repeating: "word ", count: 30)
        let before = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                                  body: .data(Data(#"{"id":1,"note":"\#(long)old","tags":["a","b"]}"#.utf8)), url: Self.url,
                                  cache: CacheReport(decision: .stale, age: 65, ttl: -5))
        let after = HTTPResponse(status: 200, headers: ["Content-Type": "application/json"],
                                 body: .data(Data(#"{"id":1,"note":"\#(long)new","tags":["a","b"]}"#.utf8)), url: Self.url,
                                 cache: CacheReport(decision: .refetched, age: 0, ttl: 60))
        var state = ComparePaneState(title: "GET /etag", revalidation: CacheRevalidation(
            before: before, after: after, validationStatus: 200, bytesTransferred: 1, fullFetchBytes: 1,
            validationSeconds: 0.001, fullFetchSeconds: 0.001, at: Date(timeIntervalSince1970: 0)))
        state.width = 70
        // When drawn
        let screen = Self.render(state, height: 60).joined(separator: "\n")
        // Then the diff is of pretty lines (one value changed, the others are context)
        #expect(screen.contains("Body         2 lines changed"), "\(screen)")
        #expect(screen.contains("    \"id\": 1,"), "\(screen)")
        // And the changed value's end is on screen, on a continuation row, not cut at the border
        #expect(screen.contains("old\","), "\(screen)")
        #expect(screen.contains("new\","), "\(screen)")
    }
}

@Suite("Compare pane with the cache")
struct ComparePaneCacheTests {
    /// Answers /doc with an ETag; conditional requests get 304.
    struct ValidatingTransport: Transport {
        /// A fixed Date, so that the only header a 304 changes is the one the test names.
        static let date = "Sun, 06 Nov 1994 08:49:37 GMT"

        func send(_ request: HTTPRequest, context: RequestContext) async throws(APIError) -> HTTPResponse {
            if request.headers["If-None-Match"] == "\"d1\"" {
                return HTTPResponse(status: 304, headers: ["ETag": "\"d1\"", "X-Checked": "yes", "Date": Self.date],
                                    url: request.url,
                                    timing: Timing(total: .milliseconds(2), bytesReceived: 0))
            }
            return HTTPResponse(status: 200, reason: "OK",
                                headers: ["ETag": "\"d1\"", "Cache-Control": "max-age=60", "Date": Self.date],
                                body: .data(Data("document".utf8)), url: request.url,
                                timing: Timing(total: .milliseconds(20), bytesReceived: 8))
        }
    }

    @Test func revalidateNowThroughTheCacheFillsThePane() async throws {
        // Given a stored response
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("compare-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try HTTPCacheMiddleware(directory: directory)
        let transport = ValidatingTransport()
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1:1/doc")!)
        _ = try await cache.intercept(request, context: RequestContext()) { request, context throws(APIError) in
            try await transport.send(request, context: context)
        }
        var state = ComparePaneState(request: request, cache: cache)
        #expect(state.comparison == nil)
        // And before any revalidation the stored response is shown alone
        #expect(state.stored?.status == 200)
        var buffer = Buffer(size: Size(width: 60, height: 9))
        ComparePaneView.draw(state, RenderContext(area: Rect(x: 0, y: 0, width: 60, height: 9)), into: &buffer)
        #expect(buffer.lines()[2] == "│200 OK                      │ not revalidated yet         │")
        #expect(buffer.lines()[7] == "│Press r to revalidate the stored response now.            │")
        // When the user asks to revalidate now and the effect runs
        #expect(state.handle(.revalidateNow) == .revalidateNow)
        let result = await ComparePaneState.revalidate(request, cache: cache, transport: transport)
        state.load(try result.get())
        // Then the pane compares the stored response with the revalidated one
        let comparison = try #require(state.comparison)
        #expect(comparison.validationStatus == 304)
        #expect(comparison.headerChanges == [.added(name: "X-Checked", value: "yes")])
        #expect(comparison.body == .unchanged(bytes: 8))
        #expect(comparison.bytesSaved == 8)
        #expect(state.title == "GET http://127.0.0.1:1/doc")
    }
}

/// The status text of a compared response: the server's phrase, the table's, or the bare code.
@Suite struct CompareStatusTextTests {
    @Test("a status without a phrase from the server or the table shows the bare code, with no trailing space")
    func statusTextHasNoDanglingSpace() {
        #expect(ComparePaneView.statusText(200, reason: "Fine") == "200 Fine")
        #expect(ComparePaneView.statusText(304, reason: "") == "304 Not Modified")
        #expect(ComparePaneView.statusText(299, reason: "") == "299")
    }
}
