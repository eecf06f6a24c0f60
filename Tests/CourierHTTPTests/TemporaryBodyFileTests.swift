import CourierTestSupport
import CourierHTTP
import Foundation
import Testing

/// `courier send` leaves no temporary body file behind on any exit path (normal exit, SIGTERM, SIGHUP,
/// SIGINT, with and without `-o`), and sweeps the leftovers of dead processes when it starts.
@Suite("temporary body files on every exit path", .serialized)
struct TemporaryBodyFileTests {
    /// A server whose body promises 64 MB, sends 8 MB (past the spill threshold) and then stops sending.
    static func stallingServer() throws -> LoopbackServer {
        let sent = 8 << 20
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: \(64 << 20)\r\n\r\n"
        let raw = Data(head.utf8) + Data(repeating: UInt8(ascii: "x"), count: sent)
        return try LoopbackServer { _ in LoopbackServer.Reply(raw: raw, holdOpen: .seconds(30)) }
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("spill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func bodyFiles(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("courier-body-") }
    }

    /// A `courier` process started as a shell starts one: no signal blocked, default dispositions (the
    /// test runner's threads block some signals, and Foundation's Process passes that mask on).
    final class Child {
        let pid: pid_t
        private(set) var status: Int32?

        init(_ arguments: [String], tmpdir folder: URL) throws {
            guard let executable = CourierProcess.executable else { throw POSIXError(.ENOENT) }
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            var all = sigset_t()
            sigfillset(&all)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for fd: Int32 in [0, 1, 2] {
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            }
            let environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": folder.path, "NO_COLOR": "1"]) { $1 }
            let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            var pid: pid_t = 0
            let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
            guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
            self.pid = pid
        }

        /// Whether it has ended (reaping it once it has).
        var hasEnded: Bool {
            if status != nil { return true }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return false }
            status = raw
            return true
        }

        /// Waits up to 30 s for the end, killing it after that.
        func waitForExit() async throws {
            for _ in 0..<3000 where !hasEnded { try await Task.sleep(for: .milliseconds(10)) }
            if !hasEnded {
                kill(pid, SIGKILL)
                for _ in 0..<300 where !hasEnded { try await Task.sleep(for: .milliseconds(10)) }
            }
        }

        /// The exit code of a normal exit, nil after a signal.
        var exitCode: Int32? {
            guard let status, status & 0x7F == 0 else { return nil }
            return (status >> 8) & 0xFF
        }
    }

    @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
    func aSignalWhileTheBodyArrivesRemovesTheSpillFile(signal: Int32) async throws {
        // Given `courier send` receiving a large body that stalls after it has spilled to disk
        let server = try Self.stallingServer()
        let folder = try Self.folder()
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        let process = try Child(["send", server.url("/big").absoluteString], tmpdir: folder)
        #expect(await LoopbackServer.eventually(seconds: 20) { !Self.bodyFiles(in: folder).isEmpty })
        #expect(Self.bodyFiles(in: folder).allSatisfy { $0.hasPrefix("courier-body-\(process.pid)-") })
        // When the process gets the signal
        kill(process.pid, signal)
        try await process.waitForExit()
        // Then it ended at once, and no body file is left
        #expect(process.hasEnded)
        #expect(Self.bodyFiles(in: folder).isEmpty, "left behind: \(Self.bodyFiles(in: folder))")
    }

    @Test(arguments: [SIGTERM, SIGHUP])
    func aSignalWhileSavingWithOutputRemovesTheSpillFileBesideIt(signal: Int32) async throws {
        // Given `courier send -o FILE`, whose spill file sits beside FILE
        let server = try Self.stallingServer()
        let folder = try Self.folder()
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.bin")
        let process = try Child(["send", server.url("/big").absoluteString, "-o", output.path], tmpdir: folder)
        #expect(await LoopbackServer.eventually(seconds: 20) { !Self.bodyFiles(in: folder).isEmpty })
        // When the process gets the signal
        kill(process.pid, signal)
        try await process.waitForExit()
        #expect(process.hasEnded)
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
            let process = try Child(["send", server.url(path).absoluteString], tmpdir: folder)
            try await process.waitForExit()
            #expect(process.exitCode == status)
        }
        // Then no body file is left
        #expect(Self.bodyFiles(in: folder).isEmpty, "left behind: \(Self.bodyFiles(in: folder))")
    }

    @Test func startUpSweepsTheBodyFilesOfDeadProcessesOnly() async throws {
        // Given a body file of a process that has ended, one of a running process, and another file
        let folder = try Self.folder()
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let dead = folder.appendingPathComponent("courier-body-\(ended.processIdentifier)-\(UUID().uuidString)")
        let alive = folder.appendingPathComponent("courier-body-\(getpid())-\(UUID().uuidString)")
        let other = folder.appendingPathComponent("notes.txt")
        for url in [dead, alive, other] { try Data("x".utf8).write(to: url) }
        // When courier starts a request with that folder as its temporary folder
        let process = try Child(["send", server.url("/").absoluteString], tmpdir: folder)
        try await process.waitForExit()
        // Then only the dead process's file is gone
        #expect(!FileManager.default.fileExists(atPath: dead.path))
        #expect(FileManager.default.fileExists(atPath: alive.path))
        #expect(FileManager.default.fileExists(atPath: other.path))
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
