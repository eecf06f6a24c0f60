import CourierDemo
import Foundation
import Testing

/// Secrets never leak: a token and a cookie from the private environment file, an Authorization,
/// Proxy-Authorization and Cookie header given on the command line. `courier send`, `courier run`,
/// `courier export curl`, `courier history` and the explorer run against the demo server with HOME and
/// the XDG folders in a temporary folder; every byte they print, every file they write and every screen
/// of the explorer (a request echoed back, in tmux) is scanned.
@Suite(.serialized, .enabled(if: Reliability.hasCourier, "the courier binary is not built"))
struct SecretLeakTests {
    /// The secret values of one run, unique so that a hit cannot be a coincidence.
    struct Secrets {
        let id = UUID().uuidString.prefix(8)
        var token: String { "tok-S3CRET-\(id)" }
        var cookie: String { "ck-S3CRET-\(id)" }
        var apiKey: String { "key-S3CRET-\(id)" }
        var header: String { "hdr-S3CRET-\(id)" }
        var proxy: String { "pxy-S3CRET-\(id)" }
        var all: [String] { [token, cookie, apiKey, header, proxy] }
    }

    /// A temporary HOME with XDG folders and a collection whose private environment holds the secrets.
    struct Sandbox {
        let root: URL
        let collection: URL
        let environment: [String: String]
        /// Files the test wrote itself (the private env file legitimately holds the secrets).
        let ownFiles: Set<String>

        init(server: DemoServer, secrets: Secrets) throws {
            root = try Reliability.temporaryFolder("secrets")
            let project = root.appendingPathComponent("project", isDirectory: true)
            try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
            collection = project.appendingPathComponent("api.http")
            try """
            ### Me
            # @name me
            GET {{base}}/users/1
            Authorization: Bearer {{token}}
            Cookie: session={{cookie}}
            X-Api-Key: {{apikey}}

            ### Cached
            # @name cached
            GET {{base}}/etag?k={{apikey}}

            ### Missing
            # @name missing
            GET {{base}}/status/404
            Authorization: Bearer {{token}}

            """.write(to: collection, atomically: true, encoding: .utf8)
            let shared = project.appendingPathComponent("http-client.env.json")
            try #"{"dev": {"base": "\#(server.baseURL.absoluteString)"}}"#.write(to: shared, atomically: true, encoding: .utf8)
            let privateFile = project.appendingPathComponent("http-client.private.env.json")
            try #"{"dev": {"token": "\#(secrets.token)", "cookie": "\#(secrets.cookie)", "apikey": "\#(secrets.apiKey)"}}"#
                .write(to: privateFile, atomically: true, encoding: .utf8)
            ownFiles = [collection.path, shared.path, privateFile.path]
            environment = ["HOME": root.appendingPathComponent("home").path,
                           "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
                           "XDG_STATE_HOME": root.appendingPathComponent("state").path,
                           "XDG_CACHE_HOME": root.appendingPathComponent("cache").path]
        }

        /// Files Courier wrote below the sandbox, with their contents.
        func writtenFiles() -> [(path: String, data: Data)] {
            Reliability.files(under: root).filter { !ownFiles.contains($0.path) }
                .map { ($0.path, (try? Data(contentsOf: $0)) ?? Data()) }
        }
    }

    /// The permission bits of a file or folder.
    static func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]) as? Int) ?? 0o777
    }

    /// The secrets found in `data`.
    static func leaks(in data: Data, of secrets: Secrets) -> [String] {
        secrets.all.filter { data.range(of: Data($0.utf8)) != nil }
    }

    @Test("send, run, export, history and the explorer print and write no secret")
    func noSecretInOutputOrFiles() async throws {
        // Given a demo server and a sandboxed HOME holding a private environment
        let server = try DemoServer.start()
        defer { server.stop() }
        let secrets = Secrets()
        let sandbox = try Sandbox(server: server, secrets: secrets)
        defer { try? FileManager.default.removeItem(at: sandbox.root) }
        let users = server.baseURL.absoluteString + "/users/1"
        let echo = server.baseURL.absoluteString + "/echo"
        let headers = ["-H", "Authorization: Bearer \(secrets.header)", "-H", "Cookie: a=\(secrets.cookie)",
                       "-H", "Proxy-Authorization: Basic \(secrets.proxy)"]
        let runs: [[String]] = [
            ["send"] + headers + [users],
            ["send", "--json"] + headers + [users],
            ["send", "--timing"] + headers + [users],
            ["send", "--json"] + headers + ["http://127.0.0.1:\(Reliability.closedPort())/"],
            ["send", "--json"] + headers + [server.baseURL.absoluteString + "/status/500"],
            ["send", "--cache-mode", "default", "--json"] + headers + [server.baseURL.absoluteString + "/etag"],
            // A server echoing the request back: the values this request sent are masked in the body too.
            ["send", "POST"] + headers + ["-H", "X-Api-Key: \(secrets.apiKey)", "-d", "x", echo],
            ["send", "POST", "--json"] + headers + ["-H", "X-Api-Key: \(secrets.apiKey)", "-d", "x", echo],
            ["send", "-v"] + headers + ["-H", "X-Api-Key: \(secrets.apiKey)", echo],
            // A token in the query, cached: the entry, `cache ls` and the printed URL hold none of it.
            ["send", "--cache-mode", "default", "--json", server.baseURL.absoluteString
                + "/etag?access_token=\(secrets.token)"],
            ["run", sandbox.collection.path, "--env", "dev", "--name", "cached", "--cache-mode", "default"],
            ["cache", "ls"],
            ["cache", "ls", "--json"],
            ["run", sandbox.collection.path, "--env", "dev"],
            ["run", sandbox.collection.path, "--env", "dev", "--json"],
            ["run", sandbox.collection.path, "--env", "dev", "--timing"],
            ["export", "curl", sandbox.collection.path, "--name", "me", "--env", "dev"],
            ["history"],
            ["history", "--json"],
        ]

        // When each command runs
        for arguments in runs {
            let result = try await Reliability.runCourier(arguments, environment: sandbox.environment)

            // Then neither stdout nor stderr holds a secret
            #expect(result.status != 2, "\(arguments): \(result.stderrText)")
            #expect(Self.leaks(in: result.stdout, of: secrets).isEmpty, "stdout of \(arguments): \(result.stdoutText)")
            #expect(Self.leaks(in: result.stderr, of: secrets).isEmpty, "stderr of \(arguments): \(result.stderrText)")
        }

        // And the explorer, sending the request with the private environment, writes none either
        if Reliability.hasTmux {
            let exports = sandbox.environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
            let session = try await ReliabilityTmux(command: "cd '\(sandbox.collection.deletingLastPathComponent().path)' && "
                + "\(exports) TERM=tmux-256color '\(Reliability.courier.path)' api.http --env dev")
            defer { session.kill() }
            #expect(await session.waitFor("Collection"), "\(session.lastScreen)")
            #expect(await session.open("me", steps: 0), "\(session.lastScreen)")
            await session.send("Enter")
            #expect(await session.waitFor("#1  200"), "\(session.lastScreen)")
            await session.send("q")
            #expect(await session.waitForExit(), "q did not end the explorer: \(session.lastScreen)")
        }

        // And no file Courier wrote (history, cache, state) holds a secret
        let written = sandbox.writtenFiles()
        #expect(!written.isEmpty, "courier wrote no file at all under the sandbox; the scan proves nothing")
        for file in written {
            #expect(Self.leaks(in: file.data, of: secrets).isEmpty, "secret in \(file.path)")
            // And each is the user's alone: 0600 in a 0700 folder (history, cache, crash reports)
            #expect(Self.mode(file.path) & 0o077 == 0, "\(file.path) is \(String(Self.mode(file.path), radix: 8))")
            let folder = URL(fileURLWithPath: file.path).deletingLastPathComponent().path
            #expect(Self.mode(folder) & 0o077 == 0, "\(folder) is \(String(Self.mode(folder), radix: 8))")
        }
        #expect(written.contains { $0.path.contains("/cache/") }, "the cache was written and checked")
    }

    /// The explorer in tmux on a request that sends every secret to `/echo`; returns the screens it showed
    /// (the body, the headers tab and the log's attempt detail), or nil when tmux is missing.
    static func explorerScreens(sandbox: Sandbox, secrets: Secrets, extra: [String] = []) async throws -> [String]? {
        guard Reliability.hasTmux else { return nil }
        let project = sandbox.collection.deletingLastPathComponent()
        try """
            ### Echo
            # @name echo
            POST {{base}}/echo
            Authorization: Bearer {{token}}
            X-Api-Key: {{apikey}}
            Proxy-Authorization: Basic \(secrets.proxy)
            Content-Type: application/json

            {"sent": "{{token}} {{cookie}}"}

            """.write(to: project.appendingPathComponent("explore.http"), atomically: true, encoding: .utf8)
        let exports = sandbox.environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let session = try await ReliabilityTmux(command: "cd '\(project.path)' && \(exports) TERM=tmux-256color "
            + "'\(Reliability.courier.path)' explore.http --env dev \(extra.joined(separator: " "))", width: 160, height: 48)
        defer { session.kill() }
        var screens: [String] = []
        let reached1 = await session.open("echo", steps: 0)
        let shown1 = await session.screen()
        #expect(reached1, "\(shown1)")
        await session.send("Enter")
        // The log's line can come before the response pane has laid the body out: wait for both.
        let logged = await session.waitFor("#1  200")
        let reached2 = await session.waitFor("200 OK") && logged
        let shown2 = await session.screen()
        #expect(reached2, "\(shown2)")
        screens.append(await session.screen())
        await session.send("3")
        await session.send("H")
        let reached3 = await session.waitFor("Response · headers")
        let shown3 = await session.screen()
        #expect(reached3, "\(shown3)")
        screens.append(await session.screen())
        await session.send("4")
        await session.send("Enter")
        let reached4 = await session.waitFor("Attempt 1")
        let shown4 = await session.screen()
        #expect(reached4, "\(shown4)")
        screens.append(await session.screen())
        await session.send("q")
        #expect(await session.waitForExit(), "q did not end the explorer: \(session.lastScreen)")
        return screens
    }

    @Test("The explorer's screen (tmux) shows no echoed secret on any pane, and shows them with --show-secrets")
    func explorerScreenMasksEchoedSecrets() async throws {
        // Given a demo server and the sandbox with a private environment
        let server = try DemoServer.start()
        defer { server.stop() }
        let secrets = Secrets()
        let sandbox = try Sandbox(server: server, secrets: secrets)
        defer { try? FileManager.default.removeItem(at: sandbox.root) }

        // When the explorer sends the request that the server echoes back
        guard let screens = try await Self.explorerScreens(sandbox: sandbox, secrets: secrets) else { return }

        // Then the server received the secrets, and no screen shows one
        #expect(server.log.last { $0.path == "/echo" }?.header("Authorization") == "Bearer \(secrets.token)")
        for screen in screens {
            #expect(Self.leaks(in: Data(screen.utf8), of: secrets).isEmpty, "\(screen)")
            // Also in part: a narrow column cuts a long value short.
            #expect(!screen.contains("S3CRET"), "\(screen)")
        }
        #expect(screens.first?.contains("REDACTED") == true, "\(screens.first ?? "")")
        // And no file the explorer wrote holds one (the collection written above holds a literal one)
        for file in sandbox.writtenFiles() where !file.path.hasSuffix("/explore.http") {
            #expect(Self.leaks(in: file.data, of: secrets).isEmpty, "secret in \(file.path)")
        }

        // When the user asks for secrets
        let shown = try #require(try await Self.explorerScreens(sandbox: sandbox, secrets: secrets, extra: ["--show-secrets"]))
        // Then the body shows them, and the status bar says so
        #expect(shown.first?.contains(secrets.token) == true, "\(shown.first ?? "")")
        #expect(shown.first?.contains("secrets shown") == true, "\(shown.first ?? "")")
    }

    @Test("The scan finds secrets when they are asked for: export --show-secrets prints the private token")
    func showSecretsPrintsThem() async throws {
        // Given the same sandbox
        let server = try DemoServer.start()
        defer { server.stop() }
        let secrets = Secrets()
        let sandbox = try Sandbox(server: server, secrets: secrets)
        defer { try? FileManager.default.removeItem(at: sandbox.root) }

        // When the user asks for secrets
        let result = try await Reliability.runCourier(["export", "curl", sandbox.collection.path, "--name", "me", "--env", "dev",
                                                 "--show-secrets"], environment: sandbox.environment)

        // Then they are printed, so the scan above is able to see them
        #expect(Self.leaks(in: result.stdout, of: secrets).contains(secrets.token), "\(result.stdoutText)")
    }
}
