import Foundation
import Testing
@testable import CourierHTTP

/// Retry-After in both of its forms (RFC 9110 section 10.2.3).
@Suite struct RetryAfterTests {
    let now = Date(timeIntervalSince1970: 784_111_777)   // Sun, 06 Nov 1994 08:49:37 GMT

    @Test func delaySecondsAreReadAsIs() {
        #expect(RetryAfter.delay(in: ["Retry-After": "120"], now: now) == .seconds(120))
        #expect(RetryAfter.delay(in: ["Retry-After": " 0 "], now: now) == .zero)
    }

    @Test func allThreeHTTPDateShapesAreRelativeToNow() {
        #expect(RetryAfter.delay(in: ["Retry-After": "Sun, 06 Nov 1994 08:49:47 GMT"], now: now) == .seconds(10))
        #expect(RetryAfter.delay(in: ["Retry-After": "Sunday, 06-Nov-94 08:49:47 GMT"], now: now) == .seconds(10))
        #expect(RetryAfter.delay(in: ["Retry-After": "Sun Nov  6 08:49:47 1994"], now: now) == .seconds(10))
    }

    @Test func aDateInThePastMeansNowAndGarbageMeansNothing() {
        #expect(RetryAfter.delay(in: ["Retry-After": "Sun, 06 Nov 1994 08:00:00 GMT"], now: now) == .zero)
        #expect(RetryAfter.delay(in: ["Retry-After": "soon"], now: now) == nil)
        #expect(RetryAfter.delay(in: ["Retry-After": "-5"], now: now) == nil)
        #expect(RetryAfter.delay(in: [:], now: now) == nil)
    }

    @Test func thePolicyNamesWhyItStopped() {
        let policy = RetryPolicy.standard
        let request = HTTPRequest(method: .post, url: URL(string: "http://stub.test/")!)
        let decision = policy.decide(request: request, outcome: .success(.stub(503)), attempt: 1, elapsed: .zero,
                                     retryAfter: nil, random: 0.5)
        #expect(decision == .stop(declined: RetryDeclined(trigger: .status(503), reason: .notIdempotent(.post))))
        let long = policy.decide(request: HTTPRequest(url: URL(string: "http://stub.test/")!),
                                 outcome: .success(.stub(429)), attempt: 1, elapsed: .zero,
                                 retryAfter: .seconds(60), random: 0.5)
        guard case .stop(let declined?) = long else { Issue.record("no decline: \(long)"); return }
        #expect(declined.description == "HTTP 429: Retry-After 60 s is longer than 10 s")
    }
}
