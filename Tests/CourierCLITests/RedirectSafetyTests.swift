import CourierMessage
import CourierTestSupport
import CourierSecurity
import Foundation
import Testing
@testable import CourierHTTP

/// Redirects are followed safely: only to http(s), never from https down to http unless asked, and without
/// any secret header once they leave the origin. Checked on the bytes loopback servers received.
@Suite struct RedirectSafetyTests {
    /// A server whose every answer is a 302 to `location`.
    static func redirecting(to location: String) throws -> LoopbackServer {
        try LoopbackServer { _ in LoopbackServer.Reply(status: 302, headers: [("Location", location)]) }
    }

    // MARK: Only http and https

    @Test("A 302 to ftp:// is refused by the transport as a refused redirect, and the FTP server hears nothing")
    func transportRefusesFTPRedirect() async throws {
        // Given an FTP stub and a server redirecting to a file on it
        let ftp = try FTPStub()
        defer { ftp.stop() }
        let server = try Self.redirecting(to: "ftp://127.0.0.1:\(ftp.port)/secret.txt")
        defer { server.stop() }

        // When the transport sends a request there
        let transport = CurlTransport()
        var caught: APIError?
        do {
            _ = try await transport.send(HTTPRequest(url: server.url("/start")), context: RequestContext())
        } catch {
            caught = error
        }

        // Then it is a refused redirect, and nothing reached the FTP port
        guard case .redirectRefused(_, let to, let reason)? = caught else {
            Issue.record("expected a refused redirect, got \(String(describing: caught))")
            return
        }
        #expect(to.hasPrefix("ftp://127.0.0.1"))
        #expect(reason.contains("only http and https"))
        #expect(ftp.connections == 0)
        #expect(server.requestCount(path: "/start") == 1, "a refused redirect is never retried")
    }

    @Test("courier send, run and ws on a redirect to ftp:// exit 1 with the refused redirect; no USER or RETR",
          .enabled(if: CourierCLI.isBuilt, "the courier binary is not built"))
    func cliRefusesFTPRedirectOnEveryPath() async throws {
        // Given an FTP stub and a server redirecting to it
        let ftp = try FTPStub()
        defer { ftp.stop() }
        let server = try Self.redirecting(to: "ftp://127.0.0.1:\(ftp.port)/secret.txt")
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("redirect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("ftp.http")
        try "### Fetch\n# @name fetch\nGET \(server.url("/run"))\n".write(to: file, atomically: true, encoding: .utf8)

        // When send, run and ws follow it
        let send = try await CourierCLI.run(["send", server.url("/send").absoluteString])
        let run = try await CourierCLI.run(["run", file.path])
        let ws = try await CourierCLI.run(["ws", "ws://127.0.0.1:\(server.port)/ws", "--count", "1"])

        // Then each fails, send and run name the refused redirect, and the FTP stub saw no command
        #expect(send.status == 1)
        #expect(send.stderr.contains("redirect refused"), "\(send.stderr)")
        #expect(!send.stdout.contains("226"))
        #expect(run.status == 1)
        #expect((run.stdout + run.stderr).contains("redirect refused"), "\(run.stdout) \(run.stderr)")
        #expect(ws.status != 0)
        #expect(ftp.connections == 0)
        #expect(!ftp.text.contains("USER") && !ftp.text.contains("RETR"))
    }

    @Test("Every curl handle is made with http and https as its only protocols, for requests and redirects")
    func everyHandleAllowsOnlyHTTP() {
        #expect(CurlEasy.allowedProtocols == "http,https")
    }

    // MARK: Credentials across origins

    @Test("A cross-origin redirect drops every secret header; a same-origin one keeps them")
    func crossOriginRedirectStripsSecretHeaders() async throws {
        // Given a second origin (another port) and a first one redirecting to it, and to itself
        let other = try LoopbackServer { _ in .json("{}") }
        defer { other.stop() }
        let first = try LoopbackServer { request in
            switch request.path {
            case "/away": LoopbackServer.Reply(status: 302, headers: [("Location", other.url("/landed").absoluteString)])
            case "/here": LoopbackServer.Reply(status: 307, headers: [("Location", "/same")])
            default: .json("{}")
            }
        }
        defer { first.stop() }
        let headers: HTTPHeaders = ["X-Api-Key": "key-123456", "Proxy-Authorization": "Basic cHJveHk6cHc=",
                                    "Authorization": "Bearer tok-123456", "Cookie": "session=ck-123456",
                                    "X-Upload-Token": "up-123456", "X-Trace": "kept"]
        let transport = CurlTransport()

        // When both redirects are followed
        let away = try await transport.send(HTTPRequest(url: first.url("/away"), headers: headers), context: RequestContext())
        let here = try await transport.send(HTTPRequest(url: first.url("/here"), headers: headers), context: RequestContext())

        // Then the other origin received no secret, the same origin received all of them
        #expect(away.status == 200 && here.status == 200)
        let landed = try #require(other.requests.first { $0.path == "/landed" })
        for name in ["x-api-key", "proxy-authorization", "authorization", "cookie", "x-upload-token"] {
            #expect(landed.headers[name] == nil, "\(name) crossed to another origin")
        }
        #expect(landed.headers["x-trace"] == "kept")
        let same = try #require(first.requests.first { $0.path == "/same" })
        #expect(same.headers["x-api-key"] == "key-123456")
        #expect(same.headers["authorization"] == "Bearer tok-123456")
    }

    @Test("https to http is refused unless the request allows it; 303 turns a POST into a bodiless GET")
    func downgradeAndMethodRules() throws {
        // Given an https request carrying a key
        let request = HTTPRequest(method: .post, url: URL(string: "https://api.example/login")!,
                                  headers: ["X-Api-Key": "k", "Content-Type": "text/plain"], body: .data(Data("b".utf8)))

        // When it is redirected to plain http, then with permission, then by a 303 on https
        #expect(throws: APIError.self) {
            try RedirectPolicy.next(after: request, status: 302, location: "http://api.example/x")
        }
        var allowed = request
        allowed.allowInsecureRedirect = true
        let downgraded = try RedirectPolicy.next(after: allowed, status: 307, location: "http://api.example/x")
        let seeOther = try RedirectPolicy.next(after: request, status: 303, location: "/done")

        // Then the permitted downgrade is another origin (no key), and the 303 is a GET without a body
        #expect(downgraded.headers["X-Api-Key"] == nil)
        #expect(downgraded.method == .post)
        #expect(seeOther.method == .get && seeOther.body == .empty && seeOther.headers["Content-Type"] == nil)
        #expect(seeOther.headers["X-Api-Key"] == "k")
        #expect(seeOther.url.absoluteString == "https://api.example/done")
    }

    @Test("A Location with user:password@ never shows its password in courier send --json",
          .enabled(if: CourierCLI.isBuilt, "the courier binary is not built"))
    func locationCredentialsAreNotPrinted() async throws {
        // Given a server redirecting to a URL with credentials in it
        let target = try LoopbackServer { _ in .json("{\"ok\":true}") }
        defer { target.stop() }
        let server = try Self.redirecting(to: "http://alice:pw-S3CRET-77@127.0.0.1:\(target.port)/in")
        defer { server.stop() }

        // When courier follows it and prints JSON, and text with -v
        let json = try await CourierCLI.run(["send", "--json", server.url("/go").absoluteString])
        let verbose = try await CourierCLI.run(["send", "-v", server.url("/go").absoluteString])

        // Then the password is nowhere in the output
        #expect(json.status == 0, "\(json.stderr)")
        for output in [json.stdout, json.stderr, verbose.stdout, verbose.stderr] {
            #expect(!output.contains("pw-S3CRET-77"))
        }
    }
}
