import CourierTestSupport
import Foundation
import Testing

/// `courier run` without `--env` on files that define several environments, as a reviewer runs a project's
/// files: the environment the files' own rules choose is used and named, and none that may reach a server
/// elsewhere is guessed.
@Suite("Environment chosen without --env")
struct EnvironmentChoiceRunTests {
    @Test func theLocalEnvironmentIsUsedAndNamedAndTheRemoteOnesAreNot() async throws {
        // Given a project's environments: a local one on the loopback server, and remote dev and prod
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let environments = """
            {"local": {"baseUrl": "BASE"}, "dev": {"baseUrl": "https://dev.example.invalid"},
             "prod": {"baseUrl": "https://api.example.invalid"}}
            """
        // When the file is run without --env
        let result = try await CompatibilityMatrixTests.run("GET {{baseUrl}}/users\n", in: folder, server: server,
                                                           extra: ["http-client.env.json": environments])
        // Then the request went to the local server, and standard error says which environment and why
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/users"])
        let port = URL(string: server.base)?.port.map(String.init) ?? "?"
        #expect(result.stderr.contains("note: no --env given; using 'local', whose addresses are all on this "
            + "machine (127.0.0.1:\(port)); the others: dev, prod (--env NAME)"), "\(result.stderr)")
        // And check accepts it as run does
        let check = try await CourierCLI.run(["check", "api.http"], in: folder.url)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        // And --json names it in every result, also one that fails before it is sent
        try folder.write("api.http", "GET {{baseUrl}}/users\n\n###\nGET {{baseUrl}}/{{nowhere}}\n")
        let json = try await CourierCLI.run(["run", "api.http", "--json"], in: folder.url)
        let lines = json.stdout.split(separator: "\n").filter { $0.hasPrefix("{") }
        #expect(lines.count == 2 && lines.allSatisfy { $0.contains(#""environment":"local""#) }, "\(json.stdout)")
    }

    @Test func withoutALocalEnvironmentNoneIsGuessedAndNothingIsSent() async throws {
        // Given environments that all point elsewhere
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let environments = """
            {"development": {"baseUrl": "https://dev.example.invalid"}, "production": {"baseUrl": "https://api.example.invalid"}}
            """
        // When the file is run without --env
        let result = try await CompatibilityMatrixTests.run("GET {{baseUrl}}/users\n", in: folder, server: server,
                                                           extra: ["http-client.env.json": environments])
        // Then nothing is sent, and the error lists the environments and how to choose one
        #expect(result.status != 0)
        #expect(server.requests.isEmpty)
        #expect(result.stderr.contains("environments found: development, production; none selected (--env NAME)"),
                "\(result.stdout)\(result.stderr)")
        #expect(!result.stderr.contains("note: no --env"), "\(result.stderr)")
    }

    @Test func httpyacsEnvironmentSelectedOnStartIsUsed() async throws {
        // Given VS Code settings in which httpyac's extension selects qa on start, beside a local environment
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let files = ["http-client.env.json": #"{"local": {"base": "BASE/local"}, "qa": {"base": "BASE/qa"}}"#,
                     ".vscode/settings.json": #"{"httpyac.environmentSelectedOnStart": ["qa"]}"#]
        // When the file is run without --env
        let result = try await CompatibilityMatrixTests.run("GET {{base}}/ping\n", in: folder, server: server, extra: files)
        // Then qa is used, and said with the setting that chose it
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/qa/ping"])
        #expect(result.stderr.contains("using 'qa', which ") && result.stderr.contains(
            ".vscode/settings.json selects on start (httpyac.environmentSelectedOnStart)"), "\(result.stderr)")
    }

    @Test func anEnvironmentNamedDefaultIsUsedAsKulalaUsesIt() async throws {
        // Given an environment named default, and a local one
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let files = ["http-client.env.json": #"{"default": {"base": "BASE/default"}, "local": {"base": "BASE/local"}}"#]
        // When the file is run without --env, and with --env local
        let result = try await CompatibilityMatrixTests.run("GET {{base}}/ping\n", in: folder, server: server, extra: files)
        let chosen = try await CourierCLI.run(["run", "api.http", "--env", "local"], in: folder.url)
        // Then default is used and said; --env still chooses
        #expect(result.status == 0 && chosen.status == 0, "\(result.stdout)\(result.stderr)\(chosen.stderr)")
        #expect(server.requests.map(\.target) == ["/default/ping", "/local/ping"])
        #expect(result.stderr.contains("using 'default', the environment named default (kulala.nvim's default_env)"),
                "\(result.stderr)")
        #expect(!chosen.stderr.contains("note: no --env"), "\(chosen.stderr)")
    }
}
