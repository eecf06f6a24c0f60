import CourierTestSupport
import Foundation
import Testing

/// What a collection may read: `< file` bodies, multipart parts and handler scripts come from its own
/// folder tree; anything else is refused at its line unless `--allow-read` names it, and `/proc`, `/sys`
/// and `/dev` never. Checked through `courier run` and `courier check` against a loopback peer that keeps
/// every byte it receives.
@Suite("What a collection may read", .enabled(if: CourierCLI.isBuilt))
struct CollectionReadAccessTests {
    /// A value only the process environment holds: it must reach no server.
    static let planted = "planted-env-secret-7f3a"

    @Test func theProcessEnvironmentIsNeverSentAsABodyFileEvenWhenAllowed() async throws {
        // Given requests sending /proc/self/environ as a body, a `<@` body and a multipart part
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("read-proc")
        try folder.write("api.http", """
            POST \(server.base)/plain

            < /proc/self/environ

            ###
            POST \(server.base)/substituted

            <@ /proc/self/environ

            ###
            POST \(server.base)/multipart
            Content-Type: multipart/form-data; boundary=B

            --B
            Content-Disposition: form-data; name="f"; filename="e"

            < /proc/self/environ
            --B--
            """)
        // When courier runs them, even with /proc allowed
        let result = try await CourierCLI.run(["run", "api.http", "--allow-read", "/proc"], in: folder.url,
                                              environment: ["PLANTED": Self.planted])
        // Then none went out, each refused at its line, and the planted value reached nothing
        #expect(result.status == 3)
        #expect(server.requests.isEmpty, "\(server.requests.map(\.bodyText))")
        for line in [3, 8, 17] {
            #expect(result.stderr.contains("api.http:\(line): request '"), "line \(line): \(result.stderr)")
        }
        #expect(result.stderr.contains("cannot read /proc/self/environ: a collection never reads files under /proc, "
                                       + "even when allowed"), "\(result.stderr)")
        #expect(!result.stdout.contains(Self.planted) && !result.stderr.contains(Self.planted))
    }

    @Test func aFileOutsideTheCollectionIsRefusedAtItsLineAndSentOnceAllowed() async throws {
        // Given a collection in api/ reading /etc/passwd, a file beside its folder, and a link pointing there
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("read-outside")
        try folder.write("outside.txt", "outside-bytes")
        try folder.write("api/api.http", """
            POST \(server.base)/passwd

            < /etc/passwd

            ###
            POST \(server.base)/parent

            < ../outside.txt

            ###
            POST \(server.base)/link

            < ./link.txt
            """)
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("api/link.txt").path,
                                                   withDestinationPath: "../outside.txt")
        let api = folder.url.appendingPathComponent("api")
        // When courier runs them
        let refused = try await CourierCLI.run(["run", "api.http"], in: api)
        // Then each is refused at its line, saying how to allow it, and nothing was sent
        #expect(refused.status == 3)
        #expect(server.requests.isEmpty)
        #expect(refused.stderr.contains("api.http:3: request 'POST \(server.base)/passwd': cannot read /etc/passwd: it "
                                        + "is outside the collection's folder; pass --allow-read /etc/passwd to send it"),
                "\(refused.stderr)")
        let outside = folder.url.appendingPathComponent("outside.txt").resolvingSymlinksInPath().path
        #expect(refused.stderr.contains("api.http:8: request 'POST \(server.base)/parent': cannot read ../outside.txt"),
                "\(refused.stderr)")
        #expect(refused.stderr.contains("api.http:13: request 'POST \(server.base)/link': cannot read ./link.txt: it is "
                                        + "outside the collection's folder; pass --allow-read \(outside)"),
                "\(refused.stderr)")

        // When the user allows the two files
        let allowed = try await CourierCLI.run(["run", "api.http", "--allow-read", "/etc/passwd",
                                                "--allow-read", "../outside.txt"], in: api)
        // Then all three are sent with the files' bytes
        #expect(allowed.status == 0, "\(allowed.stderr)")
        let bodies = Dictionary(uniqueKeysWithValues: server.requests.map { ($0.path, $0.body) })
        #expect(bodies["/passwd"] == (try Data(contentsOf: URL(fileURLWithPath: "/etc/passwd"))))
        #expect(bodies["/parent"] == Data("outside-bytes".utf8))
        #expect(bodies["/link"] == Data("outside-bytes".utf8))
    }

    @Test func aFolderRunReadsAnywhereUnderTheFolderItWasGiven() async throws {
        // Given a folder whose file in sub/ reads a fixture in a sibling folder
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("read-tree")
        try folder.write("fixtures/body.json", #"{"shared": true}"#)
        try folder.write("sub/api.http", "POST \(server.base)/a\nContent-Type: application/json\n\n< ../fixtures/body.json\n")
        // When the folder runs, and when the file alone runs
        let whole = try await CourierCLI.run(["run", "."], in: folder.url)
        let alone = try await CourierCLI.run(["run", "api.http"], in: folder.url.appendingPathComponent("sub"))
        // Then the folder's tree is the collection's; the file alone has only its own folder
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(server.requests.map(\.bodyText) == [#"{"shared": true}"#])
        #expect(alone.status == 3)
        #expect(alone.stderr.contains("api.http:4: request 'POST \(server.base)/a': cannot read ../fixtures/body.json"),
                "\(alone.stderr)")
    }

    @Test func aHandlerScriptOutsideTheCollectionStopsItsRequestBeforeAnythingIsSent() async throws {
        // Given a request whose response handler is a file above the collection's folder
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("read-script")
        try folder.write("handler.js", "client.global.set('x', '1');")
        try folder.write("api/api.http", "GET \(server.base)/a\n\n> ../handler.js\n")
        // When it runs
        let result = try await CourierCLI.run(["run", "api.http"], in: folder.url.appendingPathComponent("api"))
        // Then it is refused at the handler's line and not sent
        #expect(result.status == 3)
        #expect(server.requests.isEmpty)
        #expect(result.stderr.contains("api.http:3: request 'GET \(server.base)/a': cannot read ../handler.js: it is "
                                       + "outside the collection's folder; pass --allow-read"), "\(result.stderr)")
    }

    @Test func checkReportsAFileOutsideTheCollectionAtItsLineUnlessAllowed() async throws {
        // Given a collection reading /etc/passwd
        let folder = try TemporaryFolder("read-check")
        try folder.write("api.http", "POST http://127.0.0.1:9/a\n\n< /etc/passwd\n")
        // When it is checked, then checked with the file allowed
        let refused = try await CourierCLI.run(["check", "api.http"], in: folder.url)
        let allowed = try await CourierCLI.run(["check", "api.http", "--allow-read", "/etc/passwd"], in: folder.url)
        // Then the first names the line and the option, the second finds no problem
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("api.http:3: request 'POST http://127.0.0.1:9/a': cannot read /etc/passwd: it is "
                                        + "outside the collection's folder; pass --allow-read /etc/passwd to send it"),
                "\(refused.stdout)")
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
    }
}
