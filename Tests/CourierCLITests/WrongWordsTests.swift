import CourierTestSupport
import Foundation
import Testing
@testable import CourierHTTP

/// Failures and inputs described in the right words: a disk error is not a protocol error, a typed URL
/// is encoded once, a folded header line is joined rather than dropped.
@Suite struct WrongWordsTests {
    @Test("courier send encodes a typed URL once: %2B stays %2B next to a space that needs encoding",
          .enabled(if: CourierCLI.isBuilt, "the courier binary is not built"))
    func typedURLIsNotEncodedTwice() async throws {
        // Given a server that records the query it receives
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }

        // When courier sends a URL with an escape and a raw space, and one with only the escape
        let mixed = try await CourierCLI.run(["send", "http://127.0.0.1:\(server.port)/q?q=a%2Bb&r=x y"])
        let plain = try await CourierCLI.run(["send", "http://127.0.0.1:\(server.port)/p?q=a%2Bb"])

        // Then both arrive as typed, the space encoded once and %2B never as %252B
        #expect(mixed.status == 0 && plain.status == 0, "\(mixed.stderr) \(plain.stderr)")
        let queries = server.requests.map(\.query)
        #expect(queries.contains("q=a%2Bb&r=x%20y"), "\(queries)")
        #expect(queries.contains("q=a%2Bb"), "\(queries)")
    }

    @Test("An obs-fold continuation line is joined to the header before it")
    func foldedHeaderIsJoined() async throws {
        // Given a server whose header continues on a line starting with spaces
        let server = try LoopbackServer { _ in
            .raw("HTTP/1.1 200 OK\r\nX-Folded: first\r\n   second\r\nContent-Length: 2\r\n\r\nok")
        }
        defer { server.stop() }

        // When the transport reads it
        let response = try await CurlTransport().send(HTTPRequest(url: server.url("/fold")), context: RequestContext())

        // Then the value is whole
        #expect(response.headers["X-Folded"] == "first second")
        #expect(response.status == 200)
    }

    @Test("A body that cannot be written to disk is a disk error, not the server's protocol error")
    func diskFailureIsADiskError() async throws {
        // Given a transport spilling bodies into a folder that does not exist
        let server = try LoopbackServer { _ in .json(String(repeating: "x", count: 4096)) }
        defer { server.stop() }
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("gone-\(UUID().uuidString)")
        let transport = CurlTransport(configuration: .init(spillThreshold: 16, temporaryDirectory: missing))

        // When a body larger than the spill threshold arrives
        var caught: APIError?
        do {
            _ = try await transport.send(HTTPRequest(url: server.url("/big")), context: RequestContext())
        } catch {
            caught = error
        }

        // Then it is reported as a disk error
        #expect(caught?.kind == .disk, "\(String(describing: caught))")
        #expect(caught?.description.hasPrefix("disk error: cannot create") == true)
    }

    /// A 64 KB tmpfs to fill, mounted for one test; nil when this machine does not allow it (not root, or no
    /// mount in this container), and the test is then skipped.
    static func smallFileSystem() async -> URL? {
        guard getuid() == 0 else { return nil }
        let point = FileManager.default.temporaryDirectory.appendingPathComponent("courier-full-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: point, withIntermediateDirectories: true)) != nil,
              let mounted = try? await ChildProcess.run(URL(fileURLWithPath: "/bin/mount"),
                                                        ["-t", "tmpfs", "-o", "size=64k", "tmpfs", point.path]),
              mounted.status == 0 else {
            try? FileManager.default.removeItem(at: point)
            return nil
        }
        return point
    }

    static func unmount(_ point: URL) async {
        _ = try? await ChildProcess.run(URL(fileURLWithPath: "/bin/umount"), [point.path])
        try? FileManager.default.removeItem(at: point)
    }

    @Test("A body that fills the disk is a disk error naming the full disk, and leaves no partial file")
    func aFullDiskIsADiskError() async throws {
        // Given a transport spilling bodies onto a 64 KB file system, and a 1 MB body
        guard let point = await Self.smallFileSystem() else { return }
        let server = try LoopbackServer { _ in .json(String(repeating: "x", count: 1_048_576)) }
        defer { server.stop() }
        let transport = CurlTransport(configuration: .init(spillThreshold: 16, temporaryDirectory: point))

        // When the body arrives and the disk fills up while it is written
        var caught: APIError?
        do {
            _ = try await transport.send(HTTPRequest(url: server.url("/big")), context: RequestContext())
        } catch {
            caught = error
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: point.path)) ?? ["unreadable"]
        await Self.unmount(point)

        // Then it is a disk error (not the server's protocol error), it says the disk is full, and the
        // partial body file is gone
        #expect(caught?.kind == .disk, "\(String(describing: caught))")
        let text = caught?.description ?? ""
        #expect(text.hasPrefix("disk error: cannot write the body to disk"), "\(text)")
        #expect(text.lowercased().contains("space"), "\(text)")
        #expect(left.isEmpty, "\(left)")
    }

    @Test("courier send -o onto a full device fails with status 1 and says there is no space",
          .enabled(if: CourierCLI.isBuilt && FileManager.default.fileExists(atPath: "/dev/full")))
    func sendingIntoAFullDeviceSaysSo() async throws {
        // Given a server with a 1 MB body
        let server = try LoopbackServer { _ in .json(String(repeating: "y", count: 1_048_576)) }
        defer { server.stop() }
        // When it is saved to /dev/full, where every write fails with ENOSPC
        let result = try await CourierCLI.run(["send", server.url("/big").absoluteString, "-o", "/dev/full"])
        // Then the command fails and says why
        #expect(result.status == 1, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains("/dev/full"), "\(result.stderr)")
        #expect(result.stderr.lowercased().contains("space"), "\(result.stderr)")
    }
}
