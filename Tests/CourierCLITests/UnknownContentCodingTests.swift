import CourierTestSupport
import Foundation
import Testing

/// A body labelled with a coding libcurl cannot decode (`Content-Encoding: UTF-8`, which real servers send)
/// is shown as it came, with a note, where it used to fail the whole response; known codings stay decoded.
@Suite struct UnknownContentCodingTests {
    static func labelled(_ field: String, _ coding: String) throws -> LoopbackServer {
        try LoopbackServer { _ in
            LoopbackServer.Reply.json(#"{"ok": true}"#, headers: [(field, coding), ("Cache-Control", "max-age=3600")])
        }
    }

    @Test func sendShowsTheBodyAsItCameAndSaysWhyInTextAndJSON() async throws {
        // Given a server that labels its JSON "Content-Encoding: UTF-8"
        let server = try Self.labelled("Content-Encoding", "UTF-8")
        defer { server.stop() }
        // When courier send fetches it for people and for scripts
        let text = try await CourierCLI.run(["send", server.url("/labelled").absoluteString])
        let json = try await CourierCLI.run(["send", server.url("/labelled").absoluteString, "--json"])
        // Then both succeed with the body as sent, and say it was not decoded
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("\"ok\": true"), "\(text.stdout)")
        #expect(text.stdout.contains("(body not decoded: unknown coding 'UTF-8')"), "\(text.stdout)")
        #expect(json.status == 0)
        let object = try CourierCLI.json(json.stdout)
        #expect(object["status"] as? Int == 200)
        #expect(object["body"] as? String == #"{"ok": true}"#)
        #expect((object["content_encoding_note"] as? String)?.contains("'UTF-8'") == true, "\(json.stdout)")
        #expect(server.requestCount(path: "/labelled") == 2)
    }

    @Test func anUnknownTransferCodingPassesToo() async throws {
        // Given a body in a transfer coding that is not chunked: it ends when the connection closes
        let server = try LoopbackServer { _ in
            .raw("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: x-unheard-of\r\n\r\n"
                 + #"{"ok": true}"#)
        }
        defer { server.stop() }
        let result = try await CourierCLI.run(["send", server.url("/framed").absoluteString, "--json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let object = try CourierCLI.json(result.stdout)
        #expect(object["body"] as? String == #"{"ok": true}"#)
        #expect((object["content_encoding_note"] as? String)?.contains("'x-unheard-of'") == true)
    }

    @Test func aKnownCodingIsStillDecodedWithoutANote() async throws {
        // Given a gzip body
        let compressed = try await CompressedTransferTests.gzip(#"{"ok": true}"#)
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply(headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")],
                                 body: compressed)
        }
        defer { server.stop() }
        let object = try CourierCLI.json(try await CourierCLI.run(["send", server.url("/gz").absoluteString, "--json"]).stdout)
        #expect(object["body"] as? String == #"{"ok": true}"#)
        #expect(object["content_encoding_note"] == nil)
    }

    @Test func theCacheStoresSuchAResponseWithItsContentEncodingAndServesItWithTheNote() async throws {
        let server = try Self.labelled("Content-Encoding", "UTF-8")
        defer { server.stop() }
        let folder = try TemporaryFolder("cache-tests")
        let arguments = ["send", server.url("/stored").absoluteString, "--cache-dir", folder.url.path, "--json"]
        _ = try await CourierCLI.run(arguments)
        let second = try CourierCLI.json(try await CourierCLI.run(arguments).stdout)
        #expect(second["cache"] as? String == "fresh")
        #expect(second["body"] as? String == #"{"ok": true}"#)
        let headers = (second["headers"] as? [[String]]) ?? []
        #expect(headers.contains(["Content-Encoding", "UTF-8"]), "\(headers)")
        #expect(second["content_encoding_note"] != nil)
        #expect(server.requestCount(path: "/stored") == 1)
    }
}
