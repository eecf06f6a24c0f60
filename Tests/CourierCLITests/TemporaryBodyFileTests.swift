import CourierTestSupport
import CourierHTTP
import Foundation
import Testing

/// `courier send` leaves no temporary body file behind on any exit path (normal exit, SIGTERM, SIGHUP,
/// SIGINT, with and without `-o`), and sweeps the leftovers of dead processes when it starts.
@Suite("temporary body files on every exit path", .serialized)
struct TemporaryBodyFileTests {
    /// A server whose body promises 64 MB, sends 8 MB (past the spill threshold) and then stops sending.
    /// The stall outlasts any wait of the tests (they pass `--idle-timeout 600` so courier waits too): a
    /// loaded machine must not let the transfer end before the test has looked.
    static func stallingServer() throws -> LoopbackServer {
        let sent = 8 << 20
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(64 << 20)\r\n\r\n"
        let raw = Data(head.utf8) + Data(repeating: UInt8(ascii: "x"), count: sent)
        return try LoopbackServer { _ in LoopbackServer.Reply(raw: raw, holdOpen: .seconds(600)) }
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func bodyFiles(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("courier-body-") }
    }

    /// Starts `courier ARGUMENTS` with `folder` as its temporary folder.
    static func start(_ arguments: [String], tmpdir folder: URL) throws -> ChildProcess {
        try CourierCLI.start(arguments, environment: ["TMPDIR": folder.path])
    }

    @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
    func aSignalWhileTheBodyArrivesRemovesTheSpillFile(signal: Int32) async throws {
        // Given `courier send` receiving a large body that stalls after it has spilled to disk
        let server = try Self.stallingServer()
        let folder = try Self.folder()
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        let process = try Self.start(["send", server.url("/big").absoluteString, "--idle-timeout", "600"], tmpdir: folder)
        #expect(await LoopbackServer.eventually(seconds: 60) { !Self.bodyFiles(in: folder).isEmpty })
        #expect(Self.bodyFiles(in: folder).allSatisfy { $0.hasPrefix("courier-body-\(process.pid)-") })
        // When the process gets the signal
        process.signal(signal)
        // Then it ended at once, and no body file is left
        #expect(await process.finish(limit: .seconds(120)) != nil)
        #expect(Self.bodyFiles(in: folder).isEmpty, "left behind: \(Self.bodyFiles(in: folder))")
    }

    @Test(arguments: [SIGTERM, SIGHUP])
    func aSignalWhileSavingWithOutputRemovesTheSpillFileBesideIt(signal: Int32) async throws {
        // Given `courier send -o FILE`, whose spill file sits beside FILE
        let server = try Self.stallingServer()
        let folder = try Self.folder()
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.bin")
        let process = try Self.start(["send", server.url("/big").absoluteString, "-o", output.path, "--idle-timeout", "600"],
                                     tmpdir: folder)
        #expect(await LoopbackServer.eventually(seconds: 60) { !Self.bodyFiles(in: folder).isEmpty })
        // When the process gets the signal
        process.signal(signal)
        #expect(await process.finish(limit: .seconds(120)) != nil)
        // Then neither the spill file nor a half-written FILE is left
        #expect(Self.bodyFiles(in: folder).isEmpty, "left behind: \(Self.bodyFiles(in: folder))")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func aNormalExitLeavesNoBodyFile() async throws {
        // Given a complete 8 MB body (spilled, past the 4 MB threshold)
        let body = Data(repeating: UInt8(ascii: "y"), count: 8 << 20)
        let server = try LoopbackServer { request in
            LoopbackServer.Reply(status: request.path == "/fail" ? 500 : 200, headers: [("Content-Type", "text/plain")], body: body)
        }
        let folder = try Self.folder()
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        // When it is printed, and when it fails with a status that exits 1
        for (path, status) in [("/ok", Int32(0)), ("/fail", Int32(1))] {
            let process = try Self.start(["send", server.url(path).absoluteString], tmpdir: folder)
            #expect(await process.finish(limit: .seconds(120)) == status)
        }
        // Then no body file is left
        #expect(Self.bodyFiles(in: folder).isEmpty, "left behind: \(Self.bodyFiles(in: folder))")
    }

    @Test func theFirstSpilledBodySweepsTheBodyFilesOfDeadProcessesOnly() async throws {
        // Given a body file of a process that has ended, one of a running process, and another file,
        // and a server whose body is past the spill threshold (4 MB), so courier writes a body file too
        let folder = try Self.folder()
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(5 << 20)\r\n\r\n"
        let raw = Data(head.utf8) + Data(repeating: UInt8(ascii: "x"), count: 5 << 20)
        let server = try LoopbackServer { _ in LoopbackServer.Reply(raw: raw) }
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        let ended = try ChildProcess(URL(fileURLWithPath: "/bin/true"), [])
        await ended.finish()
        let dead = folder.appendingPathComponent("courier-body-\(ended.pid)-\(UUID().uuidString)")
        let alive = folder.appendingPathComponent("courier-body-\(getpid())-\(UUID().uuidString)")
        let other = folder.appendingPathComponent("notes.txt")
        for url in [dead, alive, other] { try Data("x".utf8).write(to: url) }
        // When courier sends a request with that folder as its temporary folder
        let process = try Self.start(["send", server.url("/").absoluteString], tmpdir: folder)
        let status = await process.finish(limit: .seconds(120))
        #expect(status == 0)
        // Then only the dead process's file is gone (and its own was removed at exit)
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(FileManager.default.fileExists(atPath: alive.path))
        #expect(FileManager.default.fileExists(atPath: other.path))
    }

    @Test func aResponseThatIsNotSpilledNeverListsTheTemporaryFolder() async throws {
        // Given a body file of a process that has ended
        let folder = try Self.folder()
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        let ended = try ChildProcess(URL(fileURLWithPath: "/bin/true"), [])
        await ended.finish()
        let dead = folder.appendingPathComponent("courier-body-\(ended.pid)-\(UUID().uuidString)")
        try Data("x".utf8).write(to: dead)
        // When a small response is sent, which stays in memory
        let process = try Self.start(["send", server.url("/").absoluteString], tmpdir: folder)
        let status = await process.finish(limit: .seconds(120))
        // Then the one-shot request did not pay for a sweep: the file waits for a Courier that spills
        #expect(status == 0)
        #expect(FileManager.default.fileExists(atPath: dead.path))
    }

    @Test func releaseRemovesOnlyFilesOfThisProcess() throws {
        // Given a registered temporary file and an unregistered file in the same folder
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ours = TemporaryBodyFiles.makeURL(in: folder)
        let foreign = folder.appendingPathComponent("cache-entry.body")
        for url in [ours, foreign] { try Data("x".utf8).write(to: url) }
        TemporaryBodyFiles.register(ours)
        // When both are released
        TemporaryBodyFiles.release(.file(ours, size: 1))
        TemporaryBodyFiles.release(.file(foreign, size: 1))
        // Then only ours is removed
        #expect(!FileManager.default.fileExists(atPath: ours.path))
        #expect(FileManager.default.fileExists(atPath: foreign.path))
        #expect(!TemporaryBodyFiles.held.contains(ours.path))
    }
}
