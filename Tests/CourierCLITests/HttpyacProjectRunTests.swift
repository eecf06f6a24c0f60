import CourierTestSupport
import Foundation
import Testing

/// httpyac's project-level rules as its parser and configuration loader read them: `courier check` taking a
/// scripted `...defaultHeaders` as given, variables in `# @import` paths, query and `/path` lines among the
/// headers, a configuration exported as a function, and configuration warnings from `check` as from `run`.
@Suite("httpyac's project files, checked and on the wire")
struct HttpyacProjectRunTests {
    @Test func checkTakesAHeaderSpreadAScriptExportsAsGivenAndRunSendsIt() async throws {
        // Given a file-wide script exporting the headers a request spreads
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            {{+
              const key = "k-1";
              exports.commonHeaders = { "X-Key": key, "X-Team": "core" };
            }}
            ###
            GET \(server.base)/spread
            ...commonHeaders
            X-Own: mine
            """)
        // When it is checked, then run
        let check = try await CourierCLI.run(["check", "api.http"], in: folder.url)
        let run = try await CourierCLI.run(["run", "api.http", "--all"], in: folder.url)
        // Then the check finds no problem, and the run sends the exported headers
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(!check.stdout.contains("unknown variable"), "\(check.stdout)")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let received = try #require(server.requests.first)
        #expect(received.header("X-Key") == "k-1")
        #expect(received.header("X-Own") == "mine")
    }

    @Test func checkStillReportsASpreadNothingDefines() async throws {
        let folder = try TemporaryFolder()
        try folder.write("api.http", "GET http://127.0.0.1:9/x\n...missingHeaders\n")
        let check = try await CourierCLI.run(["check", "api.http"], in: folder.url)
        #expect(check.status == 1, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("missingHeaders"), "\(check.stdout)")
    }

    @Test func anImportPathTakesItsVariablesFromTheFileTheEnvironmentAndVar() async throws {
        // Given imports whose paths hold a file variable and an environment value
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("shared/auth.http", "@token = from-shared\n")
        try folder.write("lib/more.http", "@team = from-lib\n")
        try folder.write("http-client.env.json", #"{"dev": {"libFolder": "./lib"}}"#)
        try folder.write("api.http", """
            @sharedFolder = ./shared
            # @import {{sharedFolder}}/auth.http
            # @import {{libFolder}}/more.http
            ###
            GET \(server.base)/imported?team={{team}}
            X-Token: {{token}}
            """)
        // When it runs and is checked with the environment
        let run = try await CourierCLI.run(["run", "api.http", "--all", "--env", "dev"], in: folder.url)
        let check = try await CourierCLI.run(["check", "api.http", "--env", "dev"], in: folder.url)
        // Then both imported files were read
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(server.requests.first?.target == "/imported?team=from-lib")
        #expect(server.requests.first?.header("X-Token") == "from-shared")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        // And --var names another folder, over the environment's
        try folder.write("other/more.http", "@team = from-other\n")
        let moved = try await CourierCLI.run(["run", "api.http", "--all", "--env", "dev", "--var", "libFolder=./other"],
                                             in: folder.url)
        #expect(moved.status == 0, "\(moved.stdout)\(moved.stderr)")
        #expect(server.requests.last?.target == "/imported?team=from-other")
    }

    @Test func anImportPathWithAVariableNothingDefinesIsAnErrorAtItsLine() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            # @import {{nowhere}}/auth.http
            GET \(server.base)/x
            """)
        let run = try await CourierCLI.run(["run", "api.http", "--all"], in: folder.url)
        #expect(run.stderr.contains("api.http:1: cannot import '{{nowhere}}/auth.http': unknown variable 'nowhere'"),
                "\(run.stdout)\(run.stderr)")
    }

    @Test func queryAndPathLinesAmongTheHeadersJoinTheURL() async throws {
        // Given httpyac's URL lines written after other headers
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            @page = 2
            GET \(server.base)/api
            Accept: application/json
            /users
            X-Trace: t1
            ?page={{page}}
            &sort=name
            # a comment between
            &{{extra}}
            Content-Type: text/plain

            ###
            GET \(server.base)/plain
            Accept: */*
            """)
        // When it runs
        let run = try await CourierCLI.run(["run", "api.http", "--all", "--var", "extra=flag"], in: folder.url)
        // Then the lines went into the URL, and the headers around them were sent as headers
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let received = try #require(server.requests.first)
        #expect(received.target == "/api/users?page=2&sort=name&flag")
        #expect(received.header("Accept") == "application/json")
        #expect(received.header("X-Trace") == "t1")
        #expect(received.header("Content-Type") == "text/plain")
        #expect(server.requests.last?.target == "/plain")
        #expect(server.requests.last?.header("Accept") == "*/*")
    }

    @Test func aConfigurationExportedAsAFunctionIsReadWhenItReturnsALiteral() async throws {
        // Given httpyac configurations that are functions returning object literals, as httpyac calls them
        let server = try CaptureServer()
        defer { server.stop() }
        for config in [
            "module.exports = () => ({ environments: { dev: { team: 'arrow' } } });",
            "module.exports = function () {\n  return {\n    environments: { dev: { team: 'arrow' } },\n  };\n};",
            "export default (env) => {\n  // comment\n  return { environments: { dev: { team: 'arrow' } } };\n}",
        ] {
            let folder = try TemporaryFolder()
            try folder.write("httpyac.config.js", config)
            try folder.write("api.http", "GET \(server.base)/fn?team={{team}}\n")
            let run = try await CourierCLI.run(["run", "api.http", "--all", "--env", "dev"], in: folder.url)
            #expect(run.status == 0, "\(config): \(run.stdout)\(run.stderr)")
            #expect(server.requests.last?.target == "/fn?team=arrow", "\(config)")
            #expect(!run.stderr.contains("warning"), "\(run.stderr)")
        }
    }

    @Test func aConfigurationFunctionThatComputesIsAWarningNamingTheExportInCheckAndRun() async throws {
        // Given a configuration function that builds its object
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write(".httpyac.js", """
            module.exports = (env) => {
              const base = load(env);
              return { environments: { dev: base } };
            };
            """)
        try folder.write("api.http", "GET \(server.base)/still\n")
        // When it is run and checked
        let run = try await CourierCLI.run(["run", "api.http", "--all"], in: folder.url)
        let check = try await CourierCLI.run(["check", "api.http"], in: folder.url)
        // Then the request is sent, and both say the export is not read
        let warning = ".httpyac.js:1: warning: httpyac's module.exports (not an object literal, nor a function "
            + "returning one) is JavaScript"
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(server.requests.map(\.target) == ["/still"])
        #expect(run.stderr.contains(warning), "\(run.stderr)")
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains(warning), "\(check.stdout)")
    }
}
