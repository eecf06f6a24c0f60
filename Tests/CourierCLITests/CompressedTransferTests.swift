import CourierTestSupport
import CourierHTTP
import Foundation
import Synchronization
import Testing

/// Compressed transfers: every request offers gzip, deflate, br and zstd unless it names its own
/// Accept-Encoding; bodies arrive decoded with their wire size beside them; a decompression bomb is
/// refused at the decoded-size limit without the body ever being held in memory.
@Suite(.serialized) struct CompressedTransferTests {
    /// `text` compressed by the system's gzip(1), as a server would send it.
    static func gzip(_ input: String, shell: String? = nil) async throws -> Data {
        let source = shell ?? "printf '%s' \"$COURIER_GZIP_INPUT\""
        return try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "\(source) | gzip -c"],
                                          environment: ["COURIER_GZIP_INPUT": input]).stdoutData
    }

    static let json = String(repeating: "{\"name\":\"Ada Lovelace\",\"role\":\"engineer\"},\n", count: 2_000)

    static func gzipServer(_ body: Data) throws -> LoopbackServer {
        try LoopbackServer { request in
            LoopbackServer.Reply(headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip"),
                                           ("X-Offered", request.headers["accept-encoding"] ?? "-")],
                                 body: body)
        }
    }

    @Test func everyRequestOffersTheFourEncodingsAndTheBodyArrivesDecodedWithItsWireSize() async throws {
        // Given a server that answers with a gzip body whatever it is offered
        let compressed = try await Self.gzip(Self.json)
        let server = try Self.gzipServer(compressed)
        defer { server.stop() }
        // When a plain GET is sent
        let response = try await CurlTransport().send(HTTPRequest(url: server.url("/users")), context: RequestContext())
        // Then the server received an offer of all four encodings
        let offered = server.requests.first?.headers["accept-encoding"] ?? ""
        for coding in ["gzip", "deflate", "br", "zstd"] { #expect(offered.contains(coding), "offered: \(offered)") }
        // And the body is the decoded JSON, with the compressed size as the wire size
        #expect(try String(decoding: response.body.readAll(), as: UTF8.self) == Self.json)
        #expect(response.timing.bytesReceived == Self.json.utf8.count)
        #expect(response.timing.bytesOnWire == compressed.count)
    }

    @Test func aRequestsOwnAcceptEncodingIsSentInsteadOfTheOffer() async throws {
        // Given the same server
        let server = try Self.gzipServer(try await Self.gzip(Self.json))
        defer { server.stop() }
        // When the request names its own Accept-Encoding
        var request = HTTPRequest(url: server.url("/users"))
        request.headers["Accept-Encoding"] = "gzip"
        let response = try await CurlTransport().send(request, context: RequestContext())
        // Then that value, and only it, went on the wire; a gzip answer is still decoded
        #expect(server.requests.first?.headers["accept-encoding"] == "gzip")
        #expect(try String(decoding: response.body.readAll(), as: UTF8.self) == Self.json)
    }

    @Test func sendShowsTheDecodedBodyAndBothSizes() async throws {
        // Given a gzip JSON body, which used to be printed as a binary body
        let compressed = try await Self.gzip(Self.json)
        let server = try Self.gzipServer(compressed)
        defer { server.stop() }
        // When courier send fetches it, as text and as --json
        let text = try await CourierCLI.run(["send", server.url("/users").absoluteString])
        let json = try await CourierCLI.run(["send", server.url("/users").absoluteString, "--json"])
        // Then the JSON is shown decoded, with the decoded and the wire size
        #expect(text.status == 0)
        #expect(text.stdout.contains("Ada Lovelace"))
        #expect(text.stdout.contains("on the wire)"))
        #expect(!text.stdout.contains("binary"))
        let object = try CourierCLI.json(json.stdout)
        #expect(object["body_size"] as? Int == Self.json.utf8.count)
        #expect(object["body_wire_size"] as? Int == compressed.count)
    }

    @Test func dashOWritesTheDecodedBytes() async throws {
        // Given a gzip body
        let server = try Self.gzipServer(try await Self.gzip(Self.json))
        defer { server.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-gzip-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        // When courier send saves it with -o
        let result = try await CourierCLI.run(["send", server.url("/users").absoluteString, "-o", file.path])
        // Then the file holds the decoded body, byte for byte
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Data(contentsOf: file) == Data(Self.json.utf8))
    }

    @Test func aDecompressionBombIsRefusedAtTheLimitWithoutGrowingMemory() async throws {
        // Given 1 GB of zeros gzipped to about 1 MB
        let bomb = try await Self.gzip("", shell: "head -c 1073741824 /dev/zero")
        #expect(bomb.count < 2 << 20)
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply(headers: [("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip")],
                                 body: bomb)
        }
        defer { server.stop() }
        // When courier send fetches it while its peak resident set is sampled
        let courier = try CourierCLI.start(["send", server.url("/bomb").absoluteString])
        defer { if courier.isRunning { courier.signal(SIGTERM) } }
        let (ended, peak) = await courier.finishSamplingPeakMemory(limit: .seconds(120))
        let status = ended ?? -1
        // Then it fails with a clear size error, sent once, and memory stayed far below the limit
        let limit = CurlTransport.Configuration.defaultMaxDecodedBodySize
        #expect(status == 1)
        let output = courier.stdout.text + courier.stderr.text
        #expect(output.contains("tooLarge"), "\(output)")
        #expect(output.contains("256 MB"), "\(output)")
        #expect(server.requestCount(path: "/bomb") == 1)
        #expect(peak > 0)
        #expect(peak < limit / 2, "peak resident set \(peak) bytes")
    }
}
