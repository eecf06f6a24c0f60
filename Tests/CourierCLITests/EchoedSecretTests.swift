import CourierTestSupport
import CourierDemo
import CourierSecurity
import Foundation
import Testing

/// `courier send` against the demo's `/echo` with a body large enough to be spilled to disk and printed
/// from there in chunks: the token sent in Authorization is masked in the echo too.
@Suite struct SpilledEchoSecretTests {
    @Test func aTokenEchoedInsideASpilledBodyIsMasked() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-echo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("big.txt")
        // 5 MB of text, so the echo is over the 4 MB spill threshold; the token is inside it and in the header.
        let token = "tok999spilledsecret"
        var text = String(repeating: "abcdefghij", count: 250_000)
        text += token
        text += String(repeating: "klmnopqrst", count: 250_000)
        try Data(text.utf8).write(to: input)
        let result = try await CourierCLI.run(["send", "POST", server.baseURL.absoluteString + "/echo",
                                                   "-H", "Authorization: Bearer \(token)", "-d", "@\(input.path)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.count > 4_000_000)
        #expect(!result.stdout.contains(token))
        #expect(result.stdout.contains("REDACTED"))
        // And the same through --json, where the body is escaped into the object chunk by chunk
        let json = try await CourierCLI.run(["send", "POST", server.baseURL.absoluteString + "/echo", "--json",
                                                 "-H", "Authorization: Bearer \(token)", "-d", "@\(input.path)"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.count > 4_000_000)
        #expect(!json.stdout.contains(token))
    }
}

/// A stream printed record by record (NDJSON) that echoes the token the request sent.
@Suite struct StreamedEchoSecretTests {
    @Test func aTokenEchoedInAStreamedRecordIsMasked() async throws {
        let token = "tok999streamedsecret"
        let server = try LoopbackServer { request in
            let echoed = request.headers.first { $0.key.lowercased() == "authorization" }?.value ?? ""
            let lines = "{\"n\": 1}\n{\"seen\": \"\(echoed)\"}\n"
            return LoopbackServer.Reply(headers: [("Content-Type", "application/x-ndjson")], body: Data(lines.utf8))
        }
        defer { server.stop() }
        let result = try await CourierCLI.run(["send", server.url("/stream").absoluteString,
                                                   "-H", "Authorization: Bearer \(token)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("seen"), "\(result.stdout)")
        #expect(!result.stdout.contains(token), "\(result.stdout)")
    }
}
