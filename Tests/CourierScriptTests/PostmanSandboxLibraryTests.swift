import Foundation
import Testing
@testable import CourierScript

/// The parts of Postman's sandbox Courier writes itself: crypto-js, the legacy globals, pm.iterationData and
/// setNextRequest, run on JavaScriptCore as a script would run them.
@Suite("Postman sandbox: Courier's own libraries")
struct PostmanSandboxLibraryTests {
    func run(_ code: String, status: Int = 404, iterationData: [String: String] = [:]) -> ScriptResult {
        let request = ScriptRequest(name: "get", method: "GET", rawURL: "{{base}}/a?b=1", url: "http://h.test/a?b=1",
                                    headers: [.init(name: "X-Kind", raw: "{{kind}}", value: "gift")])
        var input = ScriptInput(phase: .response, request: request,
                                response: ScriptResponse(status: status, body: "<r>hi</r>", milliseconds: 3))
        input.iterationData = iterationData
        input.iteration = 1
        input.iterationCount = 4
        return ScriptEngine.run(ScriptSource(code: code, file: "t.js", line: 1), input: input)
    }

    @Test func cryptoJSHashesProgressivelyAndEncodesAsCryptoJSDoes() {
        let result = run("""
            const C = require('crypto-js');
            const sha = C.algo.SHA256.create().update('The quick brown fox ').update('jumps over the lazy dog');
            console.log(sha.finalize().toString());
            const mac = C.algo.HMAC.create(C.algo.SHA256, 'key');
            console.log(mac.update('The quick brown fox jumps over the lazy dog').finalize().toString(C.enc.Hex));
            console.log(C.enc.Latin1.stringify(C.enc.Hex.parse('414243')), C.lib.WordArray.random(16).sigBytes);
            console.log(C.SHA1('abc').toString(C.enc.Base64url), C.SHA224('abc').toString().length);
            try { C.AES.encrypt('x', 'k'); } catch (e) { console.log(e.message); }
            """)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.logs == [
            "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592",
            "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
            "ABC 16", "qZk-NkcGgWq6PiVxeFDCbJzQ2J0 56", "CryptoJS.AES is not supported by Courier",
        ])
    }

    @Test func legacyGlobalsDescribeTheRequestAndResponse() {
        let result = run("""
            console.log(request.url.indexOf('?b=1') > 0, request.url.getRaw(), request.headers['X-Kind']);
            console.log(responseCode.code, responseCode.name, responseBody.has('hi'), iteration, data.user);
            tests['not found'] = responseCode.code === 404;
            tests['undefined is falsy'] = undefined;
            postman.setNextRequest('other');
            """, iterationData: ["user": "ada"])
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.logs == ["true {{base}}/a?b=1 gift", "404 Not Found true 1 ada"])
        #expect(result.tests.map(\.passed) == [true, false])
        #expect(result.tests.last?.message == "expected undefined to be truthy")
        #expect(result.nextRequest == .named("other"))
    }

    @Test func iterationDataIsTheRowAndInfoCountsTheIterations() {
        let result = run("""
            console.log(pm.iterationData.get('user'), pm.iterationData.has('nope'), pm.variables.get('user'));
            console.log(pm.info.iteration, pm.info.iterationCount, pm.iterationData.replaceIn('hi {{user}}'));
            pm.execution.setNextRequest(null);
            """, iterationData: ["user": "ada"])
        #expect(result.logs == ["ada false ada", "1 4 hi ada"])
        #expect(result.nextRequest == .stop)
    }

    @Test func theModuleTableNamesEveryPostmanLibrary() {
        let names = Set(ScriptModules.modules.map(\.name))
        for name in ["ajv", "atob", "btoa", "chai", "cheerio", "crypto-js", "csv-parse/lib/sync", "lodash", "moment",
                     "postman-collection", "tv4", "uuid", "xml2js", "path", "assert", "buffer", "util", "url",
                     "punycode", "querystring", "string_decoder", "stream", "timers", "events"] {
            #expect(names.contains(name), "\(name)")
        }
    }

    @Test func anHttpyacBlockSeesItsVariablesNotTheLegacyGlobalsOfTheSameNames() {
        // Given httpyac variables named like Postman's legacy globals
        var input = ScriptInput(phase: .preRequest, request: ScriptRequest(method: "GET", rawURL: "http://h.test/"))
        input.dialect = .httpyac
        input.scope = ["data": "mine", "environment": "staging", "tests": "3", "iteration": "9"]
        // When an httpyac block reads them
        let result = ScriptEngine.run(ScriptSource(code: "console.log(data, environment, tests, iteration)",
                                                   file: "api.http", line: 1), input: input)
        // Then they are the variables
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.logs == ["mine staging 3 9"])
    }
}
