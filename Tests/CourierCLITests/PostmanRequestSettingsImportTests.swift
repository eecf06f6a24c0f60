import CourierDemo
import CourierTestSupport
import Foundation
import Testing

/// What a Postman collection says about how its requests are sent, beyond the request itself, imported and
/// run against the demo server: `protocolProfileBehavior` (inherited from the collection and folders), the
/// body Postman prunes from a GET, a disabled script, an OAuth 2.0 token sent in the query or under another
/// prefix, a raw body's language, and the order of collection, folder and request scripts.
@Suite("courier import postman: request settings", .serialized)
struct PostmanRequestSettingsImportTests {
    @Test func postmansSendingSettingsReachTheServerAsPostmanSendsThem() async throws {
        // Given a collection that follows no redirects, a folder that keeps GET bodies, scripts at every level
        // (one disabled), and OAuth 2.0 tokens sent in the query and under a prefix of their own
        let server = try DemoServer.start()
        defer { server.stop() }
        let base = ScriptRunTests.base(server)
        let folder = try TemporaryFolder()
        func event(_ listen: String, _ lines: [String], disabled: Bool = false) -> [String: Any] {
            ["listen": listen, "disabled": disabled, "script": ["exec": lines, "type": "text/javascript"]]
        }
        let raw: [String: Any] = ["mode": "raw", "raw": "pruned?", "options": ["raw": ["language": "text"]]]
        func oauth(_ extra: [[String: String]]) -> [String: Any] {
            ["type": "oauth2", "oauth2": [["key": "accessToken", "value": "tok7"]] + extra]
        }
        var pruned = PostmanExports.item("get with body", "\(base)/echo?case=pruned", body: raw)
        pruned["event"] = [event("prerequest", ["pm.request.headers.upsert({key: 'X-Off', value: 'ran'});"],
                                 disabled: true)]
        var queryToken = PostmanExports.item("token in query", "\(base)/echo?case=query")
        queryToken["request"] = (queryToken["request"] as? [String: Any] ?? [:])
            .merging(["auth": oauth([["key": "addTokenTo", "value": "queryParams"]])]) { $1 }
        var prefixed = PostmanExports.item("token prefixed", "\(base)/echo?case=prefix")
        prefixed["request"] = (prefixed["request"] as? [String: Any] ?? [:])
            .merging(["auth": oauth([["key": "headerPrefix", "value": "Token"]])]) { $1 }
        let kept: [String: Any] = [
            "name": "Kept", "protocolProfileBehavior": ["disableBodyPruning": true],
            "event": [event("prerequest", ["pm.variables.set('order', pm.variables.get('order') + ',folder');"]),
                      event("test", ["pm.collectionVariables.set('after', pm.collectionVariables.get('after') + ',folder');"])],
            "item": [
                PostmanExports.item("get with kept body", "\(base)/echo?case=kept", body: raw,
                                    pre: ["pm.variables.set('order', pm.variables.get('order') + ',request');",
                                          "pm.request.headers.upsert({key: 'X-Order', value: pm.variables.get('order')});"],
                                    tests: ["pm.collectionVariables.set('after', pm.collectionVariables.get('after') + ',request');"]),
                PostmanExports.item("tests ran in order", "\(base)/echo?case=order&after={{after}}"),
            ],
        ]
        let graphql: [String: Any] = ["mode": "graphql", "graphql": ["query": "query ($id: ID) { user(id: $id) { name } }",
                                                                    "variables": ["id": 7]]]
        var collection = PostmanExports.collection("Settings", variables: [("after", "start")],
                                                   items: [PostmanExports.item("no redirect", "\(base)/chaos/redirect-loop"),
                                                           pruned, queryToken, prefixed,
                                                           PostmanExports.item("graphql", "\(base)/echo?case=gql",
                                                                               method: "POST", body: graphql),
                                                           kept])
        collection["protocolProfileBehavior"] = ["followRedirects": false]
        collection["event"] = [event("prerequest", ["pm.variables.set('order', 'collection');"]),
                               event("test", ["pm.collectionVariables.set('after', pm.collectionVariables.get('after') + ',collection');"])]

        // When it is imported and its folder run
        let paths = try PostmanExports.write([("settings", collection)], in: folder)
        let out = folder.url.appendingPathComponent("out")
        let imported = try await CourierCLI.run(["import", "postman", paths[0], "-o", out.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        let run = try await CourierCLI.run(["run", out.path])
        let output = run.stdout + run.stderr
        #expect(run.status == 0, "\(output)")

        // Then the redirect was not followed, the GET body went only where Postman keeps it, the disabled script
        // did not run, the tokens went where they were told, and the scripts ran collection, folder, request
        #expect(server.log.filter { $0.path == "/chaos/redirect-loop" }.count == 1, "\(output)")
        let echoes = Dictionary(server.log.filter { $0.path == "/echo" }.map {
            ($0.query.first { $0.name == "case" }?.value ?? "", $0)
        }, uniquingKeysWith: { $1 })
        let prunedEcho = try #require(echoes["pruned"], "\(output)")
        #expect(prunedEcho.bodyPrefix.isEmpty)
        #expect(prunedEcho.header("Content-Type") == nil)
        #expect(prunedEcho.header("X-Off") == nil)
        let keptEcho = try #require(echoes["kept"], "\(output)")
        #expect(String(decoding: keptEcho.bodyPrefix, as: UTF8.self) == "pruned?")
        #expect(keptEcho.header("Content-Type") == "text/plain")
        #expect(keptEcho.header("X-Order") == "collection,folder,request")
        #expect(echoes["query"]?.query.first { $0.name == "access_token" }?.value == "tok7")
        #expect(echoes["query"]?.header("Authorization") == nil)
        #expect(echoes["prefix"]?.header("Authorization") == "Token tok7")
        let query = try JSONSerialization.jsonObject(with: try #require(echoes["gql"]).bodyPrefix) as? [String: Any]
        #expect((query?["variables"] as? [String: Any])?["id"] as? Int == 7, "\(String(describing: query))")
        // (the collection's test ran after each of the six requests before, the folder's and the request's last)
        #expect(echoes["order"]?.query.first { $0.name == "after" }?.value
                    == "start,collection,collection,collection,collection,collection,collection,folder,request")
        let report = imported.stdout + imported.stderr
        #expect(report.contains("get with body: the body of a GET request is left out"), "\(report)")
    }
}
