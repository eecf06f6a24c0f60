import CourierTestSupport
import Foundation
import Testing

/// The rows of Collections/README.md's Compatibility matrix marked supported, each run through `courier run`
/// against a loopback server: what the server received, or what courier printed and wrote.
@Suite("Compatibility matrix on the wire")
struct CompatibilityMatrixTests {
    /// Runs `text` as `api.http` in `folder` (with `extra` files beside it; `BASE` is the server's origin).
    private func run(_ text: String, in folder: TemporaryFolder, server: CaptureServer, extra: [String: String] = [:],
                     arguments: [String] = ["--all"], environment: [String: String] = [:]) async throws -> ChildResult {
        try folder.write("api.http", text.replacingOccurrences(of: "BASE", with: server.base))
        for (path, content) in extra { try folder.write(path, content.replacingOccurrences(of: "BASE", with: server.base)) }
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
        let first = try await run(text, in: folder, server: server)
        let second = try await run(text, in: folder, server: server)
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
        let json = try await run(text, in: folder, server: server, arguments: ["--all", "--json"])
        #expect(json.stdout.contains(#""saved":["./saved/one-2.json"]"#), "\(json.stdout)")
    }

    @Test func aCurlCommandPastedAsARequestSendsWhatCurlWouldWithVariablesAndAHandler() async throws {
        // Given REST Client style pasted curl commands, one on several lines, one on one line
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await run("""
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
        let result = try await run("""
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
        let result = try await run("""
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

    @Test func sharedAndPrivateEnvironmentsMergeAndPrivateValuesArePrintedRedacted() async throws {
        let server = try CaptureServer(issuing: "fresh")
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await run("""
            GET {{host}}/env?user={{user}}
            X-Key: {{key}}
            X-Region: {{region}}
            """, in: folder, server: server, extra: [
                "http-client.env.json": #"{"$shared": {"user": "ada", "region": "eu"}, "dev": {"host": "BASE", "region": "us"}}"#,
                "http-client.private.env.json": #"{"dev": {"key": "s3cr3t-value"}}"#,
            ], arguments: ["--all", "--env", "dev"])
        #expect(result.status == 0, "\(result.stderr)")
        let request = try #require(server.requests.first)
        #expect(request.target == "/env?user=ada")
        #expect(request.header("X-Key") == "s3cr3t-value")
        #expect(request.header("X-Region") == "us", "a named environment beats $shared")
        // The server echoes the headers back; the private value never reaches the output.
        #expect(!result.stdout.contains("s3cr3t-value") && result.stdout.contains("REDACTED"), "\(result.stdout)")
    }

    @Test func restClientEnvironmentsInVSCodeSettingsWorkWithCommentsTrailingCommasAndSharedReferences() async throws {
        // Given a REST Client workspace: environments in .vscode/settings.json, JSON with comments
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let settings = """
            {
                // editor settings Courier ignores
                "editor.tabSize": 4,
                /* the REST Client's environments */
                "rest-client.environmentVariables": {
                    "$shared": { "version": "v1", "token": "shared-token", },
                    "local": { "host": "BASE", "version": "v2", "auth": "Bearer {{$shared token}}", },
                },
            }
            """
        let result = try await run("""
            GET {{host}}/{{version}}/me
            Authorization: {{auth}}
            """, in: folder, server: server, extra: [".vscode/settings.json": settings],
            arguments: ["--all", "--env", "local"])
        // Then the named environment beats $shared and a {{$shared name}} reference takes the shared value
        #expect(result.status == 0, "\(result.stderr)")
        let request = try #require(server.requests.first)
        #expect(request.target == "/v2/me")
        #expect(request.header("Authorization") == "Bearer shared-token")
    }

    @Test func restClientDateTimeRandomAndProcessEnvironmentVariablesExpand() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await run("""
            GET BASE/dyn
            X-Guid: {{$guid}}
            X-Iso: {{$datetime iso8601}}
            X-Hour-Later: {{$datetime iso8601 1 h}}
            X-Local: {{$localDatetime "YYYY"}}
            X-Rfc: {{$datetime rfc1123}}
            X-Int: {{$randomInt 7 8}}
            X-Iso-Timestamp: {{$isoTimestamp}}
            X-Uuid: {{$random.uuid}}
            X-Env: {{$processEnv COURIER_MATRIX_VALUE}}
            X-Jb-Env: {{$env.COURIER_MATRIX_VALUE}}
            """, in: folder, server: server, environment: ["COURIER_MATRIX_VALUE": "from-env"])
        #expect(result.status == 0, "\(result.stderr)")
        let request = try #require(server.requests.first)
        #expect(UUID(uuidString: request.header("X-Guid") ?? "") != nil)
        #expect(UUID(uuidString: request.header("X-Uuid") ?? "") != nil)
        let iso = ISO8601DateFormatter()
        iso.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        func date(_ text: String?) -> Date? { text.flatMap { iso.date(from: $0) ?? plain.date(from: $0) } }
        let now = try #require(date(request.header("X-Iso")), "\(request.headerLines)")
        let later = try #require(date(request.header("X-Hour-Later")))
        #expect(abs(later.timeIntervalSince(now) - 3600) < 2)
        #expect(date(request.header("X-Iso-Timestamp")) != nil)
        #expect(request.header("X-Local")?.count == 4)
        #expect(request.header("X-Rfc")?.hasSuffix("GMT") == true)
        #expect(request.header("X-Int") == "7")
        #expect(request.header("X-Env") == "from-env")
        #expect(request.header("X-Jb-Env") == "from-env")
        #expect(!result.stdout.contains("from-env"), "process environment values are secrets")
    }

    @Test func aResponseHeaderOfANamedRequestAndScriptRequestVariablesReachTheNextRequest() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await run("""
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
        let result = try await run("""
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

    @Test func aTimeoutWrittenWithAUnitStopsARequestTheServerNeverAnswers() async throws {
        // Given a server that answers after a minute and a request allowing it 300 ms, in JetBrains' spelling
        let server = try LoopbackServer { _ in LoopbackServer.Reply(status: 200, delay: .seconds(60)) }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            # @timeout 300 ms
            # @max-attempts 1
            GET \(server.url("/slow").absoluteString)
            """)
        // (no idle timeout: without the tag nothing would stop the request, and the child would be killed)
        let result = try await CourierCLI.run(["run", "api.http", "--idle-timeout", "0"], in: folder.url,
                                              limit: .seconds(40))
        // Then it fails as timed out rather than waiting for the answer
        #expect(result.status == 1)
        #expect((result.stdout + result.stderr).contains("timed out"), "\(result.stdout)\(result.stderr)")
    }

    @Test func theJetBrainsScriptAPIReadsTheRequestAndTheResponseAndAWholeBodyIsReused() async throws {
        // Given a handler reading what was sent and received, and a request reusing the whole first body
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await run("""
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

    @Test func aConnectionTimeoutStopsAConnectionTheServerNeverAccepts() async throws {
        // Given a listener whose queue is full: a further connection is never completed
        let listener = try FullListener()
        defer { listener.close() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            # @connection-timeout 300 ms
            # @max-attempts 1
            GET http://127.0.0.1:\(listener.port)/never
            """)
        // (the client's own connect timeout is 30 s: past the child's limit, so only the tag can end it)
        let result = try await CourierCLI.run(["run", "api.http", "--idle-timeout", "0"], in: folder.url,
                                              limit: .seconds(20))
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect((result.stdout + result.stderr).contains("timed out"), "\(result.stdout)\(result.stderr)")
    }

    @Test func noRedirectStopsAtTheFirstAnswerAndRedirectsAreFollowedOtherwise() async throws {
        let server = try LoopbackServer { request in
            request.path == "/from" ? LoopbackServer.Reply(status: 302, headers: [("Location", "/to")]) : .json("{}")
        }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            # @no-redirect
            GET \(server.url("/from").absoluteString)

            ###
            GET \(server.url("/from").absoluteString)
            """)
        let result = try await CourierCLI.run(["run", "api.http", "--all"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.map(\.path) == ["/from", "/from", "/to"])
    }
}

/// A loopback listener that never accepts, its one-place queue taken by a connection of its own: the kernel
/// leaves any further connection half-open until the client gives up.
private final class FullListener {
    let port: UInt16
    private let listener: Int32
    private let filler: Int32

    init() throws {
        struct Failed: Error {}
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(server, $0, length) == 0 && listen(server, 0) == 0 && getsockname(server, $0, &length) == 0
            }
        }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let connected = bound && withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        listener = server
        filler = client
        port = UInt16(bigEndian: address.sin_port)
        guard server >= 0, client >= 0, connected else {
            close()
            throw Failed()
        }
    }

    func close() {
        _ = Glibc.close(filler)
        _ = Glibc.close(listener)
    }
}
