import CourierHTTP
import Foundation
import Testing

/// `APIError.Kind` is what the retry policy, the log and `--json` match on; its spelling is what users see.
struct APIErrorKindTests {
    /// Every case, with the name `--json` and the log have always printed for it.
    static let spelled: [(APIError, String)] = [
        (.cannotConnect(ConnectFailure(reason: .refused, host: "127.0.0.1", port: 1, underlying: "refused")), "connectionRefused"),
        (.cannotConnect(ConnectFailure(reason: .unresolved, host: "x.invalid", port: nil, underlying: "")), "dnsFailure"),
        (.cannotConnect(ConnectFailure(reason: .networkUnreachable, host: "h", port: 80, underlying: "")), "unreachable"),
        (.timedOut(underlying: "slow"), "timedOut"),
        (.unauthorized(body: Data()), "unauthorized"), (.http(status: 500, body: Data(), message: nil), "http"),
        (.tls(underlying: "bad cert"), "tls"), (.badURL("x"), "badURL"),
        (.decoding(path: "a", underlying: "b"), "decoding"), (.tooLarge(limit: 1), "tooLarge"),
        (.cancelled, "cancelled"), (.connectionLost(underlying: "reset"), "connectionLost"),
        (.protocolError(underlying: "bad"), "protocol"),
        (.redirectRefused(from: "https://a", to: "ftp://b", reason: "scheme"), "redirectRefused"),
        (.disk(underlying: "full"), "disk"), (.signIn(configuration: "sso", reason: "denied"), "signIn"),
    ]

    @Test("Each error maps to its kind, spelled as users have always seen it")
    func eachCaseHasItsStableName() {
        // Given every case of APIError
        // Then its kind's raw value is the stable name, and reading the name back gives the same kind
        for (error, name) in Self.spelled {
            #expect(error.kind.rawValue == name, "\(error)")
            #expect("\(error.kind)" == name)
            #expect(APIError.Kind(rawValue: name) == error.kind)
        }
        // And every kind is some case's: no kind is unreachable
        #expect(Set(Self.spelled.map(\.0.kind)) == Set(APIError.Kind.allCases))
    }

    @Test("The retry policy's sets are typed kinds: transport failures retried, the others declined with a reason")
    func retryPolicySetsAreKinds() {
        // Given the policy's named sets
        let retried = RetryPolicy.retryableErrorKinds
        let declined = Set(RetryPolicy.notRetriedErrorKinds.keys)

        // Then they do not overlap, and the declined ones each give the log a reason
        #expect(retried == [.connectionRefused, .unreachable, .timedOut, .connectionLost])
        #expect(retried.isDisjoint(with: declined))
        #expect(declined.contains(.protocolError))

        // And a declined failure names its kind in the log's words
        let decision = RetryPolicy.standard.decide(request: HTTPRequest(url: URL(string: "http://h/")!),
                                                   outcome: .failure(.protocolError(underlying: "bad")), attempt: 1,
                                                   elapsed: .zero, retryAfter: nil, random: 0)
        guard case .stop(let declinedBy?) = decision else {
            Issue.record("a protocol error is not retried: \(decision)")
            return
        }
        #expect(declinedBy.trigger == .error(.protocolError))
        #expect(declinedBy.reason == .kindNotRetryable(.protocolError))
        #expect(declinedBy.description.hasPrefix("protocol is not retried: the server's reply breaks HTTP"))
    }

    @Test("A retried status names itself as HTTP and its code")
    func statusTriggerIsSpelledAsBefore() {
        #expect(RetryDeclined.Trigger.status(503).description == "HTTP 503")
        #expect(RetryDeclined.Trigger.error(.connectionLost).description == "connectionLost")
    }
}
