import CourierMessage
import Testing
@testable import CourierScript

/// The JetBrains HTTP Client API on JavaScriptCore: what a script sets, tests and logs comes back as values.
@Suite struct ScriptEngineTests {
    static let login = ScriptRequest(name: "login", method: "POST", rawURL: "{{base}}/login",
                                     url: "http://127.0.0.1:1/login")

    func handler(_ code: String, status: Int = 200, body: String = #"{"token":"abc","user":{"id":7}}"#,
                 contentType: String = "application/json; charset=utf-8", globals: [String: String] = [:],
                 timeLimit: Double = ScriptEngine.defaultTimeLimit) -> ScriptResult {
        let response = ScriptResponse(status: status, headers: [HTTPHeaders.Field("Content-Type", contentType),
                                                                HTTPHeaders.Field("Set-Cookie", "a=1"),
                                                                HTTPHeaders.Field("set-cookie", "b=2")],
                                      body: body, milliseconds: 12)
        let input = ScriptInput(phase: .response, request: Self.login, response: response,
                                environment: ["base": "http://127.0.0.1:1"], globals: globals, timeLimit: timeLimit)
        return ScriptEngine.run(ScriptSource(code: code, file: "api.http", line: 10), input: input)
    }

    @Test func handlerSetsAGlobalFromTheParsedJSONBody() {
        let result = handler(#"client.global.set("token", response.body.token); client.global.set("id", response.body.user.id)"#)
        #expect(result.error == nil)
        #expect(result.globals == ["token": "abc", "id": "7"])
    }

    @Test func theInputReachesTheScriptAsItWasWhateverItsCharacters() {
        // Given values with every character JSON escapes or a JavaScript source could trip on
        let awkward = "quote\" back\\slash\nline\ttab\u{01}\u{1B}[0m\u{7F}\u{2028}\u{2029}é日本🙂 </script> ${x} `t`"
        let response = ScriptResponse(status: 200, headers: [HTTPHeaders.Field("X-Odd", awkward)], body: awkward)
        var request = ScriptRequest(name: awkward, method: "POST", rawURL: awkward, url: awkward,
                                    headers: [.init(name: "X-Odd", raw: awkward, value: awkward)], rawBody: awkward,
                                    body: awkward)
        request.name = awkward
        let input = ScriptInput(phase: .response, request: request, response: response,
                                environment: [awkward: awkward], globals: ["g": awkward])
        let code = """
            const all = [response.body, response.headers.valueOf("X-Odd"), request.url.getRaw(),
                         request.headers.findByName("X-Odd").getRawValue(), request.body.getRaw(),
                         request.environment.get(Object.keys(pm.environment.toObject())[0]), client.global.get("g")];
            client.global.set("same", String(all.every(value => value === all[0])));
            client.global.set("echo", all[0]);
            """
        let result = ScriptEngine.run(ScriptSource(code: code, file: "api.http", line: 1), input: input)
        // Then each arrives unchanged, and comes back unchanged
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.globals["same"] == "true")
        #expect(result.globals["echo"] == awkward)
    }

    @Test func globalsCanBeReadClearedAndChecked() {
        let result = handler("""
            client.log(client.global.isEmpty(), client.global.get("old"), client.global.get("missing"));
            client.global.clear("old");
            client.global.set("a", "1");
            client.log(client.global.isEmpty());
            client.global.clearAll();
            client.log(client.global.isEmpty());
            """, globals: ["old": "x"])
        #expect(result.error == nil)
        #expect(result.logs == ["false x null", "false", "true"])
        #expect(result.globals.isEmpty)
    }

    @Test func responseHeadersStatusAndContentTypeFollowTheReference() {
        let result = handler("""
            client.log(response.status, response.headers.valueOf("set-cookie"), response.headers.valuesOf("Set-Cookie").length);
            client.log(response.contentType.mimeType, response.contentType.charset, response.headers.valueOf("nope"));
            """)
        #expect(result.logs == ["200 a=1 2", "application/json utf-8 null"])
    }

    @Test func aBodyThatIsNotJSONIsAString() {
        let result = handler(#"client.log(typeof response.body, response.body)"#, body: "plain", contentType: "text/plain")
        #expect(result.logs == ["string plain"])
    }

    @Test func testsRunAfterTheScriptAndReportTheAssertionMessage() {
        let result = handler("""
            client.test("status is 200", function () { client.assert(response.status === 200, "not 200"); });
            client.test("token is long", function () { client.assert(response.body.token.length > 5, "token too short"); });
            client.test("throws", () => { response.body.nothing.here; });
            """)
        #expect(result.error == nil)
        #expect(result.tests.map(\.name) == ["status is 200", "token is long", "throws"])
        #expect(result.tests.map(\.passed) == [true, false, false])
        #expect(result.tests[1].message == "token too short")
        #expect(result.tests[2].message.contains("undefined"))
    }

    @Test func exitStopsTheScriptWithoutAnError() {
        let result = handler("""
            client.global.set("a", "1");
            client.exit();
            client.global.set("b", "2");
            """)
        #expect(result.error == nil)
        #expect(result.globals == ["a": "1"])
    }

    @Test func anErrorNamesTheLineOfTheFileAndTheJavaScriptMessage() {
        let result = handler("""
            client.global.set("a", "1");

            response.body.missing.token;
            """)
        #expect(result.error?.file == "api.http")
        #expect(result.error?.line == 12)
        #expect(result.error?.message.contains("TypeError") == true)
        #expect(result.globals == ["a": "1"], "what ran before the error is kept")
    }

    @Test func aFailedAssertOutsideATestIsAnErrorOnItsLine() {
        let result = handler("\nclient.assert(false, \"must be true\")")
        #expect(result.error?.line == 11)
        #expect(result.error?.message.contains("must be true") == true)
    }

    @Test func anInfiniteLoopIsStoppedAtItsTimeLimit() {
        let result = handler("client.global.set('before', 'yes');\nwhile (true) {}", timeLimit: 0.3)
        guard case .timeLimit = result.error?.reason else {
            Issue.record("expected a time limit error, got \(String(describing: result.error))")
            return
        }
        #expect(result.error?.line == 10, "a stopped script is reported at its first line")
        #expect(result.globals["before"] == "yes")
    }

    @Test func preRequestScriptsSeeTheRequestAndSetRequestVariables() {
        let request = ScriptRequest(method: "GET", rawURL: "{{base}}/items", url: "http://h/items",
                                    headers: [.init(name: "X-Id", raw: "{{id}}", value: "42")], rawBody: nil)
        let input = ScriptInput(phase: .preRequest, request: request, environment: ["base": "http://h"])
        let code = """
            request.variables.set("sig", request.method + " " + request.url.tryGetSubstituted());
            client.log(request.url.getRaw(), request.headers.findByName("x-id").getRawValue(),
                       request.headers.findByName("X-Id").tryGetSubstitutedValue(), request.environment.get("base"),
                       request.body.getRaw());
            """
        let result = ScriptEngine.run(ScriptSource(code: code, file: "a.http", line: 1), input: input)
        #expect(result.error == nil)
        #expect(result.requestVariables == ["sig": "GET http://h/items"])
        #expect(result.logs == ["{{base}}/items {{id}} 42 http://h null"])
    }

    @Test func randomAndCryptoHelpers() {
        let result = handler("""
            client.log($random.uuid.length, $random.alphabetic(6).length, typeof $random.integer(1, 5));
            client.log(crypto.sha256().updateWithText("abc").digest().toHex());
            client.log(crypto.hmac.sha256().withTextSecret("key").updateWithText("The quick brown fox jumps over the lazy dog").digest().toHex());
            client.log(crypto.md5().updateWithText("").digest().toBase64(), btoa("hi"), atob("aGk="));
            """)
        #expect(result.error == nil)
        #expect(result.logs == [
            "36 6 number",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
            "1B2M2Y8AsgTpgAmY7PhCfg== aGk= hi",
        ])
    }

    @Test func scriptsHaveNoFileOrNetworkAccess() {
        // require is the sandbox's: it reads the libraries' module folders, and Node's fs is not among them
        let result = handler("""
            client.log(typeof fetch, typeof XMLHttpRequest, typeof process);
            try { require('fs'); } catch (e) { client.log(e.name); }
            try { require('child_process'); } catch (e) { client.log(e.name); }
            """)
        #expect(result.logs == ["undefined undefined undefined", "Unsupported", "Unsupported"])
    }

    @Test func nothingAScriptDefinesReachesTheNextOne() {
        // Given a script that defines globals of every kind (the engine reuses its virtual machines)
        _ = handler("var leaked = 1; globalThis.alsoLeaked = 2; Object.prototype.polluted = 3; client.exit()")
        // When the next script looks for them
        let result = handler("client.log(typeof leaked, typeof alsoLeaked, typeof ({}).polluted)")
        // Then each ran in a fresh global context
        #expect(result.logs == ["undefined undefined undefined"])
    }

    @Test func aStoppedScriptDoesNotStopTheNextOne() {
        _ = handler("while (true) {}", timeLimit: 0.2)
        let result = handler("client.global.set('after', 'ran')")
        #expect(result.error == nil)
        #expect(result.globals["after"] == "ran")
    }

    @Test func postmanChaiChainsPassAndFailWithChaiMessages() {
        let result = handler("""
            pm.test("chains", () => {
                pm.response.to.have.status(200);
                pm.response.to.be.ok;
                pm.expect(pm.response.json()).to.have.property("user").that.eql({id: 7});
                pm.expect(pm.response.json().token).to.be.a("string").and.have.lengthOf(3).and.not.be.empty;
                pm.expect([1, 2, 3]).to.include(2);
                pm.expect(5).to.be.above(4).and.below(6);
                pm.expect(pm.response.headers.get("content-type")).to.include("json");
            });
            pm.test("not equal", () => pm.expect(1).to.not.equal(1));
            pm.test("status", () => pm.response.to.have.status(201));
            pm.test("unsupported", () => pm.sendRequest("http://example.com"));
            pm.environment.set("seen", pm.response.code);
            """)
        #expect(result.error == nil)
        #expect(result.tests.map(\.passed) == [true, false, false, false])
        #expect(result.tests.map(\.message) == ["", "expected 1 to not equal 1",
                                                "expected response to have status code 201 but got 200",
                                                "pm.sendRequest is not supported by Courier"])
        #expect(result.globals["seen"] == "200")
    }

    @Test func anUnsupportedPmCallOutsideATestIsAScriptErrorNamingIt() {
        let result = handler("const jar = pm.cookies.jar();")
        #expect(result.error?.reason == .unsupported)
        #expect(result.error?.message == "Unsupported: pm.cookies.jar() here (courier run offers it to requests that "
                    + "keep cookies) is not supported by Courier")
        #expect(result.error?.line == 10)
    }
}
