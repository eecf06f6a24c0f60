import CourierTestSupport
import Foundation
import Testing

/// Collections written for Postman's legacy sandbox (before `pm`), imported and run: what the server received
/// and how their tests report.
@Suite("Postman legacy sandbox")
struct PostmanLegacySandboxTests {
    @Test func legacyGlobalsReadTheResponseSetVariablesAndReportTestsAsPostmanDoes() async throws {
        // Given a login whose legacy test script reads responseBody, responseCode and responseHeaders and stores
        // a token with postman.setEnvironmentVariable, and a request whose pre-request script reads the legacy
        // request (url as a string, headers by name, form data) and signs with CryptoJS
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let collection = PostmanExports.collection("Legacy", variables: [("base", server.base)], items: [
            PostmanExports.item("login", "{{base}}/login", method: "POST", tests: [
                "var data = JSON.parse(responseBody);",
                "tests['status code is 200'] = responseCode.code === 200;",
                "tests['reason is OK'] = responseCode.name === 'OK';",
                "tests['has token'] = responseBody.has('t0k');",
                "tests['json header'] = responseHeaders['Content-Type'] === 'application/json';",
                "tests['header by name'] = postman.getResponseHeader('content-type') === 'application/json';",
                "tests['time is a number'] = typeof responseTime === 'number';",
                "tests['zero is falsy'] = 0;",
                "postman.setEnvironmentVariable('token', data.token);",
                "postman.setGlobalVariable('tries', 1 + 1);",
            ]),
            PostmanExports.item("order", "{{base}}/orders?id=7", method: "POST",
                                headers: [("Content-Type", "application/x-www-form-urlencoded"), ("X-Kind", "gift")],
                                body: ["mode": "urlencoded", "urlencoded": [["key": "item", "value": "tea cup"],
                                                                           ["key": "qty", "value": "2"]]],
                                pre: [
                                    "var query = request.url.split('?')[1];",
                                    "var message = 'The quick brown fox jumps over the lazy dog';",
                                    "postman.setEnvironmentVariable('sig', CryptoJS.HmacSHA256(message, 'key').toString());",
                                    "postman.setEnvironmentVariable('seen', [query, request.headers['X-Kind'],",
                                    "  request.data.item, request.data.qty, request.method, environment.token,",
                                    "  globals.tries, iteration].join('|'));",
                                ]),
        ])
        let extra = [("Authorization", "Bearer {{token}}"), ("X-Signature", "{{sig}}"), ("X-Seen", "{{seen}}")]
        var order = (collection["item"] as! [[String: Any]])[1]
        var request = order["request"] as! [String: Any]
        request["header"] = (request["header"] as! [[String: String]]) + extra.map { ["key": $0.0, "value": $0.1] }
        order["request"] = request
        var withHeaders = collection
        withHeaders["item"] = [(collection["item"] as! [[String: Any]])[0], order]
        // When it is imported and run
        let (imported, run) = try await PostmanExports.importAndRun([("legacy", withHeaders)], in: folder,
                                                                    file: "Legacy.http", arguments: ["--json"])
        // Then the second request carried what the legacy scripts set and read
        #expect(imported.status == 0, "\(imported.stderr)")
        let received = try #require(server.requests.last)
        #expect(received.requestLine == "POST /orders?id=7 HTTP/1.1")
        #expect(received.header("Authorization") == "Bearer t0k")
        #expect(received.header("X-Signature") == "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8")
        #expect(received.header("X-Seen") == "id=7|gift|tea cup|2|POST|t0k|2|0")
        #expect(received.bodyText == "item=tea%20cup&qty=2")
        // And each tests[…] is a test, a falsy one failing as Postman words it
        let objects = run.stdout.split(separator: "\n").compactMap { try? CourierCLI.json(String($0)) }
        let tests = try #require(objects.first?["tests"] as? [[String: Any]])
        #expect(tests.map { $0["name"] as? String } == ["status code is 200", "reason is OK", "has token", "json header",
                                                       "header by name", "time is a number", "zero is falsy"])
        #expect(tests.map { $0["passed"] as? Bool } == [true, true, true, true, true, true, false])
        #expect(tests.last?["message"] as? String == "expected 0 to be truthy")
        #expect(run.status == 1)
    }

    @Test func xml2JsonReadsAnXMLResponseAsThePostmanSandboxDoes() async throws {
        // Given a server answering XML and a legacy test reading it with xml2Json
        let server = try LoopbackServer { request in
            if request.path == "/feed" {
                return .init(headers: [("Content-Type", "application/xml")],
                             body: Data("<feed version=\"2\"><entry>  one </entry><title>News</title></feed>".utf8))
            }
            return .json("{}")
        }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let collection = PostmanExports.collection("Feed", variables: [("base", server.baseURL.absoluteString)], items: [
            PostmanExports.item("feed", "{{base}}/feed", tests: [
                "var json = xml2Json(responseBody);",
                "postman.setEnvironmentVariable('title', json.feed.title);",
                "postman.setEnvironmentVariable('entry', json.feed.entry);",
                "postman.setEnvironmentVariable('version', json.feed.$.version);",
            ]),
            PostmanExports.item("next", "{{base}}/next?t={{title}}&e={{entry}}&v={{version}}"),
        ])
        let (_, run) = try await PostmanExports.importAndRun([("feed", collection)], in: folder, file: "Feed.http")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let next = try #require(server.requests.last)
        #expect(next.path == "/next")
        #expect(next.query == "t=News&e=one&v=2")
    }

    @Test func setNextRequestJumpsLoopsAndStopsTheRun() async throws {
        // Given requests that poll until a counter reaches three, skip one, then stop before the last
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let collection = PostmanExports.collection("Flow", variables: [("base", server.base)], items: [
            PostmanExports.item("poll", "{{base}}/poll", tests: [
                "var n = Number(pm.environment.get('n') || 0) + 1;",
                "pm.environment.set('n', n);",
                "if (n < 3) { postman.setNextRequest('poll'); } else { pm.execution.setNextRequest('report'); }",
            ]),
            PostmanExports.item("skipped", "{{base}}/skipped"),
            PostmanExports.item("report", "{{base}}/report?n={{n}}", tests: ["postman.setNextRequest(null);"]),
            PostmanExports.item("never", "{{base}}/never"),
        ])
        // When it runs
        let (_, run) = try await PostmanExports.importAndRun([("flow", collection)], in: folder, file: "Flow.http")
        // Then the server saw the polls, the report and nothing else
        #expect(server.requests.map(\.target) == ["/poll", "/poll", "/poll", "/report?n=3"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
    }

    @Test func setNextRequestToANameTheFileLacksStopsThatFileWithAnError() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let collection = PostmanExports.collection("Lost", variables: [("base", server.base)], items: [
            PostmanExports.item("first", "{{base}}/first", tests: ["postman.setNextRequest('nowhere');"]),
            PostmanExports.item("second", "{{base}}/second"),
        ])
        let (_, run) = try await PostmanExports.importAndRun([("lost", collection)], in: folder, file: "Lost.http")
        #expect(server.requests.map(\.target) == ["/first"])
        #expect(run.status == 3)
        #expect((run.stdout + run.stderr).contains("postman.setNextRequest('nowhere') in 'first': no request of that "
                                                   + "name"), "\(run.stdout)\(run.stderr)")
    }
}
