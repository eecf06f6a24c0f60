import CourierMessage
import Foundation
import Testing
@testable import CourierScript

/// Postman's sandbox API section by section (its reference and postman-sandbox's unit specs): chai's BDD
/// chains, the response assertions Postman adds, `pm.request` changes read back for the send, `pm.cookies`,
/// `pm.info`, `pm.execution`, `pm.visualizer` and `pm.require`, run on JavaScriptCore as a script runs them.
@Suite("Postman sandbox: the pm API")
struct PostmanSandboxAPITests {
    static let json = #"{"id": 7, "user": {"name": "ada", "roles": ["a", "b"]}, "items": [{"n": 1}, {"n": 2}]}"#

    func response(_ code: String, status: Int = 200, body: String = json,
                  headers: HTTPHeaders = ["Content-Type": "application/json"]) -> ScriptResult {
        let request = ScriptRequest(name: "Users / list", method: "GET", rawURL: "{{base}}/users?a=1",
                                    url: "http://h.test/users?a=1",
                                    headers: [.init(name: "Cookie", raw: "sid=s1; theme=dark", value: "sid=s1; theme=dark")])
        let input = ScriptInput(phase: .response, request: request,
                                response: ScriptResponse(status: status, headers: headers, body: body, milliseconds: 12))
        return ScriptEngine.run(ScriptSource(code: code, file: "t.js", line: 1), input: input)
    }

    func preRequest(_ code: String, body: String? = #"{"a": 1}"#) -> ScriptResult {
        let request = ScriptRequest(name: "create", method: "POST", rawURL: "{{base}}/items?x=1#top",
                                    url: "http://h.test:8080/items?x=1#top",
                                    headers: [.init(name: "Accept", raw: "*/*", value: "*/*")], rawBody: body, body: body)
        let input = ScriptInput(phase: .preRequest, request: request, environment: ["who": "ada"])
        return ScriptEngine.run(ScriptSource(code: code, file: "t.js", line: 1), input: input)
    }

    func failures(_ result: ScriptResult) -> [String] {
        result.tests.filter { !$0.passed }.map { "\($0.name): \($0.message)" }
    }

    @Test func chaisBDDChainsAsCollectionsWriteThemPass() {
        let result = response("""
            const j = pm.response.json();
            const t = (name, body) => pm.test(name, body);
            t("deep.equal", () => pm.expect(j.user).to.deep.equal({name: "ada", roles: ["a", "b"]}));
            t("an array that is not empty", () => pm.expect(j.items).to.be.an("array").that.is.not.empty);
            t("length.above", () => pm.expect(j.items).to.have.length.above(1));
            t("lengthOf.at.least", () => pm.expect(j.items).to.have.lengthOf.at.least(2));
            t("members", () => pm.expect(j.user.roles).to.have.members(["b", "a"]));
            t("include.members", () => pm.expect(j.user.roles).to.include.members(["b"]));
            t("deep.members", () => pm.expect(j.items).to.have.deep.members([{n: 2}, {n: 1}]));
            t("all.keys", () => pm.expect(j.user).to.have.all.keys("name", "roles"));
            t("any.keys", () => pm.expect(j.user).to.have.any.keys("name", "nope"));
            t("include.keys", () => pm.expect(j).to.include.keys("id"));
            t("nested.property", () => pm.expect(j).to.have.nested.property("user.roles[1]", "b"));
            t("own.property", () => pm.expect(j).to.have.own.property("id"));
            t("property that", () => pm.expect(j).to.have.property("user").that.has.property("name", "ada"));
            t("gte lte", () => pm.expect(j.id).to.be.gte(7).and.lte(7));
            t("satisfy", () => pm.expect(j.id).to.satisfy(n => n % 7 === 0));
            t("closeTo", () => pm.expect(1.05).to.be.closeTo(1, 0.1));
            t("instanceOf", () => pm.expect(j.items).to.be.instanceOf(Array));
            t("throw", () => pm.expect(() => { throw new TypeError("bad x"); }).to.throw(TypeError, /bad/));
            t("string", () => pm.expect("hello").to.have.string("ell"));
            t("NaN finite", () => { pm.expect(NaN).to.be.NaN; pm.expect(1).to.be.finite; });
            t("oneOf", () => pm.expect(pm.response.code).to.be.oneOf([200, 201]));
            t("a date", () => pm.expect(new Date()).to.be.a("date"));
            t("message", () => pm.expect(1, "the id").to.equal(2));
            t("keys exactly", () => pm.expect(j.user).to.have.keys("name"));
            """)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.tests.count == 24)
        #expect(failures(result) == ["message: the id: expected 1 to equal 2",
                                     "keys exactly: expected { name: 'ada', roles: [ 'a', 'b' ] } to have key 'name'"])
    }

    @Test func theResponseAssertionsPostmanAddsCheckStatusBodyAndSchema() {
        let result = response("""
            const t = (name, body) => pm.test(name, body);
            t("classes", () => { pm.response.to.be.success; pm.response.to.not.be.error;
                                 pm.response.to.not.be.clientError; pm.response.to.be.ok; });
            t("status words", () => { pm.response.to.have.status("OK"); pm.response.to.have.statusCode(200);
                                      pm.response.to.have.statusReason("OK"); pm.response.to.not.be.notFound; });
            t("body", () => { pm.response.to.be.json; pm.response.to.be.withBody; pm.response.to.have.jsonBody();
                              pm.response.to.have.jsonBody("user.roles[0]", "a"); pm.response.to.have.body(/ada/); });
            t("headers", () => { pm.response.to.have.header("content-type", "application/json");
                                 pm.response.to.not.have.header("X-Nope"); });
            t("schema", () => pm.response.to.have.jsonSchema({type: "object", required: ["id", "user"],
                                                              properties: {id: {type: "number"}}}));
            t("reason size", () => { pm.expect(pm.response.reason()).to.equal("OK");
                                     pm.expect(pm.response.size().body).to.equal(pm.response.text().length); });
            t("headers each", () => { const names = []; pm.response.headers.each(h => names.push(h.key));
                                      pm.expect(names).to.eql(["Content-Type"]); });
            t("schema fails", () => pm.response.to.have.jsonSchema({properties: {id: {type: "string"}}}));
            t("jsonBody fails", () => pm.response.to.have.jsonBody("user.age"));
            t("created", () => pm.response.to.have.status(201));
            """)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.tests.count == 10)
        #expect(failures(result) == [
            "schema fails: expected data to satisfy schema but found following errors: \n.id should be string",
            "jsonBody fails: expected { Object (id, user, ...) } in response to contain property 'user.age'",
            "created: expected response to have status code 201 but got 200",
        ])
    }

    @Test func aPreRequestScriptsChangesToTheRequestAreReadBack() {
        let result = preRequest("""
            pm.request.url.addQueryParams("page=2");
            pm.request.url.query.upsert({key: "x", value: "9"});
            pm.request.url.query.add({key: "who", value: "{{who}}"});
            pm.request.url.path.push("new");
            pm.request.method = "put";
            pm.request.body.raw = JSON.stringify({b: pm.request.url.query.get("x")});
            pm.request.headers.add({key: "X-Added", value: "1"});
            console.log(pm.request.url.getHost(), pm.request.url.port, pm.request.url.getPath());
            """)
        #expect(result.error == nil, "\(String(describing: result.error))")
        // The URL as written: `{{base}}`, which the script's scopes do not hold, stays for Courier to fill in.
        #expect(result.url == "{{base}}/items/new?x=9&page=2&who=ada#top")
        #expect(result.method == "PUT")
        #expect(result.body == #"{"b":"9"}"#)
        #expect(result.headers?["X-Added"] == "1")
        #expect(result.logs == ["{{base}}  /items/new"])
    }

    @Test func aScriptThatOnlyReadsTheRequestChangesNothing() {
        let result = preRequest("""
            console.log(pm.request.url.toString(), pm.request.url.query.get("x"), pm.request.body.raw);
            pm.request.url = "http://other.test/y";
            pm.request.url = pm.request.url.toString().replace("other", "h");
            """)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.logs == [#"{{base}}/items?x=1#top 1 {"a": 1}"#])
        #expect(result.url == "http://h.test/y")
        #expect(result.method == nil)
        #expect(result.body == nil)
        let untouched = preRequest("pm.request.url.toString(); pm.request.body.toString();")
        #expect(untouched.url == nil && untouched.body == nil)
    }

    @Test func cookiesAreTheRequestsAndThoseTheResponseSet() {
        let result = response("""
            console.log(pm.cookies.get("sid"), pm.cookies.get("theme"), pm.cookies.has("nope"));
            console.log(JSON.stringify(pm.cookies.toObject()), pm.cookies.one("sid").httpOnly);
            console.log(responseCookies.length, postman.getResponseCookie("sid").value);
            pm.environment.set("x", "1");
            pm.environment.clear();
            """, headers: ["Set-Cookie": "sid=s2; Path=/; HttpOnly"])
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.logs == ["s2 dark false", #"{"sid":"s2","theme":"dark"} true"#, "2 s2"])
        #expect(result.globals["x"] == nil)
    }

    @Test func infoExecutionVisualizerAndRequireAnswerAsPostmansDo() {
        let skipped = preRequest("""
            console.log(pm.info.eventName, pm.info.requestName, pm.execution.location.current);
            pm.visualizer.set("<p>{{n}}</p>", {n: 1});
            pm.execution.skipRequest();
            """)
        #expect(skipped.error == nil, "\(String(describing: skipped.error))")
        #expect(skipped.cancelled)
        #expect(skipped.logs == ["prerequest create create", "note: pm.visualizer.set shows nothing in Courier"])
        let located = response("console.log(JSON.stringify(pm.execution.location), typeof pm.info.requestId);")
        #expect(located.logs == [#"["Users","list"] string"#])
        let required = response("pm.require('@team/helpers');")
        #expect(required.error?.reason == .unsupported)
        #expect(required.error?.message
                    == "Unsupported: pm.require('@team/helpers') (packages of a Postman team's library) is not supported by Courier")
    }

    @Test func tv4ValidatesWithItsOwnMessagesOverAjv() {
        let result = response("""
            const data = JSON.parse(responseBody);
            const schema = {$schema: "http://json-schema.org/draft-04/schema#", type: "object", required: ["id", "age"],
                            properties: {id: {type: "string", format: "made-up"}}};
            console.log(tv4.validate(data, {type: "object", required: ["id"]}), tv4.error);
            console.log(tv4.validate(data, schema), tv4.error.message, tv4.error.dataPath);
            const all = require("tv4").validateMultiple(data, schema);
            console.log(all.valid, all.errors.map(e => e.message).join("; "));
            """)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.logs == ["true null", "false Missing required property: age ",
                                "false Missing required property: age; Invalid type: number (expected string)"])
    }

    @Test func collectionVariablesAreTheFilesBeneathTheEnvironment() {
        let request = ScriptRequest(name: "get", method: "GET", rawURL: "http://h.test/")
        var input = ScriptInput(phase: .preRequest, request: request, environment: ["host": "env.test"])
        input.fileVariables = ["host": "file.test", "base": "http://file.test"]
        input.environmentName = "staging"
        input.iterationData = ["row": "data"]
        let result = ScriptEngine.run(ScriptSource(code: """
            console.log(pm.collectionVariables.get("base"), pm.collectionVariables.get("host"), pm.variables.get("host"));
            console.log(pm.variables.get("base"), pm.environment.name, pm.collectionVariables.toObject().base);
            pm.environment.set("host", "set.test");
            const before = pm.variables.get("host");
            pm.variables.set("host", "local.test");
            console.log(before, pm.variables.get("host"), pm.variables.get("row"), pm.test("t", () => {}) === pm);
            """, file: "t.js", line: 1), input: input)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.logs == ["http://file.test file.test env.test", "http://file.test staging http://file.test",
                                "set.test local.test data true"])
    }

    @Test func timersFireAfterTheBodyInOrderOfTheirDelays() {
        let result = preRequest("""
            const order = [];
            setTimeout(() => { order.push("late"); pm.variables.set("order", order.join(",")); }, 30);
            const dropped = setTimeout(() => order.push("cleared"), 1);
            setTimeout((a, b) => order.push(a + b), 10, "ear", "ly");
            setImmediate(() => order.push("now"));
            clearTimeout(dropped);
            order.push("body");
            """)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.requestVariables["order"] == "body,now,early,late")
        let interval = preRequest("setInterval(() => {}, 10);")
        #expect(interval.error?.message == "Unsupported: setInterval is not supported by Courier (use setTimeout)")
    }

    @Test func aFormBodysFieldsAreAListWhoseChangesAreEncodedBack() {
        let form = "name=Ada+L&note=a%26b"
        let request = ScriptRequest(name: "form", method: "POST", rawURL: "http://h.test/f", url: "http://h.test/f",
                                    headers: [.init(name: "Content-Type", raw: "application/x-www-form-urlencoded",
                                                    value: "application/x-www-form-urlencoded")],
                                    rawBody: form, body: form)
        let input = ScriptInput(phase: .preRequest, request: request)
        let result = ScriptEngine.run(ScriptSource(code: """
            const fields = pm.request.body.urlencoded;
            console.log(pm.request.body.mode, fields.get("name"), fields.get("note"), fields.count());
            fields.upsert({key: "name", value: "Grace H"});
            fields.add({key: "sig", value: "x=1"});
            fields.remove("note");
            """, file: "t.js", line: 1), input: input)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.logs == ["urlencoded Ada L a&b 2"])
        #expect(result.body == "name=Grace%20H&sig=x%3D1")
    }

    @Test func aScriptMayReturnAtItsTopLevelAsInPostman() {
        let result = response("""
            pm.test("ran", () => {});
            if (pm.response.code === 200) return;
            pm.test("not reached", () => {});
            """)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.tests.map(\.name) == ["ran"])
        let broken = response("return (;")
        #expect(broken.error?.message.hasPrefix("SyntaxError") == true)
        #expect(broken.error?.line == 1)
    }

    @Test func aURLAScriptChangesIsPercentEncodedWhereItMustBe() {
        let result = preRequest("""
            pm.request.url.query.add({key: "q", value: "two words/é"});
            pm.request.url.query.add({key: "kept", value: "a%20b"});
            """)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.url == "{{base}}/items?x=1&q=two%20words/%C3%A9&kept=a%20b#top")
    }
}
