import CourierMessage
import Foundation
import Testing
@testable import CourierScript

/// `pm`, `require` and the legacy names that need `pm` (`responseCode`, `responseCookies`, `postman`'s
/// getters) are built on first use. A script must not be able to tell, except by asking for the property's
/// descriptor: each name is there before it is read, reads as it did when it was built up front, and a
/// script that assigns or declares one first keeps its own.
@Suite("Postman globals built on first use")
struct PostmanLazyGlobalsTests {
    func run(_ code: String, phase: ScriptPhase = .response, dialect: ScriptDialect = .jetBrains) -> ScriptResult {
        let request = ScriptRequest(name: "login", method: "POST", rawURL: "{{base}}/login", url: "http://h.test/login",
                                    headers: [.init(name: "Accept", raw: "*/*", value: "*/*")])
        let response = ScriptResponse(status: 201, headers: ["Content-Type": "application/json",
                                                             "Set-Cookie": "sid=abc; Path=/"],
                                      body: #"{"token": "t1"}"#, milliseconds: 3)
        var input = ScriptInput(phase: phase, request: request, response: phase == .response ? response : nil,
                                environment: ["who": "ada"])
        input.dialect = dialect
        return ScriptEngine.run(ScriptSource(code: code, file: "t.js", line: 1), input: input)
    }

    func failures(_ result: ScriptResult) -> [String] {
        #expect(result.error == nil, "\(String(describing: result.error))")
        return result.tests.filter { !$0.passed }.map { "\($0.name): \($0.message)" }
    }

    @Test func aScriptThatNeverNamesPmLeavesItUnbuilt() {
        let result = run("""
            client.test("pm waits", () => client.assert(Object.getOwnPropertyDescriptor(globalThis, "pm").get !== undefined));
            client.test("require waits", () => client.assert(Object.getOwnPropertyDescriptor(globalThis, "require").get !== undefined));
            client.test("the JetBrains API", () => client.assert(response.body.token === "t1"));
            """)
        #expect(failures(result) == [])
        #expect(result.tests.count == 3)
    }

    @Test func theFirstReadBuildsItAndItThenStaysAPlainValue() {
        let result = run("""
            const first = pm;
            const described = Object.getOwnPropertyDescriptor(globalThis, "pm");
            client.test("same object", () => client.assert(first === pm && described.value === pm));
            client.test("as a global", () => client.assert(described.writable && described.enumerable && described.configurable));
            client.test("listed", () => client.assert(Object.keys(globalThis).indexOf("pm") >= 0));
            pm.test("pm works", () => pm.expect(pm.response.code).to.eql(201));
            pm.environment.set("token", pm.response.json().token);
            client.test("typeof", () => client.assert(typeof require === "function" && typeof pm === "object"));
            """)
        #expect(failures(result) == [])
        #expect(result.tests.count == 5)
        #expect(result.globals["token"] == "t1")
    }

    @Test func aScriptsOwnPmOrRequireIsKept() {
        let result = run("""
            var pm = { mine: true };
            require = function () { return "own"; };
            client.test("own pm", () => client.assert(pm.mine === true));
            client.test("own require", () => client.assert(require("x") === "own"));
            """)
        #expect(failures(result) == [])
        let declared = run("""
            let pm = 3;
            client.test("let", () => client.assert(pm === 3));
            """)
        #expect(failures(declared) == [])
    }

    @Test func legacyNamesReadAsTheyDidWhenBuiltUpFront() {
        let result = run("""
            tests["code"] = responseCode.code === 201 && responseCode.name === "Created" && responseCode.detail === "Created";
            tests["cookies"] = responseCookies.length === 1 && responseCookies[0].name === "sid";
            tests["postman"] = postman.getEnvironmentVariable("who") === "ada" && postman.getResponseHeader("content-type") === "application/json";
            tests["body"] = JSON.parse(responseBody).token === "t1" && responseTime === 3;
            tests["request"] = request.url.indexOf("/login") > 0 && request.name === "login";
            tests["CryptoJS"] = CryptoJS.MD5("a").toString() === "0cc175b9c0f1b6a831c399e269772661";
            """)
        #expect(failures(result) == [])
        #expect(result.tests.count == 6)
    }

    @Test func pmFirstReadInATimerOrATestStillWorks() {
        let result = run("""
            setTimeout(() => pm.globals.set("late", "yes"), 0);
            client.test("in a test", () => client.assert(pm.response.code === 201));
            """)
        #expect(failures(result) == [])
        #expect(result.globals["late"] == "yes")
        let changed = run("""
            setTimeout(() => pm.request.headers.add({key: "X-Late", value: "1"}), 0);
            """, phase: .preRequest)
        #expect(changed.error == nil)
        #expect(changed.headers?["X-Late"] == "1")
    }

    @Test func pmRequestAndCookiesAreMadeOnFirstReadAndAChangeStillGoesBack() {
        let result = run("""
            const waiting = Object.getOwnPropertyDescriptor(pm, "request").get !== undefined
              && Object.getOwnPropertyDescriptor(pm, "cookies").get !== undefined;
            pm.globals.set("waiting", String(waiting));
            pm.request.url.query.add({ key: "q", value: "1" });
            pm.request.method = "PUT";
            pm.globals.set("same", String(pm.request === pm.request && pm.cookies === pm.cookies));
            """, phase: .preRequest)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.globals["waiting"] == "true")
        #expect(result.globals["same"] == "true")
        #expect(result.url?.hasSuffix("/login?q=1") == true, "\(String(describing: result.url))")
        #expect(result.method == "PUT")
        let untouched = run("pm.globals.set('x', '1');", phase: .preRequest)
        #expect(untouched.error == nil && untouched.url == nil && untouched.method == nil)
    }

    @Test func httpyacKeepsItsOwnRequire() {
        let result = run("""
            const assert = require("assert");
            assert.equal(response.statusCode, 201);
            test("pm is there too", () => assert.ok(typeof pm === "object" && pm.response.code === 201));
            """, dialect: .httpyac)
        #expect(failures(result) == [])
        #expect(result.tests.count == 1)
    }
}
