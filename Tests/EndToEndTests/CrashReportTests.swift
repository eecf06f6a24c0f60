import CourierTestSupport
import Foundation
import Testing

/// A crash restores the terminal and says where the crash report went: the real `courier` binary is
/// crashed on purpose with the `COURIER_CRASH_TEST` hook, once as a plain CLI command and once as the
/// explorer in tmux, with HOME and the XDG folders in a temporary folder.
@Suite(.serialized, .enabled(if: Reliability.hasCourier, "the courier binary is not built"))
struct CrashReportTests {
    /// Secret values of one run, unique so that a hit cannot be a coincidence.
    struct Secrets {
        let id = UUID().uuidString.prefix(8)
        var header: String { "hdr-SECRET-\(id)" }
        var password: String { "pw-SECRET-\(id)" }
        var query: String { "q-SECRET-\(id)" }
        var body: String { "body-SECRET-\(id)" }
        var variable: String { "env-SECRET-\(id)" }
        var privateToken: String { "tok-SECRET-\(id)" }
        var all: [String] { [header, password, query, body, variable, privateToken] }
    }

    /// The signals each value of the hook may end in: Swift traps are SIGILL or SIGTRAP by architecture.
    static let expectedSignals: [String: Set<Int32>] = [
        "segv": [SIGSEGV], "trap": [SIGILL, SIGTRAP], "abort": [SIGABRT], "overflow": [SIGSEGV],
    ]
    /// Signal names as the crash line and the report spell them.
    static let names: [Int32: String] = [
        SIGSEGV: "SIGSEGV", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS",
    ]

    /// The crash report folder under a sandbox's state folder.
    static func crashFolder(_ root: URL) -> URL { root.appendingPathComponent("state/courier/crashes") }

    /// The report path the crash line names, read from `text` (a stderr or a screen, wrapped lines joined).
    static func reportPath(in text: String) -> String? {
        guard let range = text.range(of: "crash report: ") else { return nil }
        return text[range.upperBound...].prefix(while: { !$0.isWhitespace }).description
    }

    /// Every file below `root` that holds any of `secrets`.
    static func leaks(of secrets: [String], under root: URL) -> [String] {
        Reliability.files(under: root).flatMap { file -> [String] in
            let text = String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self)
            return secrets.filter { text.contains($0) }.map { "\(file.lastPathComponent): \($0)" }
        }
    }

    @Test("A crashing courier send dies of the signal and names a private report with a backtrace, no secret",
          arguments: ["segv", "trap", "abort", "overflow"])
    func sendCrashWritesAPrivateReport(kind: String) async throws {
        // Given secrets in a header, the URL's password and query, the body and the environment
        let secrets = Secrets()
        let root = try Reliability.temporaryFolder("crash-send")
        defer { try? FileManager.default.removeItem(at: root) }
        let url = "http://user:\(secrets.password)@127.0.0.1:\(Reliability.closedPort())/items?token=\(secrets.query)"
        let environment = ["XDG_STATE_HOME": root.appendingPathComponent("state").path,
                           "XDG_CACHE_HOME": root.appendingPathComponent("cache").path,
                           "HOME": root.path, "COURIER_CRASH_TEST": kind, "COURIER_SECRET": secrets.variable]

        // When courier send crashes before sending
        let result = try await Reliability.runCourier(
            ["send", "POST", url, "-H", "Authorization: Bearer \(secrets.header)", "-d", secrets.body],
            environment: environment, in: root)

        // Then it died of the signal: SIGSEGV (also for a stack overflow), SIGABRT, SIGILL/SIGTRAP for a trap
        let signal = result.status - 128
        #expect(Self.expectedSignals[kind]?.contains(signal) == true, "status \(result.status): \(result.stderrText)")
        let name = Self.names[signal] ?? "?"
        // And standard error has the one line naming the report, which is in the state folder
        #expect(result.stderrText.contains("courier crashed (\(name)); crash report: "), "\(result.stderrText)")
        let path = try #require(Self.reportPath(in: result.stderrText))
        #expect(path.hasPrefix(Self.crashFolder(root).path + "/courier-"))
        // And only the owner may read the report
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        // And it names the signal and the command, and holds a backtrace of the courier binary
        let report = try String(contentsOfFile: path, encoding: .utf8)
        #expect(report.contains("signal: \(name) (\(signal))"))
        #expect(report.contains("command: \(Reliability.courier.path) send\n"))
        #expect(report.contains("backtrace"))
        #expect(report.contains("courier(+0x"), "\(report)")
        #expect(report.hasSuffix("end of report\n"))
        // And no secret is in it, nor in any file courier wrote, nor on standard error
        #expect(Self.leaks(of: secrets.all, under: root.appendingPathComponent("state")).isEmpty)
        #expect(!secrets.all.contains { result.stderrText.contains($0) })
    }

    @Test("courier serve-demo, killed by SIGABRT while serving, also reports the crash and dies of the signal")
    func serveDemoReportsACrashSignal() async throws {
        // Given the demo server running with its state folder in a sandbox
        let root = try Reliability.temporaryFolder("crash-serve")
        defer { try? FileManager.default.removeItem(at: root) }
        // On a port of the system's choosing: 8088 may be in use by another test or a developer's demo.
        let child = try ChildProcess(Reliability.courier, ["serve-demo", "--port", "0"], environment: [
            "XDG_STATE_HOME": root.appendingPathComponent("state").path, "HOME": root.path,
        ])
        defer { child.signalGroup(SIGKILL) }
        let listening = await child.stdout.wait(limit: .seconds(60)) { $0.contains("listening") }
        try #require(listening)

        // When it receives a crash signal
        child.signal(SIGABRT)

        // Then it dies of that signal, after the line naming its report
        #expect(await child.finish(limit: .seconds(60)) == 128 + SIGABRT)
        let stderr = child.stderr.text
        #expect(stderr.contains("courier crashed (SIGABRT); crash report: "), "\(stderr)")
        let path = try #require(Self.reportPath(in: stderr))
        let report = try String(contentsOfFile: path, encoding: .utf8)
        #expect(report.contains("command: \(Reliability.courier.path) serve-demo\n"))
        #expect(report.contains("signal: SIGABRT (\(SIGABRT))"))
    }

    @Test("Without the hook nothing crashes and no crash folder is created")
    func unsetHookDoesNothing() async throws {
        // Given a sandbox and no COURIER_CRASH_TEST
        let root = try Reliability.temporaryFolder("crash-none")
        defer { try? FileManager.default.removeItem(at: root) }
        let environment = ["XDG_STATE_HOME": root.appendingPathComponent("state").path, "HOME": root.path,
                           "COURIER_CRASH_TEST": ""]

        // When courier send fails the ordinary way, on a closed port
        let result = try await Reliability.runCourier(
            ["send", "http://127.0.0.1:\(Reliability.closedPort())/", "--retry", "0"], environment: environment)

        // Then it exits with 7 (nothing listens there), says nothing of a crash, and leaves no crash folder behind
        #expect(result.status == 7, "\(result.stderrText)")
        #expect(!result.stderrText.contains("crashed"))
        #expect(!FileManager.default.fileExists(atPath: Self.crashFolder(root).path))
    }

    @Test("Every command prunes old crash reports at start-up, keeping room for one more under the limit")
    func startUpPrunesOldReports() async throws {
        // Given 25 old reports and a file of the user's in the crash folder
        let root = try Reliability.temporaryFolder("crash-prune")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = Self.crashFolder(root)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let names = (10..<35).map { "courier-20260101T0000\($0)Z-\($0).crash" }
        for name in names { try Data("old".utf8).write(to: folder.appendingPathComponent(name)) }
        try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))

        // When any command starts (here `courier send --help`)
        let result = try await Reliability.runCourier(["send", "--help"], environment: [
            "XDG_STATE_HOME": root.appendingPathComponent("state").path, "HOME": root.path,
        ])

        // Then the 19 newest reports remain, and the user's file too
        #expect(result.status == 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == (Array(names.suffix(19)) + ["notes.txt"]).sorted())
    }

    @Test("A crashing explorer leaves the alternate screen, shows the cursor, gives back the shell, names the report",
          .enabled(if: Reliability.hasTmux, "tmux is needed"), arguments: ["segv", "trap", "overflow"])
    func explorerCrashRestoresTheTerminal(kind: String) async throws {
        // Given a collection whose private environment holds a token, and an interactive shell in tmux
        let secrets = Secrets()
        let root = try Reliability.temporaryFolder("crash-tmux")
        defer { try? FileManager.default.removeItem(at: root) }
        try """
        ### Me
        # @name me
        GET {{base}}/users/1
        Authorization: Bearer {{token}}
        """.write(to: root.appendingPathComponent("api.http"), atomically: true, encoding: .utf8)
        try #"{"dev": {"base": "http://127.0.0.1:1"}}"#
            .write(to: root.appendingPathComponent("http-client.env.json"), atomically: true, encoding: .utf8)
        try #"{"dev": {"token": "\#(secrets.privateToken)"}}"#
            .write(to: root.appendingPathComponent("http-client.private.env.json"), atomically: true, encoding: .utf8)
        let shell = "env -i HOME='\(root.path)' TERM=tmux-256color PATH=/usr/bin:/bin PS1='$ ' "
            + "/bin/bash --norc --noprofile -i"
        let session = try await ReliabilityTmux(command: shell)
        defer { session.kill() }
        #expect(await session.waitFor("$"), "\(session.lastScreen)")
        let joined = { (try? await session.run(["capture-pane", "-p", "-J", "-t", session.target])) ?? "" }

        // When the explorer starts there with the hook and crashes after its first frame
        try await session.run(["send-keys", "-t", session.target, "-l", "cd '\(root.path)' && XDG_STATE_HOME='\(root.path)/state' "
            + "XDG_CACHE_HOME='\(root.path)/cache' SWIFT_BACKTRACE=enable=no COURIER_CRASH_TEST=\(kind) "
            + "'\(Reliability.courier.path)' api.http --env dev"])
        await session.send("Enter")

        // Then the crash line, after the restore, names the signal and the report
        let names = Self.expectedSignals[kind, default: []].compactMap { Self.names[$0] }
        let crashed = await Reliability.eventually(limit: 30) {
            let text = await joined()
            return names.contains { text.contains("courier crashed (\($0)); the terminal was restored; crash report: ") }
        }
        var shown = await joined()
        #expect(crashed, "\(shown)")
        // And the pane is out of the alternate screen with the cursor visible
        let flags = try await session.run(["display-message", "-p", "-t", session.target, "#{alternate_on} #{cursor_flag}"])
        #expect(flags.trimmingCharacters(in: .whitespacesAndNewlines) == "0 1")
        // And the shell reads and echoes a command again
        try await session.run(["send-keys", "-t", session.target, "-l", "echo \"o\"k"])
        await session.send("Enter")
        let answered = await Reliability.eventually(limit: 15) {
            await joined().split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces) == "ok" }
        }
        shown = await joined()
        #expect(answered, "\(shown)")
        // And the report is there, says the terminal was restored first, and holds no secret
        let path = try #require(Self.reportPath(in: shown))
        let report = try String(contentsOfFile: path, encoding: .utf8)
        #expect(names.contains { report.contains("signal: \($0) (") })
        #expect(report.contains(" explorer\n"))
        #expect(report.contains("terminal: restored before this report was written"))
        #expect(Self.leaks(of: secrets.all, under: root.appendingPathComponent("state")).isEmpty)
    }
}
