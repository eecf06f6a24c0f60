import CourierTestSupport
import Foundation
import Testing

/// The rows of Collections/README.md's Compatibility matrix marked supported, each run through `courier run`
/// against a loopback server: what the server received, or what courier printed and wrote. Environments and
/// variables are in `CompatibilityEnvironmentTests`, timeouts and redirects in `CompatibilityTransportTests`.
@Suite("Compatibility matrix on the wire")
struct CompatibilityMatrixTests {
    /// Runs `text` as `api.http` in `folder` (with `extra` files beside it; `BASE` is the server's origin).
    static func run(_ text: String, in folder: TemporaryFolder, server: CaptureServer, extra: [String: String] = [:],
                    arguments: [String] = ["--all"], environment: [String: String] = [:]) async throws -> ChildResult {
        try folder.write("api.http", text.replacingOccurrences(of: "BASE", with: server.base))
        for (path, content) in extra {
            try folder.write(path, content.replacingOccurrences(of: "BASE", with: server.base))
        }
        return try await CourierCLI.run(["run", "api.http"] + arguments, in: folder.url, environment: environment)
    }

    @Test func responseRedirectsSaveTheBodyBesideTheFileNumberedByDoubleArrowAndReplacedByBang() async throws {
        // Given a request saving its body with `>>` and one replacing with `>>!`
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let text = """
            @out = saved
            GET BASE/one

            >> ./{{out}}/one.json

            ###
            GET BASE/two

            >>! ./{{out}}/two.json
            """
        // When it runs twice
        let first = try await Self.run(text, in: folder, server: server)
        let second = try await Self.run(text, in: folder, server: server)
        // Then `>>` kept the first file and wrote a numbered one; `>>!` replaced its file
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)\(second.stderr)")
        #expect(first.stdout.contains("saved: ./saved/one.json"), "\(first.stdout)")
        #expect(second.stdout.contains("saved: ./saved/one-1.json"), "\(second.stdout)")
        #expect(try folder.read("saved/one.json") == #"{"token":"t0k"}"#)
        #expect(try folder.read("saved/one-1.json") == #"{"token":"t0k"}"#)
        #expect(try folder.read("saved/two.json") == #"{"token":"t0k"}"#)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.appendingPathComponent("saved").path)
        #expect(names.sorted() == ["one-1.json", "one.json", "two.json"], "no temporary file is left: \(names)")
        #expect(!first.stderr.contains("warning"), "\(first.stderr)")
        let json = try await Self.run(text, in: folder, server: server, arguments: ["--all", "--json"])
        #expect(json.stdout.contains(#""saved":["./saved/one-2.json"]"#), "\(json.stdout)")
    }

    @Test func aCurlCommandPastedAsARequestSendsWhatCurlWouldWithVariablesAndAHandler() async throws {
        // Given REST Client style pasted curl commands, one on several lines, one on one line
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await Self.run("""
            @id = 42
            ### create
            curl -X POST 'BASE/items?id={{id}}' \\
              -H 'Content-Type: application/json' \\
              -H "X-Trace: {{$random.hexadecimal(6)}}" \\
              --data-raw '{"name": "ada"}'

            > {% client.global.set("made", response.body.token) %}

            ###
            # @name form
            curl BASE/form -u ada:lovelace -d 'a=1' -d 'b={{made}}'
            """, in: folder, server: server)
        // Then the server got the method, URL, headers and body the commands say
        #expect(result.status == 0, "\(result.stderr)")
        let received = server.requests
        try #require(received.count == 2)
        #expect(received[0].requestLine == "POST /items?id=42 HTTP/1.1")
        #expect(received[0].header("Content-Type") == "application/json")
        #expect(received[0].header("X-Trace")?.count == 6)
        #expect(received[0].bodyText == #"{"name": "ada"}"#)
        #expect(received[1].method == "POST")
        #expect(received[1].header("Authorization") == "Basic " + Data("ada:lovelace".utf8).base64EncodedString())
        #expect(received[1].header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(received[1].bodyText == "a=1&b=t0k")
        #expect(result.stdout.contains("### create") && result.stdout.contains("### form"), "\(result.stdout)")
    }

    @Test func bodyFilesRawAndSubstitutedAndMultipartFilePartsGoOutAsBytes() async throws {
        // Given `< file`, `<@ file` and a multipart body embedding a file
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await Self.run("""
            @who = ada
            POST BASE/raw
            Content-Type: text/plain

            < ./body.txt

            ###
            POST BASE/substituted
            Content-Type: text/plain

            <@ ./body.txt

            ###
            POST BASE/upload
            Content-Type: multipart/form-data; boundary=XYZ

            --XYZ
            Content-Disposition: form-data; name="note"

            hi {{who}}
            --XYZ
            Content-Disposition: form-data; name="file"; filename="body.txt"
            Content-Type: text/plain

            < ./body.txt
            --XYZ
            Content-Disposition: form-data; name="filled"

            <@ ./body.txt
            --XYZ--

            ###
            @fixture = body
            POST BASE/named
            Content-Type: text/plain

            <@ ./{{fixture}}.txt
            """, in: folder, server: server, extra: ["body.txt": "hello {{who}}"])
        // Then the raw file is sent as is, the substituted one expanded, the multipart body with CRLF
        #expect(result.status == 0, "\(result.stderr)")
        let received = server.requests
        try #require(received.count == 4)
        #expect(received[0].bodyText == "hello {{who}}")
        #expect(received[1].bodyText == "hello ada")
        #expect(received[2].bodyText == "--XYZ\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi ada\r\n"
                + "--XYZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"body.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\nhello {{who}}\r\n"
                + "--XYZ\r\nContent-Disposition: form-data; name=\"filled\"\r\n\r\nhello ada\r\n--XYZ--")
        #expect(received[3].bodyText == "hello ada", "a body file's path may hold variables")
    }

    @Test func urlsOnSeveralLinesCommentsAndVersionsAreReadAsTheToolsReadThem() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await Self.run("""
            // a REST Client comment
            # a JetBrains comment
            GET BASE/search
                ?q=swift
                &page=2 HTTP/1.1
            Accept: application/json
            // a comment among the headers
            X-After: yes

            ###
            BASE/no-method
            """, in: folder, server: server)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.last?.requestLine == "GET /no-method HTTP/1.1")
        let request = try #require(server.requests.first)
        #expect(request.requestLine == "GET /search?q=swift&page=2 HTTP/1.1")
        #expect(request.header("Accept") == "application/json")
        #expect(request.header("X-After") == "yes")
    }

    @Test func aResponseHeaderOfANamedRequestAndScriptRequestVariablesReachTheNextRequest() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await Self.run("""
            # @name login
            POST BASE/login

            ###
            < {%
                request.variables.set("sent", "v-" + request.variables.get("local"));
            %}
            @local = one
            GET BASE/next?type={{login.response.headers.Content-Type}}
            X-Sent: {{sent}}

            > {%
                client.global.set("before", "yes");
                client.exit();
                client.global.set("after", "no");
            %}

            ###
            GET BASE/last?before={{before}}
            """, in: folder, server: server)
        #expect(result.status == 0, "\(result.stderr)")
        let received = server.requests
        try #require(received.count == 3)
        #expect(received[1].target == "/next?type=application%2Fjson", "\(received[1].target)")
        #expect(received[1].header("X-Sent") == "v-one")
        #expect(received[2].target == "/last?before=yes")
    }

    @Test func httpyacTestLinesRunAsTestsAndAFailedOneFailsTheRun() async throws {
        // Given httpyac `??` lines, right under a request line and after a blank line
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await Self.run("""
            GET BASE/yac?page=1
            ?? status == 200
            ?? header content-type includes json
            ?? js response.parsedBody.token == t0k
            ?? body startsWith {"token"
            ?? status isNumber

            ###
            POST BASE/yac-fail
            Content-Type: text/plain

            hello

            ?? status == 201
            """, in: folder, server: server)
        // Then nothing of them went on the wire, the first request's tests pass and the second's fails
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let received = server.requests
        try #require(received.count == 2)
        #expect(received[0].target == "/yac?page=1")
        #expect(received[1].bodyText == "hello")
        for name in ["status == 200", "header content-type includes json", "js response.parsedBody.token == t0k",
                     #"body startsWith {"token""#, "status isNumber"] {
            #expect(result.stdout.contains("✓ " + name), "\(name): \(result.stdout)")
        }
        #expect(result.stdout.contains("✗ status == 201: status 200"), "\(result.stdout)")
    }

    @Test func theJetBrainsScriptAPIReadsTheRequestAndTheResponseAndAWholeBodyIsReused() async throws {
        // Given a handler reading what was sent and received, and a request reusing the whole first body
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await Self.run("""
            # @name = first
            POST BASE/first?q={{word}}
            X-Kind: {{word}}
            Content-Type: text/plain

            say {{word}}

            > {%
                client.log("url " + request.url.tryGetSubstituted());
                client.log("kind " + request.headers.findByName("X-Kind").tryGetSubstitutedValue());
                client.log("body " + request.body.tryGetSubstituted());
                client.log("type " + response.contentType.mimeType + " " + response.headers.valueOf("content-length"));
                client.log("hmac " + crypto.hmac.sha256().withTextSecret("k").updateWithText("m").digest().toHex());
                client.test("token", () => client.assert(response.body.token === "t0k", "token"));
            %}

            ###
            POST BASE/second
            Content-Type: application/json

            {{first.response.body.*}}
            """, in: folder, server: server, arguments: ["--all", "--var", "word=hi"])
        #expect(result.status == 0, "\(result.stderr)")
        for line in ["log: url \(server.base)/first?q=hi", "log: kind hi", "log: body say hi",
                     "log: type application/json 15", "✓ token",
                     "log: hmac b60090e3052297aeb5a080889ce2fc4bca957e756faeb4df7d31800ca1e771ec"] {
            #expect(result.stdout.contains(line), "\(line): \(result.stdout)")
        }
        #expect(server.requests.last?.bodyText == #"{"token":"t0k"}"#)
    }
}
