import CourierTestSupport
import CourierSecurity
import Foundation
import Testing

/// `courier run --json` writes each object member by member (no dictionary, no sorting): what a script parses
/// is what the sorted-key writer before it printed, hostile text escaped, secrets masked, every member there.
@Suite("courier run --json objects, written straight into the output", .serialized)
struct RunJSONWriterTests {
    static let token = "tok-json-writer-s3cret"
    /// Quote, backslash, newline, C0 (SOH, ESC), DEL, C1 (NEL), a bidi override, non-ASCII, and the token echoed.
    static let hostileBody = "quote\" back\\slash\nline\u{01}\u{1B}[31m\u{7F}\u{85}\u{202E}é日本 token=\(token)"
    static let hostileHeader = "tab\there é ✓ \u{7F}del \u{202E}rlo"
    static let binaryBody = Data([0xFF, 0xFE, 0x00, 0x41, 0xC3])

    private static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            switch request.path {
            case "/hostile":
                let echoed = request.headers.first { $0.key.lowercased() == "authorization" }?.value ?? ""
                return LoopbackServer.Reply(headers: [("Content-Type", "text/plain; charset=utf-8"),
                                                      ("X-Note", hostileHeader), ("X-Echo", echoed)],
                                            body: Data(hostileBody.utf8))
            case "/binary":
                return LoopbackServer.Reply(headers: [("Content-Type", "application/octet-stream")], body: binaryBody)
            default:
                return LoopbackServer.Reply(status: 404)
            }
        }
    }

    private static func collection(_ server: LoopbackServer) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("http-client.env.json", #"{"dev": {"base": "\#(server.baseURL.absoluteString)"}}"#)
        try folder.write("http-client.private.env.json", #"{"dev": {"token": "\#(token)"}}"#)
        try folder.write("api.http", """
            # @name hostile
            GET {{base}}/hostile
            Authorization: Bearer {{token}}

            ###
            # @name binary
            GET {{base}}/binary

            ###
            # @name missing
            GET {{base}}/x/{{nope}}

            ###
            # @disabled
            # @name off
            GET {{base}}/off
            """)
        return folder
    }

    @Test("Each request's object parses and holds what the server sent: escapes decoded, secrets masked, bytes as base64")
    func objectsParseToWhatTheServerSent() async throws {
        // Given a server answering with hostile text, an echoed token and a body that is not UTF-8
        let server = try Self.server()
        defer { server.stop() }
        let folder = try Self.collection(server)
        // When
        let result = try await CourierCLI.run(["run", folder.url.appendingPathComponent("api.http").path,
                                               "--env", "dev", "--json"])
        // Then one object per request, each on its own line
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 4, "\(result.stdout)\n\(result.stderr)")
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        try #require(objects.count == 4)
        let (hostile, binary, missing, off) = (objects[0], objects[1], objects[2], objects[3])

        // The response's members, as the sorted-key writer printed them
        #expect(Set(hostile.keys) == ["attempts", "body", "body_size", "cache", "cache_reason", "environment", "error",
                                      "headers", "http_version", "name", "status", "tests", "url"])
        #expect(hostile["environment"] as? String == "dev")
        #expect(hostile["name"] as? String == "hostile")
        #expect(hostile["status"] as? Int == 200)
        #expect(hostile["error"] is NSNull)
        #expect(hostile["cache"] as? String == "bypass")
        #expect(hostile["http_version"] as? String == "HTTP/1.1")
        #expect(hostile["url"] as? String == server.url("/hostile").absoluteString)
        #expect(hostile["body"] as? String == Self.hostileBody.replacingOccurrences(of: Self.token, with: SecretPolicy.mask))
        #expect(hostile["body_size"] as? Int == Self.hostileBody.utf8.count)
        #expect((hostile["tests"] as? [Any])?.isEmpty == true)
        let headers = try #require(hostile["headers"] as? [[String]])
        #expect(headers.contains(["X-Note", Self.hostileHeader]), "\(headers)")
        // The Authorization value sent, echoed whole, is masked whole
        #expect(headers.contains(["X-Echo", SecretPolicy.mask]), "\(headers)")
        let attempts = try #require(hostile["attempts"] as? [[String: Any]])
        #expect(attempts.count == 1)
        #expect(Set(attempts.first?.keys ?? [:].keys) == ["attempt", "delay_s", "error", "reason", "retry_declined",
                                                          "reused_connection", "status", "timing"])
        #expect(attempts.first?["attempt"] as? Int == 1)
        #expect(attempts.first?["status"] as? Int == 200)
        #expect(attempts.first?["delay_s"] is NSNull)
        let timing = try #require(attempts.first?["timing"] as? [String: Any])
        #expect(Set(timing.keys) == ["connect_ms", "dns_ms", "tls_ms", "total_ms", "ttfb_ms"])
        #expect(timing["tls_ms"] is NSNull)
        #expect((timing["total_ms"] as? Double).map { $0 >= 0 } == true)

        // A body that is not UTF-8 comes as base64
        #expect(binary["body_encoding"] as? String == "base64")
        #expect((binary["body"] as? String).flatMap { Data(base64Encoded: $0) } == Self.binaryBody)
        #expect(binary["body_size"] as? Int == Self.binaryBody.count)

        // A request that could not be built, and one skipped
        #expect(Set(missing.keys) == ["attempts", "environment", "error", "name", "status", "tests"])
        #expect((missing["error"] as? [String: Any])?["kind"] as? String == "collection")
        #expect(((missing["error"] as? [String: Any])?["message"] as? String)?.contains("nope") == true)
        #expect(missing["status"] is NSNull)
        #expect(Set(off.keys) == ["attempts", "error", "name", "skipped", "status", "tests"])
        #expect(off["skipped"] as? String == "disabled (# @disabled)")
        #expect(off["error"] is NSNull)
    }

    @Test("Controls a terminal would act on are written as escapes, not raw, and the token never appears")
    func controlsAreEscapedAndTheTokenMasked() async throws {
        // Given
        let server = try Self.server()
        defer { server.stop() }
        let folder = try Self.collection(server)
        // When
        let result = try await CourierCLI.run(["run", folder.url.appendingPathComponent("api.http").path,
                                               "--env", "dev", "--json", "--name", "hostile"])
        // Then no ESC, SOH, DEL, C1 or bidi control reaches the output raw; each is a JSON escape
        let bytes = [UInt8](result.stdoutData)
        #expect(!bytes.contains(0x1B) && !bytes.contains(0x01) && !bytes.contains(0x7F), "\(result.stdout)")
        #expect(bytes.firstRange(of: [0xC2, 0x85]) == nil)
        #expect(bytes.firstRange(of: [0xE2, 0x80, 0xAE]) == nil)
        for escape in ["\\u001b", "\\u0001", "\\u007F", "\\u0085", "\\u202E", "\\\"", "\\\\", "\\n", "\\t"] {
            #expect(result.stdout.contains(escape), "\(escape) in \(result.stdout)")
        }
        // Non-ASCII text stays as UTF-8
        #expect(result.stdout.contains("é日本"))
        #expect(result.stdout.contains("✓"))
        #expect(!result.stdout.contains(Self.token))
        // One line, ending in a newline
        #expect(result.stdout.hasSuffix("}\n"))
        #expect(result.stdout.dropLast().contains("\n") == false)
    }
}
