import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// A body printed as a stream cannot grow `courier send` without bound: an event or NDJSON line that never
/// ends is stopped at the line limit (`--line-limit`, 16 MB by default) with a `tooLarge` error naming it,
/// and the process's peak memory (VmHWM) stays far below what the server sent.
@Suite("stream records within the line limit", .serialized)
struct StreamRecordLimitTests {
    /// A server that answers with `head` and then writes `first`, then `filler` over and over, up to `total`
    /// bytes or until the client hangs up; how much it wrote is kept.
    final class EndlessServer: Sendable {
        final class Count: Sendable {
            let bytes = Atomic<Int>(0)
        }

        let listener: LoopbackListener
        private let count = Count()

        init(contentType: String, first: String, filler: Data, total: Int = 300 << 20) throws {
            let head = "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nConnection: close\r\n\r\n"
            let written = count
            listener = try LoopbackListener { socket, _ in
                var buffer = Data()
                guard LoopbackSocket.readRequest(socket, buffer: &buffer) != nil,
                      LoopbackSocket.send(socket, head + first) else { return }
                var sent = 0
                while sent < total, LoopbackSocket.send(socket, filler) {
                    sent += filler.count
                    written.bytes.store(sent, ordering: .relaxed)
                }
            }
        }

        var url: String { "http://127.0.0.1:\(listener.port)/stream" }
        /// Bytes written after the head and the first part.
        var written: Int { count.bytes.load(ordering: .relaxed) }
        func stop() { listener.stop() }
    }

    static let letters = Data(repeating: UInt8(ascii: "a"), count: 64 << 10)

    /// `courier send ARGUMENTS` against `server`: its result and peak resident set.
    static func send(_ server: EndlessServer, _ arguments: [String]) async throws -> (ChildResult, peak: Int) {
        try await CourierCLI.runSamplingPeakMemory(["send", server.url, "--retry", "0"] + arguments)
    }

    static func expectStoppedAtTheLimit(_ sent: (ChildResult, peak: Int), megabytes: Int, server: EndlessServer) {
        let (result, peak) = sent
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        let output = result.stdout + result.stderr
        #expect(output.contains("tooLarge") && output.contains("a streamed event or line longer than the "
                                                                + "\(megabytes) MB limit"), "\(output)")
        #expect(peak > 0 && peak < 100 << 20, "peak resident set \(peak >> 20) MB")
        #expect(server.written < 200 << 20, "the server sent it all: nothing stopped it")
    }

    @Test func anEventStreamDataLineThatNeverEndsStopsAtTheLineLimit() async throws {
        // Given a server that starts a data line and never ends it (300 MB, then it closes)
        let server = try EndlessServer(contentType: "text/event-stream", first: "data: ", filler: Self.letters)
        defer { server.stop() }
        // When courier send reads it with a 1 MB line limit
        let result = try await Self.send(server, ["--line-limit", "1"])
        // Then it stops at 1 MB with an error naming the limit (before, the line grew to what the server sent)
        Self.expectStoppedAtTheLimit(result, megabytes: 1, server: server)
    }

    @Test func anEventWhoseDataLinesNeverEndStopsAtTheLineLimit() async throws {
        // Given short data lines that never come to the blank line ending their event
        let line = Data(("data: " + String(repeating: "b", count: 1000) + "\n").utf8)
        let server = try EndlessServer(contentType: "text/event-stream", first: "",
                                       filler: Data(Array(repeating: line, count: 64).joined()))
        defer { server.stop() }
        let result = try await Self.send(server, ["--line-limit", "1"])
        Self.expectStoppedAtTheLimit(result, megabytes: 1, server: server)
    }

    @Test func anNDJSONLineThatNeverEndsStopsAtTheLineLimit() async throws {
        // Given one record printed, then a line that never ends
        let server = try EndlessServer(contentType: "application/x-ndjson", first: "{\"first\":1}\n{\"a\":\"",
                                       filler: Self.letters)
        defer { server.stop() }
        let sent = try await Self.send(server, ["--line-limit", "1"])
        // Then the first record was printed, and the endless one stopped at the limit
        #expect(sent.0.stdout.contains("\"first\""), "\(sent.0.stdout)")
        Self.expectStoppedAtTheLimit(sent, megabytes: 1, server: server)
    }

    @Test func theDefaultLineLimitIs16MB() async throws {
        // Given a data line that never ends, and no --line-limit
        let server = try EndlessServer(contentType: "text/event-stream", first: "data: ", filler: Self.letters)
        defer { server.stop() }
        let result = try await Self.send(server, [])
        // Then it stops at 16 MB, as the help says
        Self.expectStoppedAtTheLimit(result, megabytes: 16, server: server)
        let help = try await CourierCLI.run(["send", "--help"])
        #expect(help.stdout.contains("--line-limit MB"), "\(help.stdout)")
    }

    @Test func aDecompressionBombPrintedAsAStreamStopsWithinMemory() async throws {
        // Given 1 GB of zeros gzipped to about 1 MB, read with --stream
        let bomb = try await CompressedTransferTests.gzip("", shell: "head -c 1073741824 /dev/zero")
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply(headers: [("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip")],
                                 body: bomb)
        }
        defer { server.stop() }
        let (result, peak) = try await CourierCLI.runSamplingPeakMemory(["send", server.url("/bomb").absoluteString,
                                                                         "--stream"])
        // Then it fails as too large, sent once, and the process stayed small (before, it reached 3 GB)
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("tooLarge"), "\(result.stdout)\n\(result.stderr)")
        #expect(server.requestCount(path: "/bomb") == 1)
        #expect(peak > 0 && peak < 100 << 20, "peak resident set \(peak >> 20) MB")
    }

    @Test func aLineLimitThatIsNotAPositiveNumberIsAUsageError() async throws {
        let result = try await CourierCLI.run(["send", "http://127.0.0.1:1/", "--line-limit", "0"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--line-limit takes a number of megabytes above 0, not '0'"), "\(result.stderr)")
    }
}
