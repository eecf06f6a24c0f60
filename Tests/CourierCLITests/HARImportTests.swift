import CourierTestSupport
import Foundation
import Testing

/// `courier import har`: a HAR saved by headless Chromium, and hand-written ones with what browsers and
/// other tools put in them, imported by the built binary and run with `courier run` against the loopback
/// server they were recorded from.
@Suite(.serialized) struct HARImportTests {
    let folder: URL
    let server: LoopbackServer

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-har-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        server = try LoopbackServer { request in
            if request.path == "/page" {
                return LoopbackServer.Reply(headers: [("Content-Type", "text/html"),
                                                      ("Set-Cookie", "sid=cookie-secret-1; Path=/")],
                                            body: Data(HARImportTests.page.utf8))
            }
            return .json("{\"users\":[{\"id\":1,\"name\":\"Ada\",\"joined\":\"2026-05-01T10:00:00Z\"}]}")
        }
    }

    func cleanUp() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    static let fixtures = CourierCLI.packageRoot.appendingPathComponent("Tests/CourierCollectionsTests/Fixtures/har")
    var state: [String: String] { ["XDG_STATE_HOME": folder.appendingPathComponent("state").path] }

    /// The page Chromium loads: a GET with a bearer token and a secret query parameter, a JSON POST whose
    /// body holds braces, a form POST, then `/done`.
    static let page = """
        <!doctype html><html><body><script>
        (async () => {
          await fetch('/api/users?limit=2&access_token=query-secret-1',
                      {headers: {'Authorization': 'Bearer har-token-1', 'X-Trace': 'abc'}});
          await fetch('/api/users', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                     body: JSON.stringify({name: 'Ada', note: '{{not a variable}}'})});
          await fetch('/api/form', {method: 'POST', body: new URLSearchParams({a: '1', b: 'x y'})});
          await fetch('/done');
        })();
        </script></body></html>
        """

    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: chromium != nil, "Debian's chromium is not installed (make deps installs it)"))
    func aHARSavedByHeadlessChromiumImportsAndRunsAsTheBrowserSentIt() async throws {
        defer { cleanUp() }
        // Given a HAR that headless Chromium saved while loading a page that calls an API
        let har = folder.appendingPathComponent("session.har")
        let recorded = try await CodeRunners.runPython([Self.fixtures.appendingPathComponent("record-har.py").path,
                                                        Self.chromium ?? "", "\(server.baseURL)/page", har.path, "/done"])
        #expect(recorded.status == 0, "\(recorded.stderr)")
        let browserSent = server.requests.filter { $0.path.hasPrefix("/api/") }
        #expect(browserSent.count == 3)
        // When it is imported and every request is run against the same server
        let output = folder.appendingPathComponent("imported")
        let imported = try await CourierCLI.run(["import", "har", har.path, "-o", output.path], environment: state)
        #expect(imported.status == 0, "\(imported.stderr)")
        let before = server.requests.count
        let run = try await CourierCLI.run(["run", output.path, "--all"], environment: state)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let courierSent = Array(server.requests.dropFirst(before)).filter { $0.path.hasPrefix("/api/") }
        // Then the server received what the browser sent: method, path, query, body, credentials, headers
        #expect(courierSent.map { "\($0.method) \($0.path)?\($0.query)" } == browserSent.map { "\($0.method) \($0.path)?\($0.query)" })
        for (browser, courier) in zip(browserSent, courierSent) {
            #expect(courier.body == browser.body, "\(courier.path)")
            for name in ["authorization", "cookie", "x-trace", "content-type", "user-agent", "accept-language", "origin"] {
                #expect(courier.headers[name] == browser.headers[name], "\(courier.method) \(courier.path): \(name)")
            }
        }
        #expect(courierSent.first?.headers["authorization"] == "Bearer har-token-1")
        #expect(courierSent.first?.headers["cookie"] == "sid=cookie-secret-1")
        // And no secret is in a .http file: they are variables of the private environment, readable by you only
        let files = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        #expect(files == ["127.0.0.1-\(server.port).http", "http-client.private.env.json"])
        let http = try String(contentsOf: output.appendingPathComponent(files[0]), encoding: .utf8)
        for secret in ["har-token-1", "cookie-secret-1", "query-secret-1"] { #expect(!http.contains(secret), "\(http)") }
        #expect(http.contains("Authorization: Bearer {{authorization}}"))
        #expect(http.contains("access_token={{access_token}}"))
        #expect(http.contains("Left out, as the client sets them itself: Accept-Encoding, Connection, Host"))
        let privateFile = output.appendingPathComponent("http-client.private.env.json")
        let secrets = try JSONSerialization.jsonObject(with: Data(contentsOf: privateFile)) as? [String: [String: String]]
        #expect(secrets?["$shared"]?["authorization"] == "har-token-1")
        #expect(secrets?["$shared"]?["cookie"] == "sid=cookie-secret-1")
        let mode = try FileManager.default.attributesOfItem(atPath: privateFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // And each response is the first history entry of its request, secrets masked
        let history = try await CourierCLI.run(["history", "list", "--json"], environment: state)
        #expect(history.stdout.contains("\"get-users\""), "\(history.stdout)")
        #expect(!history.stdout.contains("har-token-1") && !history.stdout.contains("query-secret-1"))
    }

    @Test func theNewestHistoryEntryOfAnImportedRequestMakesSwiftModelsWithoutSending() async throws {
        defer { cleanUp() }
        // Given a HAR whose GET answered a list of users
        let har = try writeHAR("api.har", port: server.port)
        let output = folder.appendingPathComponent("imported")
        let imported = try await CourierCLI.run(["import", "har", har.path, "-o", output.path], environment: state)
        #expect(imported.status == 0, "\(imported.stderr)")
        server.stop()
        // When Swift models are made from history, the server gone
        let file = output.appendingPathComponent("127.0.0.1-\(server.port).http")
        let export = try await CourierCLI.run(["export", "swift", file.path, "--name", "get-users", "--models",
                                               "--from-history"], environment: state)
        // Then the HAR's response was used
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.contains("struct User"), "\(export.stdout)")
        #expect(export.stdout.contains("let joined: Date"))
    }

    @Test func handWrittenHARFormsCookiesListsAndUnusableEntriesImportTheRest() async throws {
        defer { cleanUp() }
        let har = try writeHAR("api.har", port: server.port)
        let output = folder.appendingPathComponent("imported")
        let imported = try await CourierCLI.run(["import", "har", har.path, "-o", output.path], environment: state)
        #expect(imported.status == 0, "\(imported.stderr)")
        // The entries that cannot be requests are named by their JSON path
        #expect(imported.stderr.contains("note: log.entries[3]: no request with a method and a URL; entry left out"),
                "\(imported.stderr)")
        #expect(imported.stderr.contains("note: log.entries[4]: data:text/plain,hello is not an http(s) URL"))
        let run = try await CourierCLI.run(["run", output.path, "--all"], environment: state)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        // The form params were encoded, the cookies list became a Cookie header, the pseudo-headers dropped
        let form = server.requests.first { $0.path == "/api/form" }
        #expect(String(decoding: form?.body ?? Data(), as: UTF8.self) == "a=1&b=x%20y")
        #expect(form?.headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(form?.headers["cookie"] == "session=s-9; theme=dark")
        let users = server.requests.first { $0.path == "/api/users" }
        #expect(users?.headers["x-api-key"] == "key-secret-2")
        #expect(users?.headers.keys.contains { $0.hasPrefix(":") } == false)
    }

    @Test func aHARThatIsNotJSONIsReportedAtItsLine() async throws {
        defer { cleanUp() }
        let har = folder.appendingPathComponent("broken.har")
        try Data("{\"log\": {\n  \"entries\": [\n    {\"request\": }\n  ]}}".utf8).write(to: har)
        let imported = try await CourierCLI.run(["import", "har", har.path, "-o", folder.appendingPathComponent("o").path])
        #expect(imported.status != 0)
        #expect(imported.stderr.contains("cannot import \(har.path): line 3, column"), "\(imported.stderr)")
    }

    /// The hand-written HAR fixture with the server's port in its URLs.
    func writeHAR(_ name: String, port: UInt16) throws -> URL {
        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("api.har"), encoding: .utf8)
            .replacingOccurrences(of: "PORT", with: "\(port)")
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }
}
