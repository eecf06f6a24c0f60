import CourierTestSupport
import Foundation
import Testing

/// A cookie jar that cannot be saved (a full disk) is said on standard error, once, and still serves the
/// run. The disk is "full" for courier alone: it runs with a file size limit of 512 bytes (RLIMIT_FSIZE,
/// SIGXFSZ ignored, as `ulimit -f 1` in a shell that ignores the signal), so writing the jar fails with
/// EFBIG, as a full disk fails with ENOSPC; no mount, no root.
@Suite("Cookie jar on a full disk", .enabled(if: CourierCLI.isBuilt))
struct CookieJarFullDiskTests {
    @Test func aJarThatCannotBeSavedIsReportedOnceAndStillSendsItsCookies() async throws {
        // Given a server setting a cookie too large for the jar file to be written
        let cookie = "session=" + String(repeating: "c", count: 1500)
        let server = try LoopbackServer { _ in LoopbackServer.Reply(headers: [("Set-Cookie", cookie)], body: Data("ok".utf8)) }
        defer { server.stop() }
        let folder = try TemporaryFolder("fulldisk")
        let state = try TemporaryFolder("fulldisk-state")
        let base = server.baseURL.absoluteString
        try folder.write("api.http", "GET \(base)/login\n\n###\nGET \(base)/me\n\n###\nGET \(base)/again\n")
        // When courier runs them with no room for files
        let script = "trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\""
        let result = try await ChildProcess.run(URL(fileURLWithPath: "/bin/sh"),
                                                ["-c", script, CourierCLI.executable.path, "run", "api.http"],
                                                in: folder.url, environment: ["NO_COLOR": "1",
                                                                              "XDG_STATE_HOME": state.url.path])
        // Then the run succeeded, the cookie went with the later requests, and the failure was said once
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.dropFirst().allSatisfy { $0.headers["cookie"] == cookie }, "\(server.requests.map(\.headers))")
        let warnings = result.stderr.components(separatedBy: "\n").filter { $0.contains("cookie jar not saved") }
        #expect(warnings.count == 1, "\(result.stderr)")
        let jar = state.url.appendingPathComponent("courier/cookies/default.json").path
        #expect(warnings.first == "Warning: cookie jar not saved: \(jar): cannot save: File too large; its cookies last "
                + "only until Courier ends", "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: jar))
        // And the cookie's value is not in the warning
        #expect(!result.stderr.contains("ccccc"))
    }
}
