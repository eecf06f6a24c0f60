import CourierMessage
import CourierTestSupport
import CourierHTTP
import Foundation
import Synchronization

/// A clock the tests move by hand.
final class CacheTestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_700_000_000)) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    var function: @Sendable () -> Date { { self.now } }
}

/// A transport that answers from a closure and remembers every request it was sent.
struct CacheStubTransport: Transport {
    final class Recorder: Sendable {
        private let requests = Mutex<[HTTPRequest]>([])
        func append(_ request: HTTPRequest) { requests.withLock { $0.append(request) } }
        var all: [HTTPRequest] { requests.withLock { $0 } }
        var count: Int { all.count }
    }

    let recorder = Recorder()
    let answer: @Sendable (HTTPRequest) throws -> HTTPResponse

    init(_ answer: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) { self.answer = answer }

    func send(_ request: HTTPRequest, context: RequestContext) async throws(APIError) -> HTTPResponse {
        recorder.append(request)
        do {
            return try answer(request)
        } catch {
            throw APIError(error)
        }
    }

    var requests: [HTTPRequest] { recorder.all }
}

/// A cache, its clock and a stub server for one test.
struct CacheFixture {
    let directory: TemporaryFolder
    let clock = CacheTestClock()
    let cache: HTTPCacheMiddleware
    let transport: CacheStubTransport

    init(maxBytes: Int = HTTPCacheStore.defaultMaxBytes,
         answer: @escaping @Sendable (HTTPRequest) throws -> HTTPResponse) throws {
        directory = try TemporaryFolder("cache-tests")
        cache = HTTPCacheMiddleware(store: try HTTPCacheStore(directory: directory.url, maxBytes: maxBytes),
                                    clock: clock.function)
        transport = CacheStubTransport(answer)
    }

    /// Sends through the cache to the stub, as the client's pipeline would.
    func send(_ request: HTTPRequest, context: RequestContext = RequestContext()) async throws(APIError) -> HTTPResponse {
        let transport = self.transport
        return try await cache.intercept(request, context: context) { request, context throws(APIError) in
            try await transport.send(request, context: context)
        }
    }

    func get(_ path: String, headers: HTTPHeaders = [:], mode: CacheMode = .default) async throws -> HTTPResponse {
        try await send(HTTPRequest(url: Self.url(path), headers: headers, cacheMode: mode))
    }

    /// Today's Date field, from the test clock.
    var dateHeader: String { HTTPDate.format(clock.now) }

    static func url(_ path: String) -> URL { URL(string: "https://api.example.test" + path)! }
}

extension HTTPResponse {
    /// A stub answer with a text body.
    static func cacheStub(_ status: Int = 200, _ headers: HTTPHeaders = [:], body: String = "",
                     url: URL = CacheFixture.url("/")) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers, body: .data(Data(body.utf8)), url: url,
                     timing: Timing(total: .milliseconds(40), bytesReceived: body.utf8.count + 100))
    }

    /// The body as text.
    var cacheText: String { (try? String(decoding: body.readAll(), as: UTF8.self)) ?? "" }
}
