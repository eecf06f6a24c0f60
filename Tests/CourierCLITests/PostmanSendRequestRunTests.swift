import CourierDemo
import CourierTestSupport
import Foundation
import Testing

/// `pm.sendRequest` through `courier run` on an imported Postman collection, checked by what the demo server
/// received: the script's own request goes out through Courier's client, its callback sets a variable the next
/// request carries, and a refused connection reaches the callback as `err`.
@Suite("courier run with pm.sendRequest", .serialized)
struct PostmanSendRequestRunTests {
    @Test func aSentRequestsResponseSetsAVariableTheNextRequestCarries() async throws {
        // Given a collection whose test script sends a request of its own and stores what it answered, and
        // whose pre-request script posts a form and tries a port nobody listens on
        let server = try DemoServer.start()
        defer { server.stop() }
        let base = ScriptRunTests.base(server)
        let folder = try TemporaryFolder()
        let collection: [String: Any] = [
            "info": ["name": "Sends", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"],
            "item": [
                ["name": "first", "event": [
                    ["listen": "prerequest", "script": ["exec": [
                        "pm.sendRequest({ url: '\(base)/echo?step=pre', method: 'POST', header: [{ key: 'X-Mine', value: 'yes' }],",
                        "  body: { mode: 'urlencoded', urlencoded: [{ key: 'who', value: 'ada lovelace' }] } }, (err, res) => {",
                        "  pm.collectionVariables.set('posted', res.json().body);",
                        "});",
                        "pm.sendRequest('http://127.0.0.1:1/', (err, res) => { pm.collectionVariables.set('refused', err ? 'yes' : 'no'); });",
                    ]]],
                    ["listen": "test", "script": ["exec": [
                        "pm.sendRequest('\(base)/echo?from=x', (err, res) => {",
                        "  pm.collectionVariables.set('sr', res.json().query.from);",
                        "  pm.test('the sent request answered 200', () => pm.expect(res.code).to.equal(200));",
                        "});",
                    ]]],
                ], "request": ["method": "GET", "url": "\(base)/echo?step=first"]],
                ["name": "second", "request": ["method": "GET",
                                               "url": "\(base)/echo?got={{sr}}&posted={{posted}}&refused={{refused}}"]],
            ],
        ]
        let export = folder.url.appendingPathComponent("sends.json")
        try JSONSerialization.data(withJSONObject: collection).write(to: export)
        let imported = try await CourierCLI.run(["import", "postman", export.path, "-o", folder.url.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        // When the imported file runs
        let result = try await CourierCLI.run(["run", folder.url.appendingPathComponent("Sends.http").path])
        // Then the server saw the scripts' requests in order, and the second request carried what they set
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let echoes = server.log.filter { $0.path == "/echo" }
        #expect(echoes.map { $0.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&") }
                    == ["step=pre", "step=first", "from=x", "got=x&posted=who=ada%20lovelace&refused=yes"])
        let posted = try #require(echoes.first)
        #expect(posted.method == "POST")
        #expect(posted.headers.contains { $0.name.lowercased() == "x-mine" && $0.value == "yes" })
        #expect(result.stdout.contains("✓ the sent request answered 200"))
    }

    @Test func aScriptThatAwaitsSendRequestHasItSentByCourierFromItsScriptProcess() async throws {
        // Given a hand-written Postman-style file whose pre-request script awaits pm.sendRequest
        let server = try DemoServer.start()
        defer { server.stop() }
        let base = ScriptRunTests.base(server)
        let folder = try TemporaryFolder()
        try folder.write("await.http", """
            < {%
                (async () => {
                    const res = await pm.sendRequest({ url: "\(base)/echo?n=" + pm.variables.replaceIn("{{$randomInt}}"),
                                                       header: { "X-From": "script" } });
                    pm.variables.set("n", res.json().query.n);
                })();
            %}
            GET \(base)/echo?again={{n}}
            """)
        // When it runs
        let result = try await CourierCLI.run(["run", folder.url.appendingPathComponent("await.http").path])
        // Then the script's request reached the server first, and the request carried the number it echoed
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let echoes = server.log.filter { $0.path == "/echo" }
        #expect(echoes.count == 2)
        let sent = try #require(echoes.first?.query.first { $0.name == "n" }?.value)
        #expect(Int(sent) != nil)
        #expect(echoes.first?.headers.contains { $0.name.lowercased() == "x-from" && $0.value == "script" } == true)
        #expect(echoes.last?.query.map(\.value) == [sent])
    }

    @Test func aScriptsRequestsShareTheCookieJarOfTheRequestTheyRunFor() async throws {
        // Given a file whose first request signs in through pm.sendRequest (the session comes back as a cookie),
        // and whose second request's script reads who is signed in through pm.sendRequest too
        let server = try DemoServer.start()
        defer { server.stop() }
        let base = ScriptRunTests.base(server)
        let folder = try TemporaryFolder()
        try folder.write("jar.http", """
            < {%
                pm.sendRequest({ url: "\(base)/session/login", method: "POST", header: { "Content-Type": "application/json" },
                                 body: { mode: "raw", raw: JSON.stringify({ username: "grace" }) } }, () => {});
            %}
            GET \(base)/session/me

            ###
            > {%
                pm.sendRequest("\(base)/session/me", (err, res) => pm.test("the script is signed in", () => pm.expect(res.code).to.equal(200)));
            %}
            GET \(base)/echo
            """)
        // When it runs with a cookie jar of its own
        let result = try await CourierCLI.run(["run", folder.url.appendingPathComponent("jar.http").path],
                                              environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path])
        // Then the requests after the sign-in, the file's and the script's, carried its session
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let me = server.log.filter { $0.path == "/session/me" }
        #expect(me.map(\.status) == [200, 200], "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("✓ the script is signed in"))
    }
}
