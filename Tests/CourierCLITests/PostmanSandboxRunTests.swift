import CourierDemo
import CourierTestSupport
import Foundation
import Testing

/// An imported Postman collection whose scripts use the sandbox beyond variables and `pm.test`, run by
/// `courier run` against the demo server: what a pre-request script changes on `pm.request` reaches the server,
/// a script may `await` at its top level and set timers, an async test fails when its promise is rejected,
/// `pm.execution.skipRequest()` sends nothing, `pm.cookies` reads the cookie a response set, and the response
/// assertions Postman adds report as its do.
@Suite("courier run with Postman's pm API", .serialized)
struct PostmanSandboxRunTests {
    @Test func whatPreRequestScriptsChangeIsWhatTheServerReceives() async throws {
        // Given a collection with a collection-level script, a request whose script rewrites it, one that awaits
        // at its top level, one that skips itself, a sign-in whose cookie a test reads, and v2.0 bearer auth
        let server = try DemoServer.start()
        defer { server.stop() }
        let base = ScriptRunTests.base(server)
        let folder = try TemporaryFolder()
        func item(_ name: String, _ request: [String: Any], pre: [String] = [], test: [String] = []) -> [String: Any] {
            var events: [[String: Any]] = []
            if !pre.isEmpty { events.append(["listen": "prerequest", "script": ["exec": pre]]) }
            if !test.isEmpty { events.append(["listen": "test", "script": ["exec": test]]) }
            return ["name": name, "request": request, "event": events]
        }
        let collection: [String: Any] = [
            "info": ["name": "Sandbox", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"],
            "event": [["listen": "prerequest", "script": ["exec": [
                "pm.request.headers.upsert({key: 'X-Request', value: pm.info.requestName});",
            ]]]],
            "item": [
                item("sign in", ["method": "POST", "url": "\(base)/session/login",
                                 "header": [["key": "Content-Type", "value": "application/json"]],
                                 "body": ["mode": "raw", "raw": #"{"username": "ada"}"#]],
                     test: ["if (pm.response.code !== 200) return;",
                            "pm.test('signed in', () => { pm.response.to.be.success;",
                            "  pm.response.to.have.jsonBody('signed_in', 'ada');",
                            "  pm.expect(pm.cookies.get('courier_session')).to.be.a('string').that.is.not.empty; });",
                            "pm.collectionVariables.set('session', pm.cookies.has('courier_session') ? 'yes' : 'no');",
                            "tests['legacy schema'] = tv4.validate(JSON.parse(responseBody), {required: ['signed_in']});"]),
                item("rewrite", ["method": "POST", "url": "\(base)/echo?x=1",
                                 "body": ["mode": "raw", "raw": #"{"old": true}"#]],
                     pre: ["pm.request.url.addQueryParams('page=2');",
                           "pm.request.url.query.upsert({key: 'x', value: '{{session}}'});",
                           "pm.request.method = 'PUT';",
                           "pm.request.body.raw = JSON.stringify({new: pm.variables.get('session')});"],
                     test: ["pm.test('echoed', () => { pm.response.to.have.jsonBody('method', 'PUT');",
                            "  pm.expect(pm.response.json().query).to.deep.equal({x: 'yes', page: '2'}); });"]),
                item("awaits", ["method": "GET", "url": "\(base)/echo?n={{n}}"],
                     pre: ["const res = await pm.sendRequest('\(base)/echo?n=5');",
                           "pm.variables.set('n', res.json().query.n);"]),
                item("waits", ["method": "GET", "url": "\(base)/echo?late={{late}}"],
                     pre: ["setTimeout(() => pm.variables.set('late', 'yes'), 20);"],
                     test: ["pm.test('async test fails', async () => {",
                            "  const res = await pm.sendRequest('\(base)/status/404');",
                            "  pm.expect(res.code).to.equal(200);",
                            "});"]),
                item("skipped", ["method": "GET", "url": "\(base)/echo?skipped=1"],
                     pre: ["pm.execution.skipRequest();"]),
                item("token", ["method": "GET", "url": "\(base)/echo?last=1",
                               "auth": ["type": "bearer", "bearer": ["token": "tok20"]]]),
            ],
        ]
        let export = folder.url.appendingPathComponent("sandbox.json")
        try JSONSerialization.data(withJSONObject: collection).write(to: export)
        let imported = try await CourierCLI.run(["import", "postman", export.path, "-o", folder.url.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        // When the imported file runs, with a cookie jar of its own
        let result = try await CourierCLI.run(["run", folder.url.appendingPathComponent("Sandbox.http").path],
                                              environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path])
        // Then the server received the rewritten request, the awaited one before its request, and no skipped one
        let output = result.stdout + result.stderr
        let echoes = server.log.filter { $0.path == "/echo" }
        #expect(echoes.map { $0.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&") }
                    == ["x=yes&page=2", "n=5", "n=5", "late=yes", "last=1"], "\(output)")
        let rewritten = try #require(echoes.first)
        #expect(rewritten.method == "PUT")
        #expect(String(decoding: rewritten.bodyPrefix, as: UTF8.self) == #"{"new":"yes"}"#)
        #expect(rewritten.header("X-Request") == "rewrite")
        #expect(echoes.last?.header("Authorization") == "Bearer tok20")
        #expect(output.contains("✓ signed in"), "\(output)")
        #expect(output.contains("✓ echoed"), "\(output)")
        #expect(output.contains("✓ legacy schema"), "\(output)")
        #expect(output.contains("skipped"), "\(output)")
        #expect(output.contains("✗ async test fails: expected 404 to equal 200"), "\(output)")
        #expect(output.components(separatedBy: "✗").count == 2, "\(output)")
    }
}
