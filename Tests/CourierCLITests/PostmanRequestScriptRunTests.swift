import CourierDemo
import CourierTestSupport
import Foundation
import Testing

/// Postman's `pm.request` as a pre-request script sees it (the URL as written, `{{variables}}` and all; a
/// form-data body's fields; a GraphQL body), what the server receives once the script changes it, and the
/// words a failing test reports, as Postman's sandbox words them, and a line for each request a script sent,
/// run by `courier run` against the demo server.
@Suite("courier run: Postman's pm.request and its messages", .serialized)
struct PostmanRequestScriptRunTests {
    @Test func preRequestScriptsReadTheRequestAsWrittenAndTheServerReceivesTheirChanges() async throws {
        // Given a collection whose scripts read the URL before its variables are filled in, change form-data
        // fields and a GraphQL query, and tests that fail in the ways collections commonly do
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let url: [String: Any] = ["raw": "{{baseUrl}}/users/:id", "host": ["{{baseUrl}}"], "path": ["users", ":id"],
                                  "variable": [["key": "id", "value": "1"]]]
        var raw = PostmanExports.item("raw url", "", pre: [
            "pm.test('raw url', () => pm.expect(pm.request.url.toString()).to.equal('{{baseUrl}}/users/{{id}}'));",
            "pm.test('raw host', () => pm.expect(pm.request.url.getHost()).to.equal('{{baseUrl}}'));",
            "pm.request.url.query.add('seen=1');",
        ], tests: [
            "pm.test('sent url', () => pm.expect(pm.request.url.toString()).to.equal(pm.variables.get('baseUrl') + '/users/1?seen=1'));",
        ])
        raw["request"] = (raw["request"] as? [String: Any] ?? [:]).merging(["url": url]) { $1 }
        let form: [String: Any] = ["mode": "formdata", "formdata": [["key": "a", "value": "1", "type": "text"],
                                                                    ["key": "b", "value": "2", "type": "text"]]]
        let graphql: [String: Any] = ["mode": "graphql", "graphql": ["query": "query { me }", "variables": #"{"x": 1}"#]]
        let collection = PostmanExports.collection("Requests", variables: [("baseUrl", ScriptRunTests.base(server)),
                                                                           ("who", "ada")], items: [
            raw,
            PostmanExports.item("formdata", "{{baseUrl}}/echo?case=form", method: "POST", body: form, pre: [
                "pm.test('formdata read', () => { pm.expect(pm.request.body.mode).to.equal('formdata');",
                "  pm.expect(pm.request.body.formdata.get('a')).to.equal('1'); });",
                "pm.request.body.formdata.upsert({key: 'a', value: 'changed'});",
                "pm.request.body.formdata.remove('b');",
                "pm.request.body.formdata.add({key: 'c', value: '{{who}}'});",
            ]),
            PostmanExports.item("graphql", "{{baseUrl}}/echo?case=gql", method: "POST", body: graphql, pre: [
                "pm.test('graphql read', () => pm.expect(pm.request.body.graphql.query).to.equal('query { me }'));",
                "pm.request.body.update({mode: 'graphql', graphql: {query: 'query { you }'}});",
                "pm.sendRequest(pm.variables.get('baseUrl') + '/echo?side=1&token=hush', () => {});",
            ]),
            PostmanExports.item("words", "{{baseUrl}}/chaos/escape", tests: [
                "pm.test('not json', () => pm.response.json());",
                "pm.test('property', () => pm.expect({a: 1}).to.have.property('b'));",
                "pm.test('long', () => pm.expect({alpha: 1, beta: 2, gamma: 3, delta: 4}).to.eql([]));",
                "pm.test('header', () => pm.response.to.have.header('X-Nope'));",
            ]),
        ])

        // When it is imported and run
        let (imported, run) = try await PostmanExports.importAndRun([("requests", collection)], in: folder,
                                                                    file: "Requests.http")
        #expect(imported.status == 0, "\(imported.stderr)")
        let output = run.stdout + run.stderr

        // Then the scripts saw the URL as written, and the server received what they changed
        for name in ["raw url", "raw host", "sent url", "formdata read", "graphql read"] {
            #expect(output.contains("✓ \(name)"), "\(output)")
        }
        #expect(server.log.contains { $0.path == "/users/1" && $0.query.map(\.name) == ["seen"] }, "\(output)")
        let echoes = server.log.filter { $0.path == "/echo" }
        let formBody = String(decoding: try #require(echoes.first { $0.query.first?.value == "form" }).bodyPrefix,
                              as: UTF8.self)
        #expect(formBody.contains("name=\"a\"\r\n\r\nchanged\r\n"), "\(formBody)")
        #expect(formBody.contains("name=\"c\"\r\n\r\nada\r\n"), "\(formBody)")
        #expect(!formBody.contains("name=\"b\""), "\(formBody)")
        let query = try #require(echoes.first { $0.query.first?.value == "gql" })
        #expect(String(decoding: query.bodyPrefix, as: UTF8.self) == #"{"query":"query { you }"}"#)
        // And the request the script sent is in the output, its token masked
        let side = "log: pm.sendRequest GET \(ScriptRunTests.base(server))/echo?side=1&token=REDACTED: 200 in "
        #expect(output.contains(side), "\(output)")
        #expect(!output.contains("hush"), "\(output)")
        // And failing tests read as Postman's do
        #expect(output.contains("✗ not json: JSONError: Unexpected token 'H' at 1:1"), "\(output)")
        #expect(output.contains("✗ property: expected { a: 1 } to have property 'b'"), "\(output)")
        #expect(output.contains("✗ long: expected { Object (alpha, beta, ...) } to deeply equal []"), "\(output)")
        #expect(output.contains("✗ header: expected response to have header with key 'X-Nope'"), "\(output)")
    }

    @Test func theCookieJarIsTheOneTheRunsRequestsSendAndKeep() async throws {
        // Given a sign-in that sets a session cookie, then scripts that read it from the jar, set, unset and clear
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let base = ScriptRunTests.base(server)
        let collection = PostmanExports.collection("Jar", variables: [("baseUrl", base)], items: [
            PostmanExports.item("sign in", "{{baseUrl}}/session/login", method: "POST",
                                headers: [("Content-Type", "application/json")],
                                body: ["mode": "raw", "raw": #"{"username": "ada"}"#]),
            PostmanExports.item("set", "{{baseUrl}}/echo?case=set", pre: [
                "const jar = pm.cookies.jar(), url = pm.variables.get('baseUrl');",
                "jar.get(url, 'courier_session', (err, value) => pm.test('read', () => pm.expect(value).to.have.lengthOf.above(0)));",
                "jar.set(url, 'extra', '42', (err, cookie) => pm.test('set', () => pm.expect(cookie.value).to.equal('42')));",
                "jar.getAll(url, (err, all) => pm.test('all', () => pm.expect(all.map(c => c.name)).to.have.members(['courier_session', 'extra'])));",
                "jar.set('mailto:ada', 'x', '1', (err) => pm.test('not a URL', () => pm.expect(err.message).to.include('not an http')));",
                "jar.set(pm.variables.get('nowhere'), 'x', '1', (err) => pm.test('unset URL', () => pm.expect(err.message).to.include('is the variable it came from set?')));",
            ]),
            PostmanExports.item("unset", "{{baseUrl}}/echo?case=unset",
                                pre: ["pm.cookies.jar().unset(pm.variables.get('baseUrl'), 'extra');"]),
            PostmanExports.item("clear", "{{baseUrl}}/echo?case=clear",
                                pre: ["pm.cookies.jar().clear(pm.variables.get('baseUrl'), err => pm.test('cleared', () => pm.expect(err).to.equal(null)));"]),
        ])
        // When it is imported and run with a cookie jar of its own
        let state = folder.url.appendingPathComponent("state").path
        let (_, run) = try await PostmanExports.importAndRun([("jar", collection)], in: folder, file: "Jar.http",
                                                             environment: ["XDG_STATE_HOME": state])
        let output = run.stdout + run.stderr
        #expect(run.status == 0, "\(output)")
        // Then the scripts read the cookie the sign-in set, and what they set, unset and cleared is what went out
        for name in ["read", "set", "all", "not a URL", "unset URL", "cleared"] { #expect(output.contains("✓ \(name)"), "\(output)") }
        func cookie(_ name: String) -> String? {
            server.log.first { $0.path == "/echo" && $0.query.first?.value == name }?.header("Cookie")
        }
        #expect(cookie("set")?.contains("extra=42") == true, "\(String(describing: cookie("set")))")
        #expect(cookie("set")?.contains("courier_session=") == true)
        #expect(cookie("unset")?.contains("extra") == false, "\(String(describing: cookie("unset")))")
        #expect(cookie("unset")?.contains("courier_session=") == true)
        #expect(cookie("clear") == nil)
    }
}
