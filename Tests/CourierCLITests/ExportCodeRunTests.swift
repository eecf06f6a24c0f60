import CourierTestSupport
import Foundation
import Testing

/// `courier export LANG` through the real stack: the generated Python, JavaScript and Swift run against a
/// loopback server, which must receive what `courier run` sends for the same request, byte for byte.
@Suite(.enabled(if: CourierCLI.isBuilt, "the courier binary is not built"))
struct ExportCodeRunTests {
    static let token = "s3cr3t'tok$en\\(x)"
    static let apiKey = "k3y+/=?&é"
    /// What the server answers a request to /echo…: an object with dates, optional and mixed fields.
    static let objectReply = #"""
        {"id": 7, "created_at": "2024-05-01T12:30:00.250Z", "updated": "2024-05-02T08:00:00+02:00",
         "default": true, "self": "me", "2fa": false, "content-type": "json",
         "items": [{"name": "a", "price": 1, "note": null}, {"name": "b", "price": 2.5, "extra": {"k": "v"}}],
         "tags": [], "data": {"value": "x"}, "mixed": [1, "two", true]}
        """#
    /// What it answers to /list: a top-level array whose elements differ.
    static let arrayReply = #"[{"user_id": 1, "email": "a@x.org", "roles": ["admin"]}, {"user_id": 2, "email": null, "roles": []}]"#

    /// A request with everything that needs escaping: quotes, backslashes, `$`, `\(`, `${`, newlines, tabs,
    /// trailing spaces, invisible characters, non-ASCII, and secrets in a header, the query and the body.
    static let collection = "@tag = a+b c&d=é\n"
        + "### Echo\n# @name echo\n"
        + "POST {{base}}/echo/ü?q={{tag}}&literal=x+y&api_key={{apiKey}}&flag\n"
        + "Content-Type: application/json; charset=utf-8\n"
        + "Authorization: Bearer {{token}}\n"
        + "X-Quote: say \"hi\" \\ and $HOME `cmd` \\(x) ${x} é\n"
        + "\n"
        + "{\"text\": \"quote \\\" backslash \\\\ $x \\(x) ${x} \"\"\" é 😀\",   \n"
        + "\t\"raw\": \"tab\tzero\u{200B}width line\u{2028}separator\",\n"
        + "  \"token\": \"{{token}}\", \"key\": \"{{apiKey}}\"}\n"
        + "\n### List\n# @name listUsers\nGET {{base}}/list\nAccept: application/json\n"

    /// A folder with the collection and its environments pointing at `server`.
    static func project(_ server: LoopbackServer) throws -> TemporaryFolder {
        let folder = try TemporaryFolder("export")
        try folder.write("api.http", collection)
        try folder.write("http-client.env.json", #"{"dev": {"base": "http://127.0.0.1:\#(server.port)"}}"#)
        try folder.write("http-client.private.env.json", """
            {"dev": {"token": \(jsonString(token)), "apiKey": \(jsonString(apiKey))}}
            """)
        return folder
    }

    static func jsonString(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self)
    }

    static func server() throws -> LoopbackServer {
        try LoopbackServer { request in
            .json(request.path == "/list" ? arrayReply : objectReply)
        }
    }

    /// The parts of a request the code must reproduce exactly: method, target, body, and the headers the
    /// request names (other headers are each client's own: User-Agent, Accept-Encoding…).
    static func expectSame(_ sent: LoopbackServer.Request, as expected: LoopbackServer.Request, _ label: String) {
        #expect(sent.method == expected.method, "\(label): method")
        #expect(sent.path == expected.path, "\(label): path")
        #expect(sent.query == expected.query, "\(label): query")
        #expect(sent.body == expected.body, "\(label): body:\n\(String(decoding: sent.body, as: UTF8.self))")
        for name in ["content-type", "authorization", "x-quote"] {
            #expect(sent.headers[name] == expected.headers[name], "\(label): \(name)")
        }
    }

    /// `courier run` on the request, and what the server received from it.
    static func courierRun(_ name: String, in folder: TemporaryFolder,
                           server: LoopbackServer) async throws -> LoopbackServer.Request {
        let before = server.requests.count
        let run = try await CourierCLI.run(["run", "api.http", "--name", name, "--env", "dev"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(server.requests.dropFirst(before).last)
    }

    /// `courier export LANG api.http --name NAME --env dev ARGUMENTS`, checked to hold no secret.
    static func export(_ language: String, _ name: String, in folder: TemporaryFolder,
                       _ arguments: [String] = []) async throws -> String {
        let export = try await CourierCLI.run(["export", language, "api.http", "--name", name, "--env", "dev"]
                                              + arguments, in: folder.url)
        #expect(export.status == 0, "\(export.stderr)")
        for secret in [token, apiKey, "k3y%2B"] {
            #expect(!export.stdout.contains(secret), "\(language) export holds a secret: \(secret)")
        }
        return export.stdout
    }

    static let secretEnvironment = ["TOKEN": token, "API_KEY": apiKey]

    @Test("The Python and JavaScript exports send what courier run sends, byte for byte, and print the body")
    func pythonAndJavaScriptSendWhatCourierRunSends() async throws {
        // Given a server and a request full of characters to escape, with secrets from the private environment
        let server = try Self.server()
        defer { server.stop() }
        let folder = try Self.project(server)
        let expected = try await Self.courierRun("echo", in: folder, server: server)

        // When the Python export runs (secrets from the environment variables its comment names)
        let python = try await Self.export("python", "echo", in: folder, ["--main"])
        #expect(python.contains("#   TOKEN: the private value 'token'"))
        #expect(python.contains("#   API_KEY: the private value 'apiKey'"))
        if let missing = try await CodeRunners.pythonHasRequests() { Issue.record(Comment(rawValue: missing)) }
        try folder.write("echo.py", python)
        let ranPython = try await CodeRunners.runPython(["echo.py"], in: folder.url, environment: Self.secretEnvironment)

        // Then it printed the body and the server received the same request
        #expect(ranPython.status == 0, "\(ranPython.stderr)")
        #expect(ranPython.stdout == Self.objectReply)
        Self.expectSame(try #require(server.requests.last), as: expected, "python")

        // And so for the JavaScript export under node
        let js = try await Self.export("js", "echo", in: folder, ["--main"])
        try folder.write("echo.js", js)
        let ranNode = try await CodeRunners.run("node", ["echo.js"], in: folder.url, environment: Self.secretEnvironment)
        #expect(ranNode.status == 0, "\(ranNode.stderr)")
        #expect(ranNode.stdout == Self.objectReply)
        Self.expectSame(try #require(server.requests.last), as: expected, "js")
    }

    @Test("The Swift export with models compiles warning-free in Swift 6 mode, sends what courier run sends, decodes")
    func swiftModelsCompileSendAndDecode() async throws {
        // Given the same request, and one answered by an array
        let server = try Self.server()
        defer { server.stop() }
        let folder = try Self.project(server)
        let expected = try await Self.courierRun("echo", in: folder, server: server)

        // When each is exported as a Swift program with models (the request is sent once for them)
        let echo = try await Self.export("swift", "echo", in: folder, ["--main", "--models"])
        let list = try await Self.export("swift", "listUsers", in: folder, ["--main", "--models"])
        #expect(echo.contains("static func echo(token: String, apiKey: String, session: URLSession = .shared)"))
        #expect(echo.contains("case createdAt = \"created_at\""))
        #expect(echo.contains("let note: JSONValue?"))
        #expect(list.contains("typealias Users = [User]"))
        #expect(list.contains("let email: String?"))
        for (name, code) in [("echo", echo), ("list", list)] {
            try folder.write("\(name)/main.swift", code)
        }
        // Compiled both at once, each in its own folder.
        async let echoBuild = CodeRunners.run("swiftc", ["-swift-version", "6", "-warnings-as-errors", "main.swift",
                                                         "-o", "echo"], in: folder.url.appendingPathComponent("echo"))
        async let listBuild = CodeRunners.run("swiftc", ["-swift-version", "6", "-warnings-as-errors", "main.swift",
                                                         "-o", "list"], in: folder.url.appendingPathComponent("list"))
        let (echoBuilt, listBuilt) = try await (echoBuild, listBuild)
        #expect(echoBuilt.status == 0, "\(echoBuilt.stderr)")
        #expect(listBuilt.status == 0, "\(listBuilt.stderr)")
        guard echoBuilt.status == 0, listBuilt.status == 0 else { return }

        // Then, run, they send the same request and print the decoded values
        let ranEcho = try await ChildProcess.run(folder.url.appendingPathComponent("echo/echo"), [],
                                                 environment: Self.secretEnvironment)
        #expect(ranEcho.status == 0, "\(ranEcho.stderr)")
        Self.expectSame(try #require(server.requests.last), as: expected, "swift")
        for line in ["- id: 7", "▿ createdAt: 2024-05-01 12:30:00 +0000", "▿ updated: 2024-05-02 06:00:00 +0000",
                     "- selfValue: \"me\"", "- _2fa: false", "- price: 2.5", "- tags: 0 elements", "- note: nil"] {
            #expect(ranEcho.stdout.contains(line), "\(line) in:\n\(ranEcho.stdout)")
        }
        let ranList = try await ChildProcess.run(folder.url.appendingPathComponent("list/list"), [])
        #expect(ranList.status == 0, "\(ranList.stderr)")
        #expect(ranList.stdout.contains("▿ 2 elements"), "\(ranList.stdout)")
        #expect(ranList.stdout.contains("- email: nil"), "\(ranList.stdout)")
    }
}
