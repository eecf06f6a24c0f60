import CourierMessage
import Testing
@testable import CourierScript

/// httpyac's script API on JavaScriptCore: variables as globals, `exports`, httpyac's `request` and
/// `response`, `test()` and Node's `assert`, `await` at the top level, errors at the file's line.
@Suite struct HttpyacScriptTests {
    static let request = ScriptRequest(name: "login", method: "POST", rawURL: "{{base}}/login",
                                       url: "http://127.0.0.1:1/login",
                                       headers: [.init(name: "X-Trace", raw: "{{trace}}", value: "t-1")],
                                       rawBody: "{\"user\": \"{{user}}\"}", body: #"{"user": "ada"}"#)

    func run(_ code: String, response: ScriptResponse? = nil, scope: [String: String] = [:],
             globals: [String: String] = [:]) -> ScriptResult {
        // Scripts that await run in a script process, as in courier.
        ScriptProcessTests.useBuiltCourier()
        var input = ScriptInput(phase: response == nil ? .preRequest : .response, request: Self.request,
                                response: response, globals: globals)
        input.dialect = .httpyac
        input.scope = scope
        input.file = "/work/api.http"
        input.folder = "/work"
        return ScriptEngine.run(ScriptSource(code: code, file: "api.http", line: 20), input: input)
    }

    static let json = ScriptResponse(status: 201, headers: [HTTPHeaders.Field("Content-Type", "application/json"),
                                                            HTTPHeaders.Field("Set-Cookie", "a=1"),
                                                            HTTPHeaders.Field("set-cookie", "b=2")],
                                      body: #"{"token":"abc","items":[1,2]}"#, milliseconds: 12)

    @Test func variablesAreGlobalsAndExportsBecomeGlobalsForLaterRequests() {
        let result = run("""
            exports.sum = count + 1;
            exports.user = profile.name;
            exports.list = [user, base];
            exports.nothing = undefined;
            """, scope: ["count": "41", "profile": #"{"name": "ada"}"#, "user": "ada", "base": "http://x",
                         "request": "must not replace httpyac's request"], globals: ["nothing": "was set"])
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.globals["sum"] == "411", "variables are text, as httpyac's environment strings are")
        #expect(result.globals["user"] == "ada")
        #expect(result.globals["list"] == #"["ada","http://x"]"#)
        #expect(result.globals["nothing"] == nil, "exporting undefined removes a variable")
    }

    @Test func aPreRequestScriptChangesTheRequestItSees() {
        let result = run("""
            console.log(request.method, request.url, request.headers["X-Trace"], JSON.parse(request.body).user);
            request.headers["Authorization"] = "Bearer " + token;
            request.url = request.url + "?signed=1";
            request.body = JSON.stringify({ user: "grace" });
            """, scope: ["token": "abc"])
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.logs == ["POST http://127.0.0.1:1/login t-1 ada"])
        #expect(result.headers == [HTTPHeaders.Field("X-Trace", "t-1"), HTTPHeaders.Field("Authorization", "Bearer abc")])
        #expect(result.url == "http://127.0.0.1:1/login?signed=1")
        #expect(result.body == #"{"user":"grace"}"#)
        #expect(result.method == nil)
    }

    @Test func aResponseScriptReadsHttpyacsResponseAndTestsAtOnce() {
        let result = run("""
            const assert = require("assert");
            test("created", () => assert.strictEqual(response.statusCode, 201));
            test("token", () => assert.equal(response.parsedBody.token, "nope"));
            test.status(200);
            test.headerContains("content-type", "json");
            test.hasResponseBody();
            console.info(response.headers["set-cookie"].length, response.contentType.mimeType, response.timings.total);
            exports.first = response.parsedBody.items[0];
            """, response: Self.json)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.tests.map(\.name) == ["created", "token", "response status equals to 200",
                                             "response header content-type contains json", "response body exists"])
        #expect(result.tests.map(\.passed) == [true, false, false, true, true])
        #expect(result.tests[1].message.contains("nope"))
        #expect(result.logs == ["2 application/json 12"])
        #expect(result.globals["first"] == "1")
    }

    @Test func awaitWorksAtTheTopAndAnErrorAfterItNamesItsLine() {
        let result = run("""
            await sleep(10);
            const value = await Promise.resolve(3);
            exports.value = value;
            undefinedFunction();
            """)
        #expect(result.globals["value"] == "3")
        #expect(result.error?.line == 23, "\(String(describing: result.error))")
        #expect(result.error?.message.contains("undefinedFunction") == true)
    }

    @Test func requireOfAModuleNotOnTheListIsAClearError() {
        let result = run("const pad = require('left-pad');\n")
        #expect(result.error?.reason == .unsupported)
        #expect(result.error?.message.contains("require('left-pad') is not supported by Courier") == true)
        #expect(result.error?.line == 20)
    }

    @Test func requireGivesNodesCryptoAndTheSandboxsLibraries() {
        let result = run("""
            const crypto = require('crypto');
            exports.hmac = crypto.createHmac('sha256', 'key').update('data').digest('hex');
            exports.md5 = crypto.createHash('md5').update(new Uint8Array([97, 98, 99])).digest('base64');
            exports.url = crypto.createHash('sha256').update('').digest('base64url');
            exports.upper = require('lodash').toUpper('abc');
            exports.uuid = crypto.randomUUID().length;
            exports.keyed = crypto.createHmac('sha1', new Uint8Array([107, 101, 121])).update('data').digest('hex');
            """)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.globals["hmac"] == "5031fe3d989c6d1537a013fa6e739da23463fdaec3b70137d828e36ace221bd0")
        #expect(result.globals["md5"] == "kAFQmDzST7DWlj99KOF/cg==")
        #expect(result.globals["url"] == "47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU")
        #expect(result.globals["upper"] == "ABC")
        #expect(result.globals["uuid"] == "36")
        #expect(result.globals["keyed"] == "104152c5bfdca07bc633eebd46199f0255c9f49d")
    }

    @Test func cancelAndGlobalStoreAreReadBack() {
        let result = run("$global.seen = { n: 1 }; exports.$cancel = true;")
        #expect(result.cancelled)
        #expect(result.globals["seen"] == #"{"n":1}"#)
        #expect(result.globals["$cancel"] == nil)
    }
}
