import CourierTestSupport
import CourierDemo
import Foundation
import Testing

/// A `courier run` whose every request has scripts, more of them than JavaScriptCore groups are kept
/// between scripts, with the cookie jar on: what the server received proves each script ran with the
/// library loaded and that sends and the jar still work after them. Run against the release binary
/// (`make test-release`) it is the check that an optimised, statically linked build runs scripts at all.
@Suite struct ScriptsThroughoutRunTests {
    @Test func everyRequestRunsItsScriptsAndTheRunGoesOnWithCookiesAndSends() async throws {
        // Given a login whose handler saves a value, then six requests that each run a pre-request script
        // and a response handler, one plain request last, and the cookie jar of environment dev
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let url = server.baseURL.absoluteString
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        try folder.write("http-client.env.json", #"{"dev": {"base": "\#(base)"}}"#)
        var text = """
            ### login
            POST {{base}}/session/login
            Content-Type: application/json

            {"username": "ada"}

            > {% client.global.set("count", "0"); %}

            """
        for step in 1...6 {
            text += """
                ### step \(step)
                < {% request.variables.set("step", String(Number(client.global.get("count")) + 1)); %}
                GET {{base}}/echo?step={{step}}

                > {%
                    client.global.set("count", String(Number(client.global.get("count")) + 1));
                    client.test("step \(step) answers 200", () => client.assert(response.status === 200));
                %}

                """
        }
        text += """
            ### me
            GET {{base}}/session/me
            X-Count: {{count}}

            """
        try folder.write("steps.http", text)
        let state = folder.url.appendingPathComponent("state")
        // When it runs
        let result = try await CourierCLI.run(["run", "steps.http", "--env", "dev"], in: folder.url,
                                              environment: ["XDG_STATE_HOME": state.path])
        // Then every script ran, in order, each seeing what the one before it saved
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect((1...6).allSatisfy { result.stdout.contains("✓ step \($0) answers 200") }, "\(result.stdout)")
        let steps = server.log.filter { $0.path == "/echo" }
            .map { $0.query.first { $0.name == "step" }?.value }
        #expect(steps == ["1", "2", "3", "4", "5", "6"])
        // And the request after them went out with the saved value and the login's cookie, signed in
        let me = try #require(server.log.first { $0.path == "/session/me" })
        #expect(me.header("X-Count") == "6")
        #expect(me.header("Cookie")?.hasPrefix("courier_session=demo-") == true)
        #expect(me.status == 200)
        // And the jar was saved
        let jar = state.appendingPathComponent("courier/cookies/dev.json")
        #expect(FileManager.default.fileExists(atPath: jar.path))
    }
}
