import CourierTestSupport
import CourierDemo
import Foundation
import Testing
@testable import CourierCollections

/// Request scripts through `courier run` against the demo server, checked by what the server received.
@Suite("courier run with request scripts", .serialized)
struct ScriptRunTests {
    /// The server's URL without a trailing slash, for `{{base}}/path`.
    static func base(_ server: DemoServer) -> String {
        let text = server.baseURL.absoluteString
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    static func objects(_ stdout: String) -> [[String: Any]] {
        stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func aHandlerSetsATokenThatTheNextRequestSends() async throws {
        // Given a JetBrains-style file whose login handler stores the token as a global
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            @base = \(Self.base(server))

            ### Log in
            # @name login
            POST {{base}}/auth/login
            Content-Type: application/json

            {"username": "ada"}

            > {%
                client.global.set("token", response.body.access_token);
                client.test("login answers 200", function () {
                    client.assert(response.status === 200, "status was " + response.status);
                });
                client.test("a bearer token", () => client.assert(response.body.token_type === "Bearer"));
            %}

            ###
            # @name me
            GET {{base}}/me
            Authorization: Bearer {{token}}

            > {% client.test("me is ada", function () { client.assert(response.body.username === "ada", "got " + JSON.stringify(response.body)); }); %}
            """)
        // When it runs
        let result = try await CourierCLI.run(["run", folder.url.appendingPathComponent("api.http").path])
        // Then /me received the token the login handler saved, and every test passed
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let me = try #require(server.log.first { $0.path == "/me" })
        let authorization = try #require(me.header("Authorization"))
        #expect(authorization.hasPrefix("Bearer ") && authorization.count > 12)
        #expect(me.status == 200)
        #expect(result.stdout.contains("✓ login answers 200"))
        #expect(result.stdout.contains("✓ a bearer token"))
        #expect(result.stdout.contains("✓ me is ada"))
        #expect(result.stdout.contains("2 tests passed"))
    }

    @Test func aPreRequestScriptSetsAVariableUsedInTheURLAndAHeader() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("pre.http", """
            < {%
                const id = ["a", "b", "c"].join("-");
                request.variables.set("id", id);
                request.variables.set("sig", crypto.sha256().updateWithText(id).digest().toHex().slice(0, 8));
            %}
            GET \(Self.base(server))/echo?id={{id}}
            X-Signature: {{sig}}
            """)
        let result = try await CourierCLI.run(["run", folder.url.appendingPathComponent("pre.http").path])
        #expect(result.status == 0, "\(result.stderr)")
        let echo = try #require(server.log.first { $0.path == "/echo" })
        #expect(echo.query.first { $0.name == "id" }?.value == "a-b-c")
        #expect(echo.header("X-Signature") == "cbd2be7b")
    }

    @Test func aFailedTestFailsTheRunAndIsReportedAsTextJSONAndJUnit() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let file = try folder.write("t.http", """
            # @name users
            GET \(Self.base(server))/users

            > {%
                client.test("is 200", function () { client.assert(response.status === 200, "not 200"); });
                client.test("has 1000 users", function () {
                    client.assert(response.body.length === 1000, "expected 1000 users & <more>");
                });
                client.log("checked", response.status);
            %}
            """)
        let report = folder.url.appendingPathComponent("report.xml")
        let text = try await CourierCLI.run(["run", file.path, "--report", "junit", report.path])
        #expect(text.status == 1)
        #expect(text.stdout.contains("✓ is 200"))
        #expect(text.stdout.contains("✗ has 1000 users: expected 1000 users & <more>"))
        #expect(text.stdout.contains("1 test passed, 1 failed"))
        #expect(text.stdout.contains("log: checked 200"))
        let xml = try String(contentsOf: report, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="courier run" tests="3" failures="1" errors="0">"#))
        #expect(xml.contains(#"name="users › has 1000 users""#))
        #expect(xml.contains(#"<failure message="expected 1000 users &amp; &lt;more&gt;"/>"#))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)

        let json = try await CourierCLI.run(["run", file.path, "--json"])
        #expect(json.status == 1)
        let object = try #require(Self.objects(json.stdout).first)
        let tests = try #require(object["tests"] as? [[String: Any]])
        #expect(tests.map { $0["name"] as? String } == ["is 200", "has 1000 users"])
        #expect(tests.map { $0["passed"] as? Bool } == [true, false])
        #expect(tests[1]["message"] as? String == "expected 1000 users & <more>")
    }

    @Test func aHandlerFileIsReadBesideTheHTTPFileWhereverCourierRuns() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("sub/handlers/save-id.js", """
            client.global.set("userId", response.body.id);
            client.test("created", () => client.assert(response.status === 201, "status " + response.status));
            """)
        try folder.write("sub/users.http", """
            # @name create
            POST \(Self.base(server))/users
            Content-Type: application/json

            {"name": "Grace", "email": "grace@example.com"}

            > ./handlers/save-id.js

            ###
            GET \(Self.base(server))/users/{{userId}}
            """)
        let result = try await CourierCLI.run(["run", "sub/users.http"], in: folder.url)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("✓ created"))
        let fetched = server.log.filter { $0.method == "GET" && $0.path.hasPrefix("/users/") }
        #expect(fetched.count == 1)
        #expect(fetched.first?.status == 200)
    }

    @Test func anUnknownVariablePointsAtTheScriptThatWouldHaveSetIt() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let file = try folder.write("api.http", """
            # @name login
            POST \(Self.base(server))/status/500

            > {% if (response.status === 200) client.global.set("token", response.body.access_token); %}

            ###
            # @name me
            GET \(Self.base(server))/me
            Authorization: Bearer {{token}}
            """)
        // When only `me` is asked for, `login` runs first because its handler sets {{token}}
        let result = try await CourierCLI.run(["run", file.path, "--name", "me"])
        #expect(result.status == 1)
        #expect(server.log.map(\.path) == ["/status/500"])
        // Then the error names the handler, where it is, and that it ran without setting the token
        #expect(result.stderr.contains("unknown variable 'token' in request 'me': it is set by the response handler "
                                       + "of 'login' (\(file.path):4), which ran but did not set it"),
                "\(result.stderr)")
    }

    @Test func aRequestWhoseTokenASkippedHandlerSetsSaysSo() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("api.http", """
            # @name login
            POST http://127.0.0.1:1/login

            > {% client.global.set("token", response.body.access_token); %}

            ###
            # @name me
            GET http://127.0.0.1:1/me
            Authorization: Bearer {{token}}
            """)
        let result = try await CourierCLI.run(["run", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("it is set by the response handler of 'login' (\(file.path):4), which did not "
                                       + "run: its request failed"), "\(result.stderr)")
    }

    @Test func aHandlerThatLoopsForeverIsStoppedAtItsLimitAndTheRunGoesOn() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let file = try folder.write("loop.http", """
            # @name spin
            # @script-timeout 0.5
            GET \(Self.base(server))/users

            > {%
                client.global.set("before", "yes");
                while (true) {}
            %}

            ###
            GET \(Self.base(server))/echo?before={{before}}
            """)
        let result = try await CourierCLI.run(["run", file.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("script error: \(file.path):5: script stopped after its time limit of 0.5 s"),
                "\(result.stdout)")
        let echo = try #require(server.log.first { $0.path == "/echo" })
        #expect(echo.query.first { $0.name == "before" }?.value == "yes")
    }

    @Test func aPostmanExportWithScriptsImportsAndRunsWithPm() async throws {
        // Given a Postman collection: bearer auth from a collection variable the login test script sets,
        // a collection-level pre-request script, and chai assertions
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let base = Self.base(server)
        let collection: [String: Any] = [
            "info": ["name": "Shop", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"],
            "variable": [["key": "base", "value": base], ["key": "token", "value": ""]],
            "auth": ["type": "bearer", "bearer": [["key": "token", "value": "{{token}}", "type": "string"]]],
            "event": [["listen": "prerequest", "script": ["exec": [
                "pm.variables.set('trace', 'run-' + pm.info.requestName.length);",
                "pm.request.headers.add({key: 'X-Trace', value: 'collection'});",
            ]]]],
            "item": [
                ["name": "login", "event": [["listen": "test", "script": ["exec": [
                    "pm.test('status is 200', function () { pm.response.to.have.status(200); });",
                    "const json = pm.response.json();",
                    "pm.expect(json).to.have.property('token_type').that.equals('Bearer');",
                    "pm.expect(json.access_token).to.be.a('string').and.not.be.empty;",
                    "pm.collectionVariables.set('token', json.access_token);",
                    "pm.test('expires soon', () => pm.expect(json.expires_in).to.be.above(1000));",
                ]]]],
                 "request": ["method": "POST", "url": "{{base}}/auth/login", "auth": ["type": "noauth"],
                             "header": [["key": "Content-Type", "value": "application/json"]],
                             "body": ["mode": "raw", "raw": #"{"username": "lin"}"#]]],
                ["name": "me", "event": [["listen": "test", "script": ["exec": [
                    "pm.test('me', () => { pm.expect(pm.response.code).to.equal(200); "
                        + "pm.expect(pm.response.json().roles).to.include('reader').and.have.lengthOf(2); });",
                    "pm.test('unsupported', () => pm.vault.get('x'));",
                ]]]],
                 "request": ["method": "GET", "url": "{{base}}/me"]],
            ],
        ]
        let export = folder.url.appendingPathComponent("shop.json")
        try JSONSerialization.data(withJSONObject: collection).write(to: export)
        let imported = try await CourierCLI.run(["import", "postman", export.path, "-o", folder.url.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        // When the imported file runs
        let result = try await CourierCLI.run(["run", folder.url.appendingPathComponent("Shop.http").path, "--json"])
        // Then /me carried the token the login test script stored, and the tests report as Postman's would
        let me = try #require(server.log.first { $0.path == "/me" })
        #expect(me.status == 200)
        #expect(me.header("X-Trace") == "collection")
        #expect(me.header("Authorization")?.hasPrefix("Bearer at_") == true)
        let objects = Self.objects(result.stdout)
        #expect(objects.count == 2, "\(result.stdout)\n\(result.stderr)")
        let loginTests = try #require(objects.first?["tests"] as? [[String: Any]])
        #expect(loginTests.map { $0["name"] as? String } == ["status is 200", "expires soon"])
        #expect(loginTests.map { $0["passed"] as? Bool } == [true, false])
        #expect(loginTests[1]["message"] as? String == "expected 60 to be above 1000")
        let meTests = try #require(objects.last?["tests"] as? [[String: Any]])
        #expect(meTests.map { $0["passed"] as? Bool } == [true, false])
        #expect(meTests[1]["message"] as? String == "pm.vault is not supported by Courier")
        #expect(result.status == 1)
    }
}
