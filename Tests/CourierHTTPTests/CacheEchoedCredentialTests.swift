import CourierHTTP
import CourierSecurity
import CourierTestSupport
import Foundation
import Testing

/// A stored body must be the server's own bytes, and no file of the cache may hold a secret: a response that
/// echoes a credential the request sent is not stored, and the decision says why.
@Suite("Cache and echoed credentials")
struct CacheEchoedCredentialTests {
    @Test func aResponseEchoingTheRequestsCredentialIsNotStoredAndSaysWhy() async throws {
        // Given a server that echoes the request's headers and query in a cacheable body
        let fixture = try CacheFixture { request in
            let echo = request.headers.map { "\($0.name): \($0.value)" } + [request.url.query ?? ""]
            return .cacheStub(200, ["Cache-Control": "max-age=600"], body: echo.joined(separator: "\n"))
        }
        let echoes = [
            HTTPRequest(url: CacheFixture.url("/a"), headers: ["Authorization": "Bearer tok-ECHO-1"]),
            HTTPRequest(url: CacheFixture.url("/b?access_token=tok-ECHO-2")),
            { var request = HTTPRequest(url: CacheFixture.url("/c")); request.knownSecrets = ["tok-ECHO-3"]
              request.headers["X-Trace"] = "tok-ECHO-3"; return request }(),
        ]
        for request in echoes {
            // When it is fetched twice
            let first = try await fixture.send(request)
            let second = try await fixture.send(request)
            // Then neither is served from the cache, and the reason is said
            #expect(first.cache.decision == .notStored, "\(request.url)")
            #expect(first.cache.detail == CachePolicy.echoesCredential)
            #expect(second.cache.decision == .notStored)
        }
        #expect(fixture.transport.requests.count == 6)
        // And no file of the cache holds a token
        for name in try FileManager.default.contentsOfDirectory(atPath: fixture.directory.url.path) {
            let data = try Data(contentsOf: fixture.directory.url.appendingPathComponent(name))
            #expect(data.range(of: Data("ECHO".utf8)) == nil, "\(name)")
        }
    }

    @Test func aResponseNotEchoingOneIsStoredAsBefore() async throws {
        let fixture = try CacheFixture { _ in .cacheStub(200, ["Cache-Control": "max-age=600"], body: "{\"ok\": 1}") }
        let request = HTTPRequest(url: CacheFixture.url("/ok"), headers: ["Authorization": "Bearer tok-QUIET-1"])
        _ = try await fixture.send(request)
        #expect(try await fixture.send(request).cache.decision == .fresh)
    }

    @Test func aCredentialEchoedInALargeFileBodyIsFoundAcrossPieces() throws {
        // Given a 3 MB body file whose token straddles the 1 MB piece boundary
        let folder = try TemporaryFolder("echo")
        let file = folder.url.appendingPathComponent("body")
        var data = Data(repeating: 0x61, count: 3 << 20)
        data.replaceSubrange((1 << 20) - 4..<(1 << 20) + 6, with: Data("tok-SPLIT1".utf8))
        try data.write(to: file)
        let response = HTTPResponse(status: 200, body: .file(file, size: data.count), url: CacheFixture.url("/"))
        // Then it echoes that token and not another
        #expect(response.echoes(SecretMasker(secrets: ["tok-SPLIT1"])))
        #expect(!response.echoes(SecretMasker(secrets: ["tok-ELSEWHERE"])))
    }
}
