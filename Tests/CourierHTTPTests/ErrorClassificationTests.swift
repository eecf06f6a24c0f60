import CCurl
import Foundation
import Testing
@testable import CourierHTTP

/// How libcurl's failures become `APIError` cases, and which of them the retry policy sends again.
/// The codes and messages are those libcurl 7.88.1 gives for the demo server's `/chaos/*` faults.
@Suite struct ErrorClassificationTests {
    /// One failure as curl reports it, and the kind it must become.
    struct Case: CustomTestStringConvertible, Sendable {
        var code: UInt32
        var message: String
        var afterConnecting = true
        var osErrno = 0
        var kind: String
        var testDescription: String { "curl \(code) \"\(message)\" → \(kind)" }
    }

    static let cases: [Case] = [
        // The connection broke before the answer was complete.
        Case(code: CURLE_RECV_ERROR.rawValue, message: "Recv failure: Connection reset by peer",
             kind: "connectionLost"),
        Case(code: CURLE_GOT_NOTHING.rawValue, message: "Empty reply from server", kind: "connectionLost"),
        Case(code: CURLE_PARTIAL_FILE.rawValue, message: "transfer closed with 960 bytes remaining to read",
             kind: "connectionLost"),
        Case(code: CURLE_PARTIAL_FILE.rawValue, message: "transfer closed with outstanding read data remaining",
             kind: "connectionLost"),
        Case(code: CURLE_SEND_ERROR.rawValue, message: "Send failure: Broken pipe", kind: "connectionLost"),
        // The reply breaks HTTP.
        Case(code: CURLE_TOO_MANY_REDIRECTS.rawValue, message: "Maximum (10) redirects followed", kind: "protocol"),
        Case(code: CURLE_RECV_ERROR.rawValue, message: "Too large response headers: 311883 > 307200", kind: "protocol"),
        Case(code: CURLE_RECV_ERROR.rawValue, message: "Illegal or missing hexadecimal sequence in chunked-encoding",
             kind: "protocol"),
        Case(code: CURLE_OUT_OF_MEMORY.rawValue, message: "Out of memory", kind: "protocol"),
        Case(code: CURLE_UNSUPPORTED_PROTOCOL.rawValue, message: "Unsupported HTTP version in response",
             kind: "protocol"),
        Case(code: CURLE_UNSUPPORTED_PROTOCOL.rawValue, message: "Received HTTP/0.9 when not allowed",
             kind: "protocol"),
        Case(code: CURLE_WEIRD_SERVER_REPLY.rawValue, message: "Invalid Content-Length: value", kind: "protocol"),
        Case(code: CURLE_FAILED_INIT.rawValue, message: "Failed initialization", kind: "protocol"),
        // Before any server answered, the same "unsupported protocol" is about the URL.
        Case(code: CURLE_UNSUPPORTED_PROTOCOL.rawValue, message: "Protocol \"gopher\" not supported",
             afterConnecting: false, kind: "badURL"),
        // A failed connect, by what the system answered.
        Case(code: CURLE_COULDNT_CONNECT.rawValue, message: "Couldn't connect to server", afterConnecting: false,
             osErrno: Int(ECONNREFUSED), kind: "connectionRefused"),
        Case(code: CURLE_COULDNT_CONNECT.rawValue, message: "Couldn't connect to server", afterConnecting: false,
             osErrno: Int(ENETUNREACH), kind: "unreachable"),
        Case(code: CURLE_COULDNT_CONNECT.rawValue, message: "Couldn't connect to server", afterConnecting: false,
             osErrno: Int(EHOSTUNREACH), kind: "unreachable"),
        Case(code: CURLE_COULDNT_CONNECT.rawValue, message: "Couldn't connect to server", afterConnecting: false,
             kind: "unreachable"),
        Case(code: CURLE_COULDNT_RESOLVE_HOST.rawValue, message: "Could not resolve host: x.invalid",
             afterConnecting: false, kind: "dnsFailure"),
        Case(code: CURLE_OPERATION_TIMEDOUT.rawValue, message: "Operation timed out", kind: "timedOut"),
        Case(code: CURLE_PEER_FAILED_VERIFICATION.rawValue, message: "SSL certificate problem", kind: "tls"),
    ]

    @Test("Each curl failure becomes the error kind that says what to do next", arguments: cases)
    func curlFailureMapsToItsKind(failure: Case) {
        // Given a failure as curl reports it
        // When it is mapped
        let error = CurlErrors.map(CURLcode(rawValue: failure.code), message: failure.message,
                                   afterConnecting: failure.afterConnecting, redirects: 10, osErrno: failure.osErrno,
                                   url: URL(string: "http://api.test:8088/x"))
        // Then its kind is the expected one and curl's own message is kept (for a failed connect, in the
        // failure, which words it as where to look)
        #expect(error.kind.rawValue == failure.kind)
        if case .cannotConnect(let connect) = error {
            #expect(connect.underlying == failure.message)
        } else {
            #expect(error.description.contains(failure.message))
        }
    }

    @Test("A failed connect names the host and port curl tried, a proxy's included, else the URL's")
    func connectFailuresNameWhereCurlTried() {
        func words(_ code: CURLcode, _ message: String, errno: Int32 = 0) -> String {
            "\(CurlErrors.map(code, message: message, osErrno: Int(errno), url: URL(string: "http://api.test:8088/x")))"
        }
        #expect(words(CURLE_COULDNT_CONNECT, "Failed to connect to api.test port 8088 after 0 ms: Couldn't connect",
                      errno: ECONNREFUSED) == "nothing listens on api.test:8088")
        #expect(words(CURLE_COULDNT_CONNECT, "Failed to connect to proxy.test port 3128 after 1 ms: Couldn't connect",
                      errno: ECONNREFUSED) == "nothing listens on proxy.test:3128 (the proxy)")
        #expect(words(CURLE_COULDNT_CONNECT, "Couldn't connect to server", errno: EHOSTUNREACH)
                == "no route to api.test:8088: the host is unreachable")
        #expect(words(CURLE_COULDNT_CONNECT, "Failed to connect to ::1 port 80 after 0 ms: x", errno: ENETUNREACH)
                == "no route to [::1]:80 (the proxy): the network is unreachable (is this machine offline?)")
        #expect(words(CURLE_COULDNT_RESOLVE_HOST, "Could not resolve host: api.test") == "cannot resolve api.test")
        #expect(words(CURLE_COULDNT_RESOLVE_PROXY, "Could not resolve proxy: proxy.test")
                == "cannot resolve proxy.test (the proxy)")
    }

    @Test("A redirect loop says how many redirects were followed before curl gave up")
    func redirectLoopNamesItsHopCount() {
        // Given curl giving up after its redirect limit
        let error = CurlErrors.map(CURLE_TOO_MANY_REDIRECTS, message: "Maximum (10) redirects followed",
                                   afterConnecting: true, redirects: 10)
        // Then the message names the loop and the hops
        #expect(error.kind == .protocolError)
        #expect(error.description.contains("redirect loop: gave up after 10 redirects"))
    }

    @Test("An oversized header line and a foreign status line are named for what the server sent")
    func replyViolationsAreNamed() {
        let oversized = CurlErrors.map(CURLE_OUT_OF_MEMORY, message: "Out of memory", afterConnecting: true)
        #expect(oversized.description == "protocol error: a response header line over 100 KB (Out of memory)")
        let status = CurlErrors.map(CURLE_UNSUPPORTED_PROTOCOL, message: "Unsupported HTTP version in response",
                                    afterConnecting: true)
        #expect(status.description
                == "protocol error: a status line that is not HTTP (Unsupported HTTP version in response)")
    }

    // MARK: The retry decision per kind

    static let retryableKinds: [(APIError, Bool)] = [
        (.connectionLost(underlying: "reset"), true),
        (.cannotConnect(ConnectFailure(reason: .refused, host: "127.0.0.1", port: 1, underlying: "refused")), true),
        (.cannotConnect(ConnectFailure(reason: .hostUnreachable, host: "h", port: 80, underlying: "")), true),
        (.cannotConnect(ConnectFailure(reason: .unresolved, host: "x.invalid", port: nil, underlying: "")), false),
        (.timedOut(underlying: "slow"), true),
        (.protocolError(underlying: "redirect loop"), false),
        (.tls(underlying: "expired"), false),
        (.badURL("gopher://x"), false),
        (.tooLarge(limit: 10), false),
    ]

    @Test("Only failures a later attempt may not meet are retried", arguments: retryableKinds)
    func retryDecisionFollowsTheKind(error: APIError, retried: Bool) {
        // Given a GET whose first attempt failed with `error`
        let request = HTTPRequest(url: URL(string: "http://stub.test/")!)
        // When the standard policy decides
        let decision = RetryPolicy.standard.decide(request: request, outcome: .failure(error), attempt: 1,
                                                   elapsed: .zero, retryAfter: nil, random: 0)
        // Then it retries exactly the retryable kinds, and says why it does not retry the others
        switch decision {
        case .retry(_, let reason):
            #expect(retried)
            #expect(reason == error.kind.rawValue)
        case .stop(let declined):
            #expect(!retried)
            #expect(declined == RetryDeclined(trigger: .error(error.kind), reason: .kindNotRetryable(error.kind)))
        }
    }

    @Test("A cancelled attempt, a success and a 404 are handed back without a decline")
    func noDeclineWhereNoRetryWasConsidered() {
        let request = HTTPRequest(url: URL(string: "http://stub.test/")!)
        let outcomes: [Result<HTTPResponse, APIError>] = [
            .failure(.cancelled), .success(.stub(200)), .success(.stub(404)),
        ]
        for outcome in outcomes {
            let decision = RetryPolicy.standard.decide(request: request, outcome: outcome, attempt: 1, elapsed: .zero,
                                                       retryAfter: nil, random: 0)
            #expect(decision == .stop(declined: nil))
        }
    }
}

extension APIError: CustomTestStringConvertible {
    public var testDescription: String { kind.rawValue }
}
