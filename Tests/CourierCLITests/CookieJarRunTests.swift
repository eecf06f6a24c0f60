import CourierTestSupport
import CourierDemo
import CourierHTTP
import Foundation
import Testing
@testable import CourierCollections

/// The cookie jar through `courier run` against the demo server: a login that sets a session cookie, then
/// a request that needs it, in one run and in the next; `# @no-cookie-jar`; `courier cookies ls|clear`.
@Suite(.serialized) struct CookieJarRunTests {
    let server: DemoServer
    let folder: URL
    let state: URL

    init() throws {
        server = try DemoServer.start()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cookies-\(UUID().uuidString)")
        state = folder.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let text = """
            ### login
            POST {{base}}/session/login
            Content-Type: application/json

            {"username": "ada"}

            ### me
            GET {{base}}/session/me

            ### anonymous
            # @no-cookie-jar
            GET {{base}}/session/me

            """
        try Data(text.utf8).write(to: folder.appendingPathComponent("session.http"))
        let base = server.baseURL.absoluteString.hasSuffix("/") ? String(server.baseURL.absoluteString.dropLast())
                                                                 : server.baseURL.absoluteString
        try Data(#"{"dev": {"base": "\#(base)"}}"#.utf8).write(to: folder.appendingPathComponent("http-client.env.json"))
    }

    func cleanUp() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    func courier(_ arguments: [String]) async throws -> ChildResult {
        try await CourierCLI.run(arguments, in: folder, environment: ["XDG_STATE_HOME": state.path])
    }

    func statuses(_ output: String) throws -> [String: Int] {
        var result: [String: Int] = [:]
        for line in output.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let name = object["name"] as? String else { continue }
            result[name] = object["status"] as? Int
        }
        return result
    }

    @Test func aLoginsCookieGoesWithTheNextRequestAndIsKeptForTheNextRun() async throws {
        defer { cleanUp() }
        // When login and me run in one `courier run`
        let first = try await courier(["run", "session.http", "--name", "login", "--name", "me", "--env", "dev", "--json"])
        // Then me is signed in by the cookie the login set
        #expect(try statuses(first.stdout) == ["login": 200, "me": 200], "\(first.stdout)\(first.stderr)")
        // And the cookie never appears in the output
        #expect(!first.stdout.contains("demo-"))
        // And the jar was saved 0600 in a 0700 folder
        let jar = state.appendingPathComponent("courier/cookies/dev.json")
        let fileMode = try FileManager.default.attributesOfItem(atPath: jar.path)[.posixPermissions] as? NSNumber
        let folderMode = try FileManager.default.attributesOfItem(atPath: jar.deletingLastPathComponent().path)[.posixPermissions] as? NSNumber
        #expect(fileMode?.intValue == 0o600)
        #expect(folderMode?.intValue == 0o700)
        // When the next run sends only me, and the request that opts out
        let second = try await courier(["run", "session.http", "--name", "me", "--name", "anonymous", "--env", "dev", "--json"])
        // Then me is still signed in, and the opted-out request was not
        #expect(try statuses(second.stdout) == ["me": 200, "anonymous": 401], "\(second.stdout)\(second.stderr)")
        let received = server.log.filter { $0.path == "/session/me" }.map { $0.header("Cookie") }
        #expect(received.count == 3)
        #expect(received.last.flatMap { $0 } == nil)
        #expect(received.first.flatMap { $0 }?.hasPrefix("courier_session=demo-") == true)
    }

    @Test func cookiesLsMasksValuesAndClearEmptiesTheJar() async throws {
        defer { cleanUp() }
        // Given a jar with the login's cookie
        _ = try await courier(["run", "session.http", "--name", "login", "--env", "dev"])
        // When the jar is listed, with and without --show-secrets
        let masked = try await courier(["cookies", "ls"])
        let shown = try await courier(["cookies", "ls", "--show-secrets"])
        // Then the cookie is listed with its attributes and its value only when asked
        #expect(masked.stdout.contains("dev  127.0.0.1  /  courier_session=REDACTED  HttpOnly SameSite=Lax  session"),
                "\(masked.stdout)")
        #expect(!masked.stdout.contains("demo-"))
        #expect(shown.stdout.contains("courier_session=demo-"))
        // When the jar is cleared, me is no longer signed in
        let cleared = try await courier(["cookies", "clear", "--env", "dev"])
        #expect(cleared.status == 0)
        let after = try await courier(["run", "session.http", "--name", "me", "--env", "dev", "--json"])
        #expect(try statuses(after.stdout) == ["me": 401])
    }

    /// `cookies ls --json` is written by the one JSON writer every `--json` uses: keys sorted, one line per
    /// cookie, slashes as they are (it escaped them as `\/` while `run --json` did not).
    @Test func cookiesLsJSONIsWrittenLikeEveryOtherJSONLine() async throws {
        defer { cleanUp() }
        // Given a jar with the login's cookie
        _ = try await courier(["run", "session.http", "--name", "login", "--env", "dev"])
        // When the jar is listed as JSON
        let listed = try await courier(["cookies", "ls", "--json"])
        // Then the line is compact, sorted JSON with the path's slash unescaped and the value masked
        #expect(listed.stdout.hasPrefix(#"{"domain":"127.0.0.1","environment":"dev","expires":null,"host_only":true,"#
                                        + #""http_only":true,"name":"courier_session","path":"/","same_site":"Lax","#
                                        + #""secure":false,"value":"REDACTED"}"#), "\(listed.stdout)")
    }
}
