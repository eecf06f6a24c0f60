import CourierHTTP
import CourierMessage
import Foundation
import Testing
@testable import CourierCollections

@Suite("curl import and export")
struct CurlImportTests {
    private func convert(_ command: String) throws -> RequestTemplate { try CurlImporter.convert(command).request }

    @Test func aChromeCopyAsCurlCommandImportsAndRunsThroughTheResolver() throws {
        // Given what Chrome's "Copy as cURL (bash)" produces
        let command = """
            curl 'https://api.example.com/v1/items?page=2&q=a+b' \\
              -H 'accept: application/json, text/plain, */*' \\
              -H 'accept-language: en-GB,en;q=0.9' \\
              -b 'session=abc123; theme=dark' \\
              -H 'content-type: application/json' \\
              -H 'user-agent: Mozilla/5.0 (X11; Linux x86_64)' \\
              --data-raw $'{"name":"O\\'Brien","note":"line1\\nline2"}' \\
              --compressed
            """
        // When imported
        let result = try CurlImporter.convert(command, name: "createItem")
        // Then method, URL, headers, cookie and body are kept
        #expect(result.request.method == .post)
        #expect(result.request.url == "https://api.example.com/v1/items?page=2&q=a+b")
        #expect(result.request.headers["Cookie"] == "session=abc123; theme=dark")
        #expect(result.request.headers["content-type"] == "application/json")
        #expect(result.request.body == .text("{\"name\":\"O'Brien\",\"note\":\"line1\nline2\"}"))
        // (`--compressed` is what Courier does anyway: nothing to note)
        #expect(!result.notes.contains { $0.contains("--compressed") })
        // And the .http text parses back to the same request
        let file = HTTPFile(path: "i.http", text: result.httpText)
        #expect(file.requests.count == 1)
        #expect(file.requests[0].sameContent(as: RequestTemplate(
            id: file.requests[0].id, name: "createItem", method: .post, url: result.request.url,
            headers: result.request.headers, body: result.request.body)))
        let resolved = try Resolver(file: file, baseFolder: URL(fileURLWithPath: "/"),
                                    context: VariableContext(processEnvironment: [:])).resolve(file.requests[0])
        #expect(resolved.request.url.query == "page=2&q=a+b")
    }

    @Test func methodFlagInBothFormsAndAttached() throws {
        #expect(try convert("curl -X PUT https://x").method == .put)
        #expect(try convert("curl --request=delete https://x").method == .delete)
        #expect(try convert("curl -XPATCH https://x").method == .patch)
        #expect(try convert("curl -I https://x").method == .head)
    }

    @Test func headersAndUserAgentAndReferer() throws {
        let request = try convert(#"curl https://x -H "X-A: 1" --header 'X-B:2' -A agent/1 -e https://ref -H 'Bad'"#)
        #expect(request.headers == HTTPHeaders([("X-A", "1"), ("X-B", "2"), ("User-Agent", "agent/1"),
                                                ("Referer", "https://ref")]))
    }

    @Test func dataFlagsJoinWithAmpersandAndDefaultToAFormPost() throws {
        let request = try convert("curl https://x -d a=1 --data b=2 --data-ascii c=3")
        #expect(request.method == .post)
        #expect(request.body == .text("a=1&b=2&c=3"))
        #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    @Test func dataBinaryKeepsNewlinesAndDataWithAtReadsAFile() throws {
        #expect(try convert("curl https://x --data-binary $'a\\nb'").body == .text("a\nb"))
        #expect(try convert("curl https://x -d $'a\\nb'").body == .text("ab"))
        #expect(try convert("curl https://x --data-binary @body.json").body == .file(path: "body.json", substituteVariables: false))
        #expect(try convert("curl https://x --data-raw @literal").body == .text("@literal"))
    }

    @Test func dataUrlencodeEncodesValues() throws {
        let request = try convert("curl https://x --data-urlencode 'q=a b&c' --data-urlencode '=x+y' --data-urlencode plain")
        #expect(request.body == .text("q=a%20b%26c&x%2By&plain"))
    }

    @Test func jsonFlagSetsContentTypeAndAccept() throws {
        let request = try convert(#"curl --json '{"a":1}' https://x"#)
        #expect(request.method == .post)
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["Accept"] == "application/json")
    }

    @Test func formFieldsBecomeAMultipartBodyWithFileLines() throws {
        let request = try convert("curl -F name=Ada -F 'photo=@/tmp/me.png;type=image/png' --form-string 'raw=@not-a-file' https://x/upload")
        #expect(request.method == .post)
        #expect(request.headers["Content-Type"] == "multipart/form-data; boundary=CourierFormBoundary")
        guard case .text(let body) = request.body else { Issue.record("expected text"); return }
        #expect(body == """
            --CourierFormBoundary
            Content-Disposition: form-data; name="name"

            Ada
            --CourierFormBoundary
            Content-Disposition: form-data; name="photo"; filename="me.png"
            Content-Type: image/png

            < /tmp/me.png
            --CourierFormBoundary
            Content-Disposition: form-data; name="raw"

            @not-a-file
            --CourierFormBoundary--
            """)
    }

    @Test func userBecomesBasicAuthorization() throws {
        #expect(try convert("curl -u ada:s3cret https://x").headers["Authorization"] == "Basic YWRhOnMzY3JldA==")
    }

    @Test func cookieStringBecomesAHeaderButACookieFileIsNoted() throws {
        #expect(try convert("curl --cookie 'a=b' https://x").headers["Cookie"] == "a=b")
        let file = try CurlImporter.convert("curl -b cookies.txt https://x")
        #expect(file.request.headers["Cookie"] == nil)
        #expect(file.notes == ["cookie file 'cookies.txt' not imported"])
    }

    @Test func urlFlagGetFlagAndInsecure() throws {
        let request = try convert("curl -G --url https://x/search -d q=swift -d page=2 -k -sSL")
        #expect(request.method == .get)
        #expect(request.url == "https://x/search?q=swift&page=2")
        #expect(request.body == .none)
        #expect(request.tags["insecure"] == "")
        let resolved = try Resolver(file: HTTPFile(path: "", text: ""), baseFolder: URL(fileURLWithPath: "/"),
                                    context: VariableContext(processEnvironment: [:])).resolve(request)
        #expect(resolved.request.insecure)
    }

    @Test func maxTimeBecomesATimeoutTagAndUnknownOptionsAreNoted() throws {
        let result = try CurlImporter.convert("curl --max-time 7 --frobnicate -o out.json https://x")
        #expect(result.request.tags["timeout"] == "7")
        #expect(result.notes == ["option --frobnicate ignored"])
    }

    @Test func quotingAndContinuationsFollowTheShell() throws {
        let words = try ShellWords.split("curl \\\n 'a b' \"c \\\"d\\\" $x\" e\\ f $'g\\th\\x41\\u00e9' ''").get()
        #expect(words == ["curl", "a b", "c \"d\" $x", "e f", "g\thAé", ""])
        #expect(throws: ShellWords.Failure.self) { try ShellWords.split("curl 'open").get() }
        #expect(throws: CollectionError.self) { try convert("curl -H") }
        #expect(throws: CollectionError.self) { try convert("curl -X GET") }
    }

    @Test func quotingRoundTripsWordsWithCarriageReturnsQuotesAndUnicode() throws {
        // A carriage return inside quotes is data (the curl fuzzer found it being dropped)
        // A quote followed by a combining mark is one Character; it must still be escaped (found by the fuzzer)
        for word in ["a\rb", "x\r\ny", "it's", "\"q\" $HOME `c`", "日本 🚀", "", "-", "\\", "a\tb\nc", "'\u{0362}"] {
            #expect(try ShellWords.split(ShellWords.quote(word)).get() == [word], "\(word.debugDescription)")
        }
        let crash = "'https://x/a?b=1' -H 'accept: */*' --da&aw $'{\"a\":\"b\\rn\"}' --compressed -F f=@x.png -u-k"
        #expect(try ShellWords.split(crash).get()[4] == "{\"a\":\"b\rn\"}")
    }

    @Test func windowsLineEndingsInAPastedCommandAreContinuations() throws {
        #expect(try convert("curl https://x \\\r\n  -H 'A: 1'").headers["A"] == "1")
    }

    // MARK: - Export

    @Test func exportQuotesForTheShellAndRedactsSecretsUnlessAsked() throws {
        // Given a request using a secret from the private environment
        let environment = Environment(name: "dev", values: ["token": VariableValue("tok'en", isSecret: true)])
        let file = HTTPFile(path: "e.http", text: """
            # @name create
            POST https://x/items?q={{token}}
            Authorization: Bearer {{token}}
            X-Note: it's here

            {"owner": "O'Brien", "key": "{{token}}"}
            """)
        let resolved = try Resolver(file: file, baseFolder: URL(fileURLWithPath: "/"),
                                    context: VariableContext(environment: environment, processEnvironment: [:]))
            .resolve(file.requests[0])
        // When exported
        let redacted = CurlExporter.command(for: resolved)
        let shown = CurlExporter.command(for: resolved, showSecrets: true)
        // Then secrets are hidden, and the shown command splits back into the exact values
        #expect(!redacted.contains("tok"))
        #expect(redacted.contains("'Authorization: Bearer REDACTED'"))
        let words = try ShellWords.split(shown).get()
        #expect(words.contains("Authorization: Bearer tok'en"))
        #expect(words.contains("X-Note: it's here"))
        #expect(words.contains("{\"owner\": \"O'Brien\", \"key\": \"tok'en\"}"))
        // And importing the shown command gives the same request back
        let back = try CurlImporter.convert(shown).request
        #expect(back.method == .post)
        #expect(back.headers["Authorization"] == "Bearer tok'en")
        #expect(back.url == resolved.request.url.absoluteString)
    }

    @Test func exportOfControlCharactersAndBinaryUsesAnsiCQuoting() throws {
        #expect(CurlExporter.quoteBody("a\u{1B}b'") == "$'a\\x1bb\\''")
        #expect(CurlExporter.quoteBytes(Data([0x41, 0xFF, 0x27])) == "$'A\\xff\\''")
        #expect(try ShellWords.split("x $'a\\x1bb\\''").get() == ["x", "a\u{1B}b'"])
    }
}

extension CurlImport {
    /// The request as `courier import curl` prints it (a body needing a side file prints nothing).
    var httpText: String { ImportWriter.block(imported, sideFileStem: "curl", isTaken: { _ in false }).text ?? "" }
}
