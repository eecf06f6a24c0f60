import CourierMessage
import CourierTestSupport
import Foundation
import Testing
@testable import CourierHTTP

/// The real stack over HTTP/2: CurlTransport (which asks libcurl for HTTP/2 over TLS) and the
/// `courier` binary against `nghttpd`, an HTTP/2-only server, on loopback. nghttpd speaks no
/// HTTP/1.1, so every success here went over HTTP/2; its header names arrive lower-cased and its
/// status line has no reason phrase.
@Suite("HTTP/2 against nghttpd", .serialized)
struct HTTP2Tests {
    /// Starts a server, waits until it answers, runs `body`, and always stops the server.
    private func withServer(_ body: (HTTP2Server) async throws -> Void) async throws {
        let server = try await HTTP2Server()
        defer { server.stop() }
        try await body(server)
    }

    private func get(_ url: URL, on transport: CurlTransport) async throws -> HTTPResponse {
        try await transport.send(HTTPRequest(url: url), context: RequestContext())
    }

    @Test("A small JSON document comes back over HTTP/2 with its status, lower-case headers and body")
    func smallDocumentOverHTTP2() async throws {
        try await withServer { server in
            // Given an HTTP/2 server and a fresh transport that trusts its certificate
            let transport = server.trustingTransport()

            // When one document is fetched
            let response = try await get(server.url(HTTP2Server.smallPath), on: transport)

            // Then the transport reports HTTP/2 and the response is complete and readable
            #expect(response.httpVersion == "HTTP/2")
            #expect(response.status == 200)
            #expect(response.reason == "")
            #expect(try response.body.readAll() == HTTP2Server.smallBody)
            // HTTP/2 names are lower-case on the wire; lookups by any spelling still find them.
            #expect(response.headers.contains { $0.name == "content-type" })
            #expect(response.headers["Content-Type"] == "application/json")
            #expect(response.headers["CONTENT-LENGTH"] == "\(HTTP2Server.smallBody.count)")
            #expect(!response.timing.reusedConnection)
        }
    }

    @Test("The head handed to onHead says HTTP/2 with status 200 and no reason phrase")
    func headHookSeesHTTP2() async throws {
        try await withServer { server in
            // Given a context that keeps the head it is handed
            let heads = HeadBox()
            var context = RequestContext()
            context.onHead = { heads.append($0) }

            // When a document is fetched
            let request = HTTPRequest(url: server.url(HTTP2Server.smallPath))
            _ = try await server.trustingTransport().send(request, context: context)

            // Then exactly one head was announced, parsed from curl's "HTTP/2 200 " status line
            let announced = heads.all
            #expect(announced.count == 1)
            #expect(announced.first?.version == "HTTP/2")
            #expect(announced.first?.status == 200)
            #expect(announced.first?.reason == "")
        }
    }

    @Test("Every phase of the first HTTP/2 request is timed, the TLS handshake included")
    func phasesAreTimed() async throws {
        try await withServer { server in
            // Given a transport with no connection yet
            let transport = server.trustingTransport()

            // When a document is fetched
            let timing = try await get(server.url(HTTP2Server.smallPath), on: transport).timing

            // Then connect, TLS and first byte are present, in order, and TLS took time
            let connect = try #require(timing.connect)
            let tls = try #require(timing.tls)
            let firstByte = try #require(timing.firstByte)
            #expect(tls > .zero)
            #expect(tls >= connect)
            #expect(firstByte >= tls)
            #expect(timing.total >= firstByte)
            #expect(timing.bytesReceived == HTTP2Server.smallBody.count)
        }
    }

    @Test("A 5 MB HTTP/2 body spills to a file whose bytes equal the served file")
    func largeBodySpillsIntact() async throws {
        try await withServer { server in
            // Given a transport that spills bodies over 1 MB to a temporary folder
            let spill = try HTTP2Server.temporaryFolder("courier-h2-spill")
            defer { try? FileManager.default.removeItem(at: spill) }
            let transport = server.trustingTransport(spillThreshold: 1 << 20, spillFolder: spill)

            // When the 5 MB document is fetched
            let response = try await get(server.url(HTTP2Server.largePath), on: transport)

            // Then it went over HTTP/2 into a file holding exactly the served bytes
            #expect(response.httpVersion == "HTTP/2")
            guard case .file(let file, let size) = response.body else {
                Issue.record("a 5 MB body stayed in memory")
                return
            }
            #expect(size == HTTP2Server.largeSize)
            #expect(try Data(contentsOf: file) == HTTP2Server.largeBody)
            #expect(file.path.hasPrefix(spill.path))
        }
    }

    @Test("A second sequential HTTP/2 request reuses the first request's connection")
    func sequentialRequestsReuseTheConnection() async throws {
        try await withServer { server in
            // Given a transport that has made one request
            let transport = server.trustingTransport()
            let first = try await get(server.url(HTTP2Server.smallPath), on: transport)

            // When it makes another to the same server
            let second = try await get(server.url(HTTP2Server.smallPath), on: transport)

            // Then the first opened a connection and the second rode on it
            #expect(!first.timing.reusedConnection)
            #expect(second.timing.reusedConnection)
            #expect(second.httpVersion == "HTTP/2")
            #expect(try second.body.readAll() == HTTP2Server.smallBody)
        }
    }

    @Test("Concurrent requests through one client are multiplexed on the open HTTP/2 connection")
    func concurrentRequestsAreMultiplexed() async throws {
        try await withServer { server in
            // Given a client whose transport already holds an HTTP/2 connection
            let client = HTTPClient(configuration: .init(transport: server.trustingTransport(), retry: nil))
            _ = try await client.send(HTTPRequest(url: server.url(HTTP2Server.smallPath)))

            // When eight requests run at once, one of them for the 5 MB document
            let responses = try await withThrowingTaskGroup(of: (Int, HTTPResponse).self) { group in
                for index in 0..<8 {
                    let path = index == 0 ? HTTP2Server.largePath : HTTP2Server.smallPath
                    let request = HTTPRequest(url: server.url(path))
                    group.addTask { (index, try await client.send(request)) }
                }
                var all: [Int: HTTPResponse] = [:]
                for try await (index, response) in group { all[index] = response }
                return all
            }

            // Then all succeed with the right bodies, over HTTP/2, each as a stream on the open connection
            #expect(responses.count == 8)
            for (index, response) in responses {
                #expect(response.status == 200)
                #expect(response.httpVersion == "HTTP/2")
                #expect(response.timing.reusedConnection)
                let expected = index == 0 ? HTTP2Server.largeBody : HTTP2Server.smallBody
                #expect(try response.body.readAll() == expected)
                if case .file(let file, _) = response.body { try? FileManager.default.removeItem(at: file) }
            }
        }
    }

    @Test("Without the self-signed certificate trusted, an HTTP/2 server is a tls error")
    func untrustedCertificateIsATLSError() async throws {
        try await withServer { server in
            // Given a transport that verifies certificates (the default)
            let transport = CurlTransport()

            // When it fetches from the server with the self-signed certificate
            // Then the request fails with the tls kind
            await #expect {
                _ = try await get(server.url(HTTP2Server.smallPath), on: transport)
            } throws: { error in
                guard let error = error as? APIError, case .tls = error else { return false }
                return error.kind == .tls
            }
        }
    }

    @Test("A transport that trusts another self-signed certificate rejects the server with a tls error")
    func otherTrustedCertificateIsATLSError() async throws {
        try await withServer { server in
            // Given a transport that trusts a certificate the server does not present
            let other = try HTTP2Server.temporaryFolder("courier-h2-other")
            defer { try? FileManager.default.removeItem(at: other) }
            try await HTTP2Server.makeCertificate(in: other)
            let certificate = other.appendingPathComponent("cert.pem")
            let transport = CurlTransport(configuration: .init(trustedCertificates: certificate))

            // When it fetches from the server
            // Then verification fails with the tls kind, not an answer
            await #expect {
                _ = try await get(server.url(HTTP2Server.smallPath), on: transport)
            } throws: { error in
                (error as? APIError)?.kind == .tls
            }
        }
    }

    @Test("The cache reads HTTP/2's lower-case cache-control and serves the second request fresh")
    func cacheUnderstandsLowerCaseHeaders() async throws {
        try await withServer { server in
            // Given a client with a cache, and a server that sends "cache-control: max-age=3600"
            let directory = try TemporaryFolder("cache-tests")
            let cache = try HTTPCacheMiddleware(directory: directory.url)
            let client = HTTPClient(configuration: .init(transport: server.trustingTransport(), cache: cache,
                                                         retry: nil))
            let request = HTTPRequest(url: server.url(HTTP2Server.smallPath))

            // When the same document is requested twice
            let first = try await client.send(request)
            let second = try await client.send(request)

            // Then the first is stored and the second comes from the cache with the HTTP/2 head kept
            #expect(first.cache.decision == .miss)
            #expect(second.cache.decision == .fresh)
            #expect(second.httpVersion == "HTTP/2")
            #expect(second.headers["Content-Type"] == "application/json")
            #expect(try second.body.readAll() == HTTP2Server.smallBody)
        }
    }
}

/// Heads collected from the transport's thread.
private final class HeadBox: @unchecked Sendable {
    // Guarded by `lock`: onHead runs on the transport's loop thread while the test reads.
    private let lock = NSLock()
    private var heads: [ResponseHead] = []

    func append(_ head: ResponseHead) { lock.withLock { heads.append(head) } }
    var all: [ResponseHead] { lock.withLock { heads } }
}
