import CourierTestSupport
import CourierSecurity
import Foundation
import Testing

/// Text a server or a `.http` file supplies reaches the terminal escaped on every path of the command
/// line: `courier send -v` headers, `courier run` request names, unknown variables and malformed lines.
@Suite(.enabled(if: CourierCLI.isBuilt, "the courier binary is not built"))
struct HostileCLITextTests {
    static let escape = "\u{1B}]0;pwned\u{07}\u{1B}]52;c;aGk=\u{07}\u{9B}2J\u{202E}"

    /// The first scalar a terminal would act on in any of the texts, or nil.
    static func firstDangerous(_ texts: String...) -> String? {
        for text in texts {
            if let scalar = text.unicodeScalars.first(where: { Sanitizer.isDangerous($0) }) {
                return String(format: "U+%04X", scalar.value)
            }
        }
        return nil
    }

    @Test("courier send -v prints a hostile header of the server escaped")
    func verboseHeadersAreEscaped() async throws {
        // Given a server whose Content-Type (a header -v prints) carries escapes
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply(status: 200, headers: [("Content-Type", "text/plain\(Self.escape)")], body: Data("ok".utf8))
        }
        defer { server.stop() }

        // When courier sends with -v, as text and as JSON
        let text = try await CourierCLI.run(["send", "-v", server.url("/h").absoluteString])
        let json = try await CourierCLI.run(["send", "-v", "--json", server.url("/h").absoluteString])

        // Then nothing printed carries a control byte
        #expect(text.status == 0)
        #expect(text.stderr.contains("Content-Type"), "\(text.stderr)")
        #expect(Self.firstDangerous(text.stdout, text.stderr, json.stdout, json.stderr) == nil)
    }

    @Test("courier run prints hostile request names, unknown variables and malformed lines escaped")
    func runEscapesFileText() async throws {
        // Given a .http file whose name, variable and a malformed line carry escapes
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let named = folder.appendingPathComponent("named.http")
        try """
        ### Named
        # @name ok\(Self.escape)
        GET \(server.url("/a"))

        ### Unknown
        # @name unknown
        GET \(server.url("/b"))?q={{missing\(Self.escape)}}

        """.write(to: named, atomically: true, encoding: .utf8)
        let malformed = folder.appendingPathComponent("malformed.http")
        try "### Bad\n# @name bad\nGET \(server.url("/c"))\nnot a header \(Self.escape)\n\n{\"a\":1}\n"
            .write(to: malformed, atomically: true, encoding: .utf8)

        // When courier runs them, as text and as JSON
        var outputs: [String] = []
        for file in [named, malformed] {
            for flags in [[], ["--json"]] {
                let result = try await CourierCLI.run(["run", file.path] + flags)
                outputs += [result.stdout, result.stderr]
            }
        }

        // Then the names and errors were printed, escaped
        #expect(outputs.joined().contains("missing"), "\(outputs)")
        for output in outputs { #expect(Self.firstDangerous(output) == nil, "\(output)") }
    }

    @Test("a JUnit report writes C1 and bidi controls of names and messages as escapes, as the text output does")
    func junitReportEscapesControls() async throws {
        // Given a request whose name, test name and assertion message carry CSI (U+009B) and a bidi override
        let server = try LoopbackServer { _ in .json("{}") }
        defer { server.stop() }
        let folder = try TemporaryFolder("hostile-junit")
        let file = try folder.write("t.http", """
            # @name report\u{9B}2J\u{202E}name
            GET \(server.url("/t"))

            > {%
                client.test("test\\u009b2J\\u202e", function () { client.assert(false, "message\\u009b2J\\u202e"); });
            %}
            """)
        let report = folder.url.appendingPathComponent("report.xml")

        // When courier runs it with a JUnit report
        let run = try await CourierCLI.run(["run", file.path, "--report", "junit", report.path])

        // Then the report holds every name and message, with the controls written as escapes, like the text output
        #expect(run.status == 1, "\(run.stderr)")
        let xml = try String(contentsOf: report, encoding: .utf8)
        #expect(Self.firstDangerous(xml) == nil, "\(xml)")
        #expect(xml.contains(#"name="report\x9B2J\u202Ename""#), "\(xml)")
        #expect(xml.contains(#"test\x9B2J\u202E""#) && xml.contains(#"message="message\x9B2J\u202E""#), "\(xml)")
        #expect(Self.firstDangerous(run.stdout, run.stderr) == nil, "\(run.stdout)")
        #expect(run.stdout.contains("message\\x9B2J\\u202E"), "\(run.stdout)")
    }
}
