import CourierHTTP
import Foundation
import Testing
@testable import CourierCollections

/// Parser rows of the Compatibility matrix: pasted curl commands, response redirects, timeout units.
@Suite("Compatibility: parsing")
struct CompatibilityParserTests {
    @Test func aPastedCurlCommandIsARequestWithItsNameTagsAndHandler() throws {
        // Given a named curl command spread over lines, with a tag above and a handler and redirect below
        let file = HTTPFile(path: "c.http", text: """
            ### list
            # @timeout 9
            curl -m 3 'https://api.example.com/items?page={{page}}' \\
              -H 'Accept: application/json' \\
              -X PATCH --data-raw '{"a": 1}'

            > {% client.global.set("n", "1") %}
            >>! ./out.json

            ###
            GET https://api.example.com/next
            """)
        // Then it is read as the request curl would send, and the file's other requests are untouched
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        try #require(file.requests.count == 2)
        let curl = file.requests[0]
        #expect(curl.name == "list")
        #expect(curl.method == HTTPMethod("PATCH"))
        #expect(curl.url == "https://api.example.com/items?page={{page}}")
        #expect(curl.headers["Accept"] == "application/json")
        #expect(curl.body == .text(#"{"a": 1}"#))
        #expect(curl.tags["timeout"] == "9", "a tag written in the file wins over -m")
        #expect(curl.scripts.map(\.phase) == [.response])
        #expect(curl.responseRedirects.map(\.path) == ["./out.json"])
        #expect(curl.responseRedirects.map(\.replaces) == [true])
        #expect(file.requests[1].url == "https://api.example.com/next")
    }

    @Test func aBrokenCurlCommandIsReportedAtItsLineAndTheRestLoads() {
        let file = HTTPFile(path: "c.http", text: "curl 'https://x/1\n\n###\nGET https://x/2\n")
        #expect(file.requests.map(\.url) == ["https://x/2"])
        #expect(file.diagnostics.map(\.line) == [1])
        #expect(file.diagnostics.first?.message.hasPrefix("curl command: ") == true, "\(file.diagnostics)")
    }

    @Test func aWordStartingWithCurlIsStillAURL() {
        let file = HTTPFile(path: "c.http", text: "GET https://curl.se/docs\n###\ncurly.example.com/a\n")
        #expect(file.requests.map(\.url) == ["https://curl.se/docs", "curly.example.com/a"])
    }

    @Test func timeoutsTakeTheJetBrainsUnits() {
        #expect(RequestOptions.seconds("30") == 30)
        #expect(RequestOptions.seconds("30 s") == 30)
        #expect(RequestOptions.seconds("500 ms") == 0.5)
        #expect(RequestOptions.seconds("500ms") == 0.5)
        #expect(RequestOptions.seconds("2 m") == 120)
        #expect(RequestOptions.seconds("2 h") == nil)
        #expect(RequestOptions.seconds("soon") == nil)
        #expect(RequestOptions(tags: ["timeout": "2 m"]).timeout == 120)
    }

    @Test func aRedirectThatDoubleArrowFindsTakenGetsTheNextFreeNumber() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("redirect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let redirect = try #require(ResponseRedirect(directive: UnsupportedDirective(text: ">> out", line: 3)))
        let written = try (0..<3).map { _ in
            try redirect.save(.data(Data("x".utf8)), expandedPath: "out", folder: folder).lastPathComponent
        }
        #expect(written == ["out", "out-1", "out-2"])
        #expect(ResponseRedirect(directive: UnsupportedDirective(text: ">>", line: 1)) == nil)
    }

    @Test func vsCodeSettingsLoseTheirCommentsAndTrailingCommasButNotTextInStrings() throws {
        let text = #"{ "a": "// not a comment, /* nor this */", // gone\#n "b": [1, 2, ], /* gone */ "c": {"d": "e",}, }"#
        let strict = VSCodeSettings.strict(Data(text.utf8))
        let object = try #require(try JSONSerialization.jsonObject(with: strict) as? [String: Any])
        #expect(object["a"] as? String == "// not a comment, /* nor this */")
        #expect((object["b"] as? [Int]) == [1, 2])
        #expect((object["c"] as? [String: String]) == ["d": "e"])
    }
}

extension CompatibilityParserTests {
    @Test func importLinesAreTheFilesAndRunLinesMakeABlockThatRunsWhatTheyName() {
        let file = HTTPFile(path: "r.http", text: """
            import ./auth.http

            ### both
            run #login (@user=ada, @role = admin)
            # a note
            run ../setup/all.http

            ###
            GET https://x/me
            """)
        #expect(file.diagnostics.isEmpty)
        #expect(file.imports == [FileImport(path: "./auth.http", line: 1)])
        try? #require(file.requests.count == 2)
        let block = file.requests[0]
        #expect(block.isRunBlock && block.name == "both")
        #expect(block.runs == [
            RunDirective(target: .request("login"), overrides: [VariableDefinition(name: "user", value: "ada"),
                                                                VariableDefinition(name: "role", value: "admin")],
                         line: 4),
            RunDirective(target: .file("../setup/all.http"), line: 6),
        ])
        #expect(block.runs.map(\.line) == [4, 6])
        #expect(!file.requests[1].isRunBlock && file.requests[1].url == "https://x/me")
    }

    @Test func runLinesAboveARequestRunBeforeItAndAMalformedOneIsAnErrorAtItsLine() {
        // kulala.nvim: `run #name` above a request line runs that request first.
        let file = HTTPFile(path: "r.http", text: "### me\nrun #login\nGET https://x/me\n\n###\nrun #a (@broken)\n")
        #expect(file.requests.map(\.name) == ["me"])
        #expect(file.requests.first?.isRunBlock == false)
        #expect(file.requests.first?.runsBefore == [RunDirective(target: .request("login"), line: 2)])
        #expect(file.diagnostics.map(\.line) == [6])
        #expect(file.diagnostics.first?.message.contains("expected 'run #name'") == true)
    }

    @Test func aRunBlockWithAnythingButRunLinesAfterItsRunLinesIsAnErrorAtThatLine() {
        let file = HTTPFile(path: "r.http", text: "run #login\n# @timeout 5\nnot a request line\nrun #other\n")
        #expect(file.requests.isEmpty, "\(file.requests)")
        #expect(file.diagnostics.map(\.line) == [3], "\(file.diagnostics)")
        #expect(file.diagnostics.first?.message.contains("holds only 'run' lines") == true)
    }

    @Test func aRequestNamedInARunLineMayHoldSpaces() {
        let directive = RunDirective.parse("run #Request 1 (@host=example.com)", line: 3)
        #expect(directive?.target == .request("Request 1"))
        #expect(directive?.overrides.first?.value == "example.com")
        #expect(directive?.text == "run #Request 1 (@host=example.com)")
    }
}

extension CompatibilityParserTests {
    @Test func theVersionAfterAURLOnSeveralLinesEndsTheURL() throws {
        let file = HTTPFile(path: "v.http", text: "GET https://x/search\n    ?q=swift\n    &page=2 HTTP/1.1\nAccept: */*\n")
        let request = try #require(file.requests.first)
        #expect(request.url == "https://x/search?q=swift&page=2")
        #expect(request.httpVersion == "HTTP/1.1")
        #expect(request.headers["Accept"] == "*/*")
    }
}

extension CompatibilityParserTests {
    @Test func httpyacTestLinesAreHandlersAndAnUnknownOneIsReportedAtItsLine() throws {
        let file = HTTPFile(path: "y.http", text: "GET https://x/a\n?? status == 200\n\n###\nGET https://x/b\n\n?? size < 3\n")
        // httpyac sends a request whose test it cannot read (the test fails): so does Courier, with a warning.
        #expect(file.requests.map(\.url) == ["https://x/a", "https://x/b"])
        #expect(file.requests.first?.scripts.map(\.line) == [2])
        #expect(file.requests.last?.scripts.map(\.line) == [7])
        #expect(file.diagnostics.map(\.line) == [7])
        #expect(file.diagnostics.map(\.severity) == [.warning])
        #expect(file.diagnostics.first?.message.contains("use one of status, duration, header, body, xpath, js") == true)
        let header = try HttpyacAssertion.parse("?? header content-type includes json").get()
        #expect(header.subject == "content-type" && header.condition == "includes" && header.expected == "json")
        let js = try HttpyacAssertion.parse("?? js response.parsedBody.a.length > 2").get()
        #expect(js.subject == "response.parsedBody.a.length" && js.condition == ">" && js.expected == "2")
    }
}

extension CompatibilityParserTests {
    @Test func editingAPastedCurlRequestWritesItInTheFileSyntaxAndKeepsItsTail() throws {
        // Given a curl command with a redirect after it
        let file = HTTPFile(path: "e.http", text: "curl -X PUT https://x/a -H 'A: 1' -d 'v=1'\n\n>>! ./out.json\n")
        var edited = try #require(file.requests.first)
        edited.headers["B"] = "2"
        // When a header is added and the request saved
        let text = try file.replacing(request: file.requests[0], with: edited)
        let reread = HTTPFile(path: "e.http", text: text)
        // Then the file holds the same request, in the .http syntax, and the redirect still follows it
        #expect(reread.diagnostics.isEmpty, "\(text)")
        let request = try #require(reread.requests.first, "\(text)")
        #expect(request.method == HTTPMethod("PUT") && request.url == "https://x/a")
        #expect(request.headers["A"] == "1" && request.headers["B"] == "2", "\(text)")
        #expect(request.body == .text("v=1"), "\(text)")
        #expect(request.responseRedirects.map(\.path) == ["./out.json"], "\(text)")
    }
}

extension CompatibilityParserTests {
    @Test func aRedirectOutsideTheFilesFolderAndTheCurrentFolderIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("redirect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("api"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = folder.appendingPathComponent("api")
        let escape = try #require(ResponseRedirect(directive: UnsupportedDirective(text: ">>! ../../escaped", line: 1)))
        #expect(throws: CollectionError.self) {
            try escape.save(.data(Data("x".utf8)), expandedPath: "../../escaped", folder: base)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().appendingPathComponent("escaped").path))
        let inside = try escape.save(.data(Data("x".utf8)), expandedPath: "./out/deep/x.json", folder: base)
        #expect(inside.path.hasSuffix("api/out/deep/x.json"))
    }
}

extension CompatibilityParserTests {
    @Test func aCurlCommandEndingInABackslashOrFollowedByAHandlerStillParses() throws {
        let file = HTTPFile(path: "b.http", text: """
            curl https://x/a \\
              -H 'A: 1' \\

            ###
            curl https://x/b
            > {% client.log("b") %}
            """)
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        #expect(file.requests.map(\.url) == ["https://x/a", "https://x/b"])
        #expect(file.requests.first?.headers["A"] == "1")
        #expect(file.requests.last?.scripts.count == 1)
    }
}

extension CompatibilityParserTests {
    @Test func http2PriorKnowledgeAfterTheURLIsReadAsTheVersion() throws {
        let file = HTTPFile(path: "h.http", text: "GET http://x/a HTTP/2 (Prior Knowledge)\n")
        let request = try #require(file.requests.first)
        #expect(request.url == "http://x/a")
        #expect(request.httpVersion == "HTTP/2")
    }
}

extension CompatibilityParserTests {
    @Test func anEncodingAfterTheAtSignNamesHowTheBodyFileIsReadAndAnUnknownOneIsAnError() {
        let file = HTTPFile(path: "e.http", text: """
            POST https://x/a

            <@latin1 ./demo.xml

            ###
            POST https://x/b

            <@Windows-1252 ./{{name}}.xml

            ###
            POST https://x/c

            <@ebcdic ./demo.xml
            """)
        #expect(file.requests.map(\.body) == [.encodedFile(path: "./demo.xml", encoding: "latin1"),
                                              .encodedFile(path: "./{{name}}.xml", encoding: "Windows-1252")])
        #expect(file.diagnostics.map(\.line) == [13])
        #expect(file.diagnostics.first?.message.hasPrefix("unknown encoding 'ebcdic' in '<@ebcdic'; known: utf8") == true)
        #expect(BodyEncoding.encoding(named: "ISO-8859-1") == .isoLatin1)
        #expect(BodyEncoding.encoding(named: "utf_16le") == .utf16LittleEndian)
        // Written back as read, so saving an edited request keeps the encoding.
        #expect(file.requests[0].body.fileReferenceLine == "<@latin1 ./demo.xml")
    }
}
