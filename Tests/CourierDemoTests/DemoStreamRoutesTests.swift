import Foundation
import Testing
@testable import CourierDemo

@Suite("Demo API: large bodies, SSE, NDJSON")
struct DemoStreamRoutesTests {
    @Test(arguments: [128, 1000, 65_537, 1_048_576])
    func largeJSONIsExactlyTheAskedSizeAndValid(bytes: Int) throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let response = try RawHTTPClient(port: server.port).fetch("GET", "/large?bytes=\(bytes)")
        #expect(response.header("Content-Length") == String(bytes))
        #expect(response.body.count == bytes)
        let array = try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]]
        #expect((array?.count ?? 0) >= 1)
        #expect(array?.first?["id"] as? Int == 1)
    }

    @Test func largeTakesMegabytesAndCanBeChunked() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let response = try client.fetch("GET", "/large?mb=0.5&transfer=chunked")
        #expect(response.header("Transfer-Encoding") == "chunked")
        #expect(response.body.count == 524_288)
        #expect(try JSONSerialization.jsonObject(with: Data(response.body)) is [Any])
    }

    @Test func largeBinaryIsOctetStreamOfTheAskedSize() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let first = try client.fetch("GET", "/large?kind=binary&bytes=100000")
        #expect(first.header("Content-Type") == "application/octet-stream")
        #expect(first.body.count == 100_000)
        #expect(Set(first.body).count > 200)
        #expect(try client.fetch("GET", "/large?kind=binary&bytes=100000").body == first.body)
    }

    @Test func aClientLeavingALargeDownloadIsLoggedAsAborted() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        var client: RawHTTPClient? = try RawHTTPClient(port: server.port)
        client?.request("GET", "/large?mb=512")
        #expect(await eventually { server.requestCount(path: "/large") == 1 })
        client = nil
        #expect(await eventually { server.abortedCount(path: "/large") == 1 })
        #expect(server.completedCount(path: "/large") == 0)
    }

    @Test func eventsAreServerSentEventsWithIdsAndTypes() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let response = try RawHTTPClient(port: server.port).fetch("GET", "/events?count=5&interval_ms=1")
        #expect(response.header("Content-Type") == "text/event-stream")
        #expect(response.header("Transfer-Encoding") == "chunked")
        let blocks = response.text.components(separatedBy: "\n\n").filter { $0.contains("id: ") }
        #expect(blocks.count == 5)
        #expect(blocks[0].hasPrefix("id: 1\nevent: tick\ndata: {\"n\":1,"))
        #expect(blocks[4].hasPrefix("id: 5\nevent: notice\ndata: notice 5\ndata: {\"n\":5,"))
        #expect(response.text.hasPrefix("retry: 2000\n"))
    }

    @Test func anHTTP10ClientGetsAStreamDelimitedByCloseInsteadOfChunks() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        client.send("GET /ndjson?count=2&interval_ms=1 HTTP/1.0\r\n\r\n")
        let text = String(decoding: client.readToEnd().bytes, as: UTF8.self)
        #expect(!text.contains("Transfer-Encoding"))
        #expect(text.contains("Connection: close\r\n"))
        let body = text.components(separatedBy: "\r\n\r\n").dropFirst().joined()
        #expect(body.split(separator: "\n").compactMap { $0.contains("\"seq\":") ? $0 : nil }.count == 2)
        #expect(body.hasSuffix("}\n"))
    }

    @Test func eventsResumeAfterLastEventID() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let response = try RawHTTPClient(port: server.port).fetch("GET", "/events?count=4&interval_ms=1",
                                                                   headers: ["Last-Event-ID: 2"])
        let ids = response.text.components(separatedBy: "\n").filter { $0.hasPrefix("id: ") }
        #expect(ids == ["id: 3", "id: 4"])
    }

    @Test func ndjsonSendsOneObjectPerLine() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let response = try RawHTTPClient(port: server.port).fetch("GET", "/ndjson?count=3&interval_ms=1")
        #expect(response.header("Content-Type") == "application/x-ndjson")
        let lines = response.text.split(separator: "\n")
        #expect(lines.count == 3)
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.compactMap { $0["seq"] as? Int } == [1, 2, 3])
    }

    @Test func eventsArriveSpacedOutBeforeTheStreamEnds() async throws {
        // Given a slow stream of two events
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        client.request("GET", "/events?count=2&interval_ms=60000")
        // Then the first event is readable while the second is still a minute away
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        #expect(await eventually {
            let count = recv(client.fd, &chunk, chunk.count, Int32(MSG_DONTWAIT))
            if count > 0 { received += chunk[0..<count] }
            return String(decoding: received, as: UTF8.self).contains("id: 1\n")
        })
        #expect(!String(decoding: received, as: UTF8.self).contains("id: 2\n"))
        #expect(server.log.first?.isPending == true)
    }
}
