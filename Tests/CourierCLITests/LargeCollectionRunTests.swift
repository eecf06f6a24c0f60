import Foundation
import Testing
import CourierTestSupport
@testable import CourierCollections

/// `courier run FILE --name X` on a file of hundreds of thousands of requests: the request goes out as
/// written, and the process's peak memory stays a small multiple of the file's size (a memory bound, not
/// a timing). Peak RSS is measured by GNU time (Debian package `time`).
@Suite("Running one request of a huge .http file", .serialized)
struct LargeCollectionRunTests {
    /// Runs the built `courier` with output to /dev/null under GNU time; returns its exit status and peak RSS
    /// in bytes. Not `ru_maxrss` from our own `wait4`: posix_spawn starts the child in this process's memory
    /// (vfork), and Linux then reports this test process's peak as the child's. GNU time forks from a small
    /// process, so the figure it prints is courier's own.
    static func runMeasured(_ arguments: [String]) throws -> (status: Int32, peakRSS: Int) {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("courier-rss-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = ["-f", "%M", "-o", report.path, CourierCLI.executable.path] + arguments
        let pid = try ChildSpawn.start(URL(fileURLWithPath: "/usr/bin/time"), arguments, environment: [:], in: nil,
                                       actions: &actions).get()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // GNU time prints the peak in kilobytes on the last line (after a note when the command failed).
        let printed = (try? String(contentsOf: report, encoding: .utf8)) ?? ""
        let kilobytes = printed.split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        return ((status >> 8) & 0xFF, kilobytes * 1024)
    }

    /// A file of `count` named GET requests with a header each, about 90 bytes per request.
    static func writeCollection(_ count: Int, base: String, to url: URL) throws {
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.write(contentsOf: Data("@base = \(base)\n\n".utf8))
        var chunk = ""
        for index in 1...count {
            chunk += "### r\(index)\nGET {{base}}/items/\(index)?page=1\nAccept: application/json\n\n"
            if chunk.utf8.count > 1 << 20 {
                try handle.write(contentsOf: Data(chunk.utf8))
                chunk = ""
            }
        }
        try handle.write(contentsOf: Data(chunk.utf8))
    }

    @Test func runningTheLastRequestOfAHugeFileSendsItAndPeaksNearTheFileSize() throws {
        // Given a loopback server, a one-request file (the process's own baseline) and a file of 300,000
        // requests (about 25 MB)
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let small = folder.url.appendingPathComponent("small.http")
        try Self.writeCollection(1, base: server.base, to: small)
        let huge = folder.url.appendingPathComponent("huge.http")
        let count = 300_000
        try Self.writeCollection(count, base: server.base, to: huge)
        let size = try FileManager.default.attributesOfItem(atPath: huge.path)[.size] as? Int ?? 0

        // When `courier run FILE --name` runs the first request of the small file and the last of the huge one
        let baseline = try Self.runMeasured(["run", small.path, "--name", "r1"])
        let run = try Self.runMeasured(["run", huge.path, "--name", "r\(count)"])

        // Then both went out as written
        #expect(baseline.status == 0)
        #expect(run.status == 0)
        #expect(server.requests.map(\.requestLine) == ["GET /items/1?page=1 HTTP/1.1",
                                                       "GET /items/\(count)?page=1 HTTP/1.1"])
        #expect(server.requests.last?.header("Accept") == "application/json")
        // And the huge file cost less than 2.5 times its size above the baseline (the full parse took ~17×)
        let extra = run.peakRSS - baseline.peakRSS
        #expect(extra < 5 * size / 2, "peak RSS \(run.peakRSS / 1_048_576) MB, baseline \(baseline.peakRSS / 1_048_576) MB, file \(size / 1_048_576) MB")
    }
}
