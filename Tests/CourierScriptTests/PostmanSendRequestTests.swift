import CourierMessage
import CourierTestSupport
import Foundation
import Synchronization
import Testing
@testable import CourierScript

/// `pm.sendRequest` with a stub sender in place of Courier's client: what the script describes is what is
/// sent, the callback runs after the script's body with the response or the error, and tests it registers
/// count; `pm.variables.replaceIn` fills in dynamic variables.
@Suite struct PostmanSendRequestTests {
    /// A sender that records what it is asked and answers `reply`.
    final class StubSender: Sendable {
        let sent = Mutex<[ScriptOutgoingRequest]>([])
        let reply: Result<ScriptResponse, ScriptSendFailure>
        init(_ reply: Result<ScriptResponse, ScriptSendFailure>) { self.reply = reply }
        var services: ScriptServices {
            ScriptServices(send: { request in
                self.sent.withLock { $0.append(request) }
                return self.reply
            }, dynamicValue: { $0 == "$randomInt" ? "42" : $0 == "$guid" ? "g-1" : nil })
        }
        var requests: [ScriptOutgoingRequest] { sent.withLock { $0 } }
    }

    static let echo = ScriptResponse(status: 201, headers: [HTTPHeaders.Field("Content-Type", "application/json")],
                                     body: #"{"query":{"from":"x"}}"#, milliseconds: 9)

    func run(_ code: String, sender: StubSender, phase: ScriptPhase = .response) -> ScriptResult {
        var input = ScriptInput(phase: phase, request: ScriptRequest(method: "GET", rawURL: "http://h/"),
                                response: phase == .response ? ScriptResponse(status: 200) : nil)
        input.services = sender.services
        return ScriptEngine.run(ScriptSource(code: code, file: "c.http", line: 10), input: input)
    }

    @Test func aURLIsSentAndTheCallbackRunsAfterTheBodyWithTheResponse() {
        let sender = StubSender(.success(Self.echo))
        let result = run("""
            pm.sendRequest("http://127.0.0.1:9/echo?from=x", (err, res) => {
                console.log("callback", err, res.code, res.status, res.responseTime, res.headers.get("content-type"));
                pm.collectionVariables.set("sr", res.json().query.from);
                pm.test("sent", () => pm.expect(res).to.have.status(201));
            });
            console.log("body");
            """, sender: sender)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.logs == ["body", "callback null 201 Created 9 application/json"])
        #expect(result.globals["sr"] == "x")
        #expect(result.tests.map(\.name) == ["sent"] && result.tests.allSatisfy(\.passed))
        #expect(sender.requests == [ScriptOutgoingRequest(method: "GET", url: "http://127.0.0.1:9/echo?from=x")])
    }

    @Test func aRequestObjectSendsItsMethodHeadersAndBodyInEachMode() {
        let sender = StubSender(.success(Self.echo))
        let result = run("""
            pm.sendRequest({ url: "http://h/raw", method: "post", header: [{ key: "X-A", value: "1" },
                             { key: "X-Off", value: "0", disabled: true }],
                             body: { mode: "raw", raw: '{"a":1}', options: { raw: { language: "json" } } } }, () => {});
            pm.sendRequest({ url: { raw: "http://h/form" }, method: "PUT", header: { "X-B": "2" },
                             body: { mode: "urlencoded", urlencoded: [{ key: "a b", value: "c&d" }, { key: "n", value: 1 }] } },
                           () => {});
            pm.sendRequest({ url: "http://h/gql", method: "POST",
                             body: { mode: "graphql", graphql: { query: "{ me }", variables: '{"v":1}' } } }, () => {});
            """, sender: sender, phase: .preRequest)
        #expect(result.error == nil, "\(String(describing: result.error))")
        let sent = sender.requests
        #expect(sent.count == 3)
        #expect(sent.first == ScriptOutgoingRequest(method: "POST", url: "http://h/raw",
                                                    headers: [HTTPHeaders.Field("X-A", "1"),
                                                              HTTPHeaders.Field("Content-Type", "application/json")],
                                                    body: #"{"a":1}"#))
        #expect(sent.dropFirst().first == ScriptOutgoingRequest(
            method: "PUT", url: "http://h/form",
            headers: [HTTPHeaders.Field("X-B", "2"),
                      HTTPHeaders.Field("Content-Type", "application/x-www-form-urlencoded")],
            body: "a%20b=c%26d&n=1"))
        #expect(sent.last?.body == #"{"query":"{ me }","variables":{"v":1}}"#)
    }

    @Test func formDataIsSentAsMultipartWithItsBoundary() throws {
        let sender = StubSender(.success(Self.echo))
        let result = run("""
            pm.sendRequest({ url: "http://h/up", method: "POST",
                             body: { mode: "formdata", formdata: [{ key: "name", value: "ada" }] } }, () => {});
            """, sender: sender)
        #expect(result.error == nil, "\(String(describing: result.error))")
        let request = try #require(sender.requests.first)
        let type = try #require(request.headers["Content-Type"])
        let boundary = try #require(type.split(separator: "=").last.map(String.init))
        #expect(type.hasPrefix("multipart/form-data; boundary="))
        #expect(request.body == "--\(boundary)\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nada\r\n"
                    + "--\(boundary)--\r\n")
    }

    @Test func aFailedSendReachesTheCallbackAsAnError() {
        let sender = StubSender(.failure(ScriptSendFailure("cannot connect to 127.0.0.1:9: connection refused")))
        let result = run("""
            pm.sendRequest("http://127.0.0.1:9/", function (err, res) {
                pm.test("refused", () => pm.expect(err.message).to.include("connection refused"));
                console.log(res);
            });
            """, sender: sender)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.tests.map(\.passed) == [true])
        #expect(result.logs == ["null"])
    }

    @Test func anErrorThrownInTheCallbackIsTheScriptsErrorOnItsLine() {
        let sender = StubSender(.success(Self.echo))
        let result = run("pm.sendRequest('http://h/', (err, res) => {\n  res.nothing.here;\n});", sender: sender)
        #expect(result.error?.line == 11, "\(String(describing: result.error))")
    }

    @Test func replaceInFillsInDynamicVariablesAndLeavesUnknownOnes() {
        let result = run("""
            pm.collectionVariables.set("name", "ada");
            console.log(pm.variables.replaceIn("{{name}} {{$randomInt}} {{ $guid }} {{$nothing}} {{missing}}"));
            """, sender: StubSender(.success(Self.echo)))
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.logs == ["ada 42 g-1 {{$nothing}} {{missing}}"])
    }

    @Test func withoutACallbackItIsAPromiseThatAScriptProcessAwaitsAskingCourierToSend() {
        // Given a script that awaits pm.sendRequest (so it runs in a script process) and reads a dynamic variable
        ScriptProcessTests.useBuiltCourier()
        let sender = StubSender(.success(Self.echo))
        let result = run("""
            (async () => {
                const res = await pm.sendRequest({ url: "http://h/p", method: "DELETE" });
                pm.collectionVariables.set("from", res.json().query.from);
                pm.test("awaited", () => pm.expect(res.code).to.equal(201));
                console.log(pm.variables.replaceIn("{{$guid}}"));
            })();
            """, sender: sender)
        // Then the parent sent it, and the script read the response after its await
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(sender.requests == [ScriptOutgoingRequest(method: "DELETE", url: "http://h/p")])
        #expect(result.globals["from"] == "x")
        #expect(result.tests.map(\.passed) == [true])
        #expect(result.logs == ["g-1"])
    }

    @Test func aRefusedPromiseInAScriptProcessCarriesTheMessage() {
        ScriptProcessTests.useBuiltCourier()
        let result = run("""
            pm.sendRequest("http://127.0.0.1:9/").then(() => console.log("no"), (err) => console.log("err", err.message));
            """, sender: StubSender(.failure(ScriptSendFailure("connection refused"))))
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.logs == ["err connection refused"])
    }

    @Test func withoutASenderItSaysItIsUnsupported() {
        var input = ScriptInput(phase: .preRequest, request: ScriptRequest(method: "GET", rawURL: "http://h/"))
        input.services = ScriptServices()
        let result = ScriptEngine.run(ScriptSource(code: "pm.sendRequest('http://h/', () => {});", file: "c.http",
                                                   line: 1), input: input)
        #expect(result.error?.reason == .unsupported)
        #expect(result.error?.message == "Unsupported: pm.sendRequest is not supported by Courier",
                "\(String(describing: result.error))")
    }
}
