import CourierTestSupport
import Foundation
import Testing

/// httpyac's project configuration (`httpyac.config.js` read as data, `.httpyac.json`'s `request` options)
/// and its named blocks of variables, through `courier run` against a loopback server.
@Suite("httpyac's configuration and variable blocks on the wire")
struct HttpyacConfigRunTests {
    @Test func aJavaScriptConfigurationsLiteralEnvironmentsAndHeadersAreReadAndItsCodeIsNamed() async throws {
        // Given an httpyac.config.js exporting environments, default headers, a process.env value and a hook
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            GET {{base}}/config?team={{team}}
            X-Token: {{token}}
            """, in: folder, server: server, extra: ["httpyac.config.js": """
                // httpyac settings
                module.exports = {
                  log: { level: 10 },
                  defaultHeaders: { 'X-Client': "courier-test", },
                  environments: {
                    $shared: { team: 'core' },
                    dev: {
                      base: "BASE", /* the loopback server */
                      token: process.env.CONFIG_TOKEN,
                    },
                  },
                  configureHooks: function (api) { api.hooks.onRequest.addHook('x', r => r); },
                };
                """], arguments: ["--env", "dev"], environment: ["CONFIG_TOKEN": "t0k3n"])
        // Then the request goes with the environment's values and the default header
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let received = try #require(server.requests.first)
        #expect(received.target == "/config?team=core")
        #expect(received.header("X-Client") == "courier-test")
        #expect(received.header("X-Token") == "t0k3n")
        // And the hook it cannot read is named in a warning; the token from the process environment is masked
        #expect(result.stderr.contains("httpyac.config.js:1: warning: httpyac's configureHooks is JavaScript"),
                "\(result.stderr)")
        #expect(!result.stdout.contains("t0k3n"), "\(result.stdout)")
    }

    @Test func aConfigurationThatIsNotALiteralIsAWarningAndTheRequestStillRuns() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("GET BASE/plain\n", in: folder, server: server,
                                                            extra: [".httpyac.cjs": "module.exports = build();\n"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/plain"])
        #expect(result.stderr.contains(".httpyac.cjs:1: warning: httpyac's module.exports (not an object literal, "
                                       + "nor a function returning one) is JavaScript"),
                "\(result.stderr)")
    }

    @Test func requestOptionsApplyTheTimeoutAndRedirectsAndSayTLSVerificationStaysOn() async throws {
        // Given .httpyac.json allowing 300 ms, following no redirects and asking to skip TLS verification
        let server = try LoopbackServer { request in
            switch request.path {
            case "/slow": LoopbackServer.Reply(status: 200, delay: .seconds(60))
            case "/from": LoopbackServer.Reply(status: 302, headers: [("Location", "/to")])
            default: .json("{}")
            }
        }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write(".httpyac.json", """
            {"request": {"timeout": 300, "followRedirects": false, "https": {"rejectUnauthorized": false}},
             "proxy": "http://127.0.0.1:9"}
            """)
        try folder.write("api.http", """
            # @max-attempts 1
            GET \(server.url("/from").absoluteString)

            ###
            # @max-attempts 1
            GET \(server.url("/slow").absoluteString)
            """)
        let result = try await CourierCLI.run(["run", "api.http", "--all", "--idle-timeout", "0"], in: folder.url,
                                              limit: .seconds(40))
        // Then the redirect is not followed, the slow request times out, and what is not applied is said
        #expect(server.requests.map(\.path) == ["/from", "/slow"])
        #expect((result.stdout + result.stderr).contains("timed out"), "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("'request.https.rejectUnauthorized: false' is not applied"), "\(result.stderr)")
        #expect(result.stderr.contains("'proxy' is not applied"), "\(result.stderr)")
    }

    @Test func aRefToANamedBlockOfVariablesGivesTheRequestItsValues() async throws {
        // Given two named blocks that only set variables, and requests referring to one or the other
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("""
            # @name staging
            @stage = staging
            @token = s-1

            ###
            # @name production
            @stage = production

            ###
            # @ref staging
            GET BASE/a?stage={{stage}}&token={{token}}

            ###
            # @ref production
            GET BASE/b?stage={{stage}}
            """, in: folder, server: server)
        // Then each request is sent with the values of the block it names, and nothing is sent for the blocks
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/a?stage=staging&token=s-1", "/b?stage=production"])
    }

    @Test func aJWTTagAddsTheDecodedClaimsBesideTheTokenForLaterRequests() async throws {
        // Given a sign-in answering a token (claims {"sub": "ada", "admin": true}) under `# @jwt access_token`
        let header = Data(#"{"alg":"HS256","typ":"JWT"}"#.utf8).base64EncodedString()
        let claims = Data(#"{"sub":"ada","admin":true}"#.utf8).base64EncodedString()
        let token = [header, claims, "c2ln"].map {
            $0.replacingOccurrences(of: "=", with: "").replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_")
        }.joined(separator: ".")
        let server = try LoopbackServer { request in
            request.path == "/login" ? .json(#"{"access_token": "\#(token)", "other": "x.y"}"#) : .json("{}")
        }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            # @name login
            # @jwt access_token
            POST \(server.url("/login").absoluteString)

            ###
            GET \(server.url("/me").absoluteString)?sub={{login.access_token_parsed.sub}}&admin={{login.access_token_parsed.admin}}
            """)
        let result = try await CourierCLI.run(["run", "api.http", "--all"], in: folder.url)
        // Then the next request reads the claims, and no warning says the tag is not followed
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.last?.query == "sub=ada&admin=true")
        #expect(!result.stderr.contains("@jwt"), "\(result.stderr)")
    }
}
