import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// A `< ./file` body of gigabytes streams from disk: `courier run` sends every byte while its memory stays
/// that of a small request, and a file past the limit is a clear error at its line. The files are sparse
/// (`truncate -s`), so they cost no disk.
@Suite("Large body files", .serialized,
       .enabled(if: CourierCLI.isBuilt && FileManager.default.fileExists(atPath: "/usr/bin/time")))
struct LargeBodyFileTests {
    /// Makes `name` in `folder` a sparse file of `size` bytes.
    static func sparse(_ name: String, size: Int64, in folder: TemporaryFolder) throws {
        let url = folder.url.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        guard truncate(url.path, off_t(size)) == 0 else { throw POSIXError(.EIO) }
    }

    @Test func aThreeGigabyteBodyFileIsSentWholeWhileCourierStaysUnder100MB() async throws {
        // Given a peer that counts what it receives without keeping it, and a request whose body is a 3 GB file
        let server = try CountingServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("bigbody")
        let size: Int64 = 3 << 30
        try Self.sparse("big.bin", size: size, in: folder)
        try folder.write("api.http", "### upload\nPOST \(server.base)/upload\nContent-Type: application/octet-stream\n\n"
                         + "< ./big.bin\n")
        // When courier runs it, measured by GNU time
        let (result, peak) = try await PeakMemory.run(["run", "api.http"], in: folder.url)
        // Then every byte arrived, announced by Content-Length, and courier's peak memory stayed small
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.bodySizes == [Int(size)])
        #expect(server.heads.first?.contains("Content-Length: \(size)") == true, "\(server.heads)")
        #expect(result.stdout.contains("\"received\": \(size)"), "\(result.stdout)")
        print("3 GB body file: courier peaked at \(peak >> 20) MB")
        #expect(peak > 0 && peak < 100 << 20, "peak RSS \(peak >> 20) MB")
    }

    @Test func aGigabyteFileInAMultipartPartStreamsBetweenItsBoundaries() async throws {
        // Given a multipart upload whose file part is 1 GB
        let server = try CountingServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("bigpart")
        let size: Int64 = 1 << 30
        try Self.sparse("video.bin", size: size, in: folder)
        let head = "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"video.bin\"\r\n\r\n"
        let tail = "\r\n--B--"
        try folder.write("api.http", "POST \(server.base)/upload\nContent-Type: multipart/form-data; boundary=B\n\n"
                         + "--B\nContent-Disposition: form-data; name=\"f\"; filename=\"video.bin\"\n\n< ./video.bin\n"
                         + "--B--\n")
        // When courier runs it, measured by GNU time
        let (result, peak) = try await PeakMemory.run(["run", "api.http"], in: folder.url)
        // Then the part's bytes went out between its boundaries while courier's memory stayed small
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.bodySizes == [head.utf8.count + Int(size) + tail.utf8.count])
        #expect(peak > 0 && peak < 100 << 20, "peak RSS \(peak >> 20) MB")
        print("1 GB multipart part: courier peaked at \(peak >> 20) MB")
    }

    @Test func aBodyFileOverTheLimitIsAnErrorAtItsLineAndNothingIsSent() async throws {
        // Given a body file past the streamed limit and one past the in-memory limit for `<@`
        let server = try CountingServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("limits")
        try Self.sparse("huge.bin", size: 17 << 30, in: folder)
        try Self.sparse("big.txt", size: 65 << 20, in: folder)
        try folder.write("api.http", "POST \(server.base)/a\n\n< ./huge.bin\n\n###\nPOST \(server.base)/b\n\n"
                         + "<@ ./big.txt\n")
        // When courier runs them
        let result = try await CourierCLI.run(["run", "api.http"], in: folder.url)
        // Then each is refused at its line with the size and the limit, and nothing went out
        #expect(result.status == 3)
        #expect(result.stderr.contains("api.http:3: request 'POST \(server.base)/a': cannot read ./huge.bin: it is "
                                       + "17 GB; a body file may be at most 16 GB"), "\(result.stderr)")
        #expect(result.stderr.contains("api.http:8: request 'POST \(server.base)/b': cannot read ./big.txt: it is "
                                       + "65 MB; a file read into memory"), "\(result.stderr)")
        #expect(server.heads.isEmpty)
    }

    @Test func aBodyFileIsSentWholeAgainOnARetryAndAfterADigestChallenge() async throws {
        // Given a server that answers the first PUT with 503, and a Digest challenge on its way
        let attempts = Mutex(0)
        let server = try LoopbackServer { request in
            let attempt = attempts.withLock { $0 += 1; return $0 }
            return attempt == 1 ? LoopbackServer.Reply(status: 503, headers: [("Retry-After", "0")])
                                : LoopbackServer.Reply(body: Data("ok".utf8))
        }
        defer { server.stop() }
        let digest = try CaptureServer()
        defer { digest.stop() }
        let folder = try TemporaryFolder("retrybody")
        let bytes = String(repeating: "0123456789", count: 20_000)
        try folder.write("body.txt", bytes)
        try folder.write("api.http", "PUT \(server.baseURL.absoluteString)/put\n\n< ./body.txt\n\n###\n"
                         + "POST \(digest.base)/digest/upload\nAuthorization: Digest ada lovelace\n\n< ./body.txt\n")
        // When courier runs them
        let result = try await CourierCLI.run(["run", "api.http"], in: folder.url)
        // Then both attempts of the PUT carried the whole file, and so did the answer to the challenge
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.map { String(decoding: $0.body, as: UTF8.self) } == [bytes, bytes])
        let answered = try #require(digest.requests.last)
        #expect(answered.header("Authorization")?.hasPrefix("Digest ") == true)
        #expect(answered.bodyText == bytes)
    }
}
