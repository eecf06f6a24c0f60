import CourierHTTP
import CourierMessage
import Foundation
import Testing
@testable import CourierCollections

@Suite("Variables, environments and resolving requests")
struct VariableTests {
    private func resolve(_ text: String, name: String? = nil, context: VariableContext = VariableContext(
        processEnvironment: [:], dynamic: .fixed)) throws -> ResolvedRequest {
        let file = HTTPFile(path: "t.http", text: text)
        let template = try #require(name.map { file.named($0) } ?? file.requests.first)
        return try Resolver(file: file, baseFolder: URL(fileURLWithPath: "/"), context: context).resolve(template)
    }

    @Test func requestLocalBeatsFileBeatsEnvironment() throws {
        // Given the same name defined in three places
        let environment = Environment(name: "dev", values: ["a": VariableValue("env"), "b": VariableValue("env"),
                                                            "c": VariableValue("env")])
        let context = VariableContext(environment: environment, processEnvironment: [:], dynamic: .fixed)
        let text = "@a = file\n@b = file\n\n###\n@a = local\nGET https://x/{{a}}/{{b}}/{{c}}\n"
        // Then the nearest definition wins
        let resolved = try resolve(text, context: context)
        #expect(resolved.request.url.absoluteString == "https://x/local/file/env")
    }

    @Test func commandLineOverridesBeatEverySource() throws {
        let context = VariableContext(overrides: ["base": "http://127.0.0.1:9"], processEnvironment: [:])
        let resolved = try resolve("@base = https://prod\nGET {{base}}/users\n", context: context)
        #expect(resolved.request.url.absoluteString == "http://127.0.0.1:9/users")
    }

    @Test func variablesMayReferToOtherVariables() throws {
        let resolved = try resolve("@host = x.test\n@base = https://{{host}}/v1\nGET {{base}}/users\n")
        #expect(resolved.request.url.absoluteString == "https://x.test/v1/users")
    }

    @Test func aVariableCycleIsAnErrorNotAHang() {
        #expect(throws: CollectionError.variableCycle(name: "a", request: "GET {{a}}")) {
            try resolve("@a = {{b}}\n@b = {{a}}\nGET {{a}}\n")
        }
    }

    @Test func unknownVariableNamesTheVariableAndTheRequest() {
        #expect(throws: CollectionError.unknownVariable(name: "token", request: "me")) {
            try resolve("# @name me\nGET https://x/me\nAuthorization: Bearer {{token}}\n")
        }
        let message = CollectionError.unknownVariable(name: "token", request: "me").description
        #expect(message == "unknown variable 'token' in request 'me'")
    }

    @Test func processEnvironmentIsReadOnlyThroughProcessEnvAndIsSecret() throws {
        let context = VariableContext(processEnvironment: ["API_TOKEN": "s3cr3t"], dynamic: .fixed)
        let resolved = try resolve("GET https://x\nAuthorization: Bearer {{$processEnv API_TOKEN}}\n", context: context)
        #expect(resolved.request.headers["Authorization"] == "Bearer s3cr3t")
        #expect(resolved.secrets == ["s3cr3t"])
        #expect(throws: CollectionError.unknownVariable(name: "API_TOKEN", request: "GET https://x")) {
            try resolve("GET https://x\nX: {{API_TOKEN}}\n", context: context)
        }
        #expect(throws: CollectionError.unknownVariable(name: "$processEnv MISSING", request: "GET https://x")) {
            try resolve("GET https://x\nX: {{$processEnv MISSING}}\n", context: context)
        }
    }

    @Test func dynamicVariablesExpand() throws {
        let resolved = try resolve("""
            POST https://x
            X-Id: {{$uuid}}
            X-Time: {{$timestamp}}
            X-Iso: {{$isoTimestamp}}
            X-Random: {{$randomInt 5 10}}
            X-Any: {{ $randomInt }}
            """)
        #expect(resolved.request.headers["X-Id"] == "00000000-0000-4000-8000-000000000000")
        #expect(resolved.request.headers["X-Time"] == "1700000000")
        #expect(resolved.request.headers["X-Iso"] == "2023-11-14T22:13:20.000Z")
        #expect(resolved.request.headers["X-Random"] == "5")
        #expect(resolved.request.headers["X-Any"] == "0")
        // Bounds in either order, as httpyac takes them; equal bounds leave no number to pick.
        #expect(try resolve("GET https://x\nX: {{$randomInt 9 1}}\n").request.headers["X"] == "1")
        #expect(throws: CollectionError.self) { try resolve("GET https://x\nX: {{$randomInt 4 4}}\n") }
        #expect(throws: CollectionError.self) { try resolve("GET https://x\nX: {{$nope}}\n") }
    }

    @Test func responseVariablesReadAnEarlierNamedResponse() throws {
        // Given a recorded login response
        var store = ResponseStore()
        store.record(name: "login", entry: .init(status: 200, headers: HTTPHeaders([("X-Request-Id", "r1")]),
                                                 body: Data(#"{"token":"t0k","user":{"roles":["a","b"]},"n":3}"#.utf8)))
        let context = VariableContext(processEnvironment: [:], responses: store, dynamic: .fixed)
        // When a later request refers to it
        let resolved = try resolve("""
            GET https://x/me?role={{login.response.body.$.user.roles[1]}}&n={{login.response.body.$.n}}
            Authorization: Bearer {{login.response.body.$.token}}
            X-From: {{login.response.headers.X-Request-Id}}
            X-Raw: {{login.response.body.$['user']['roles'][-1]}}
            """, context: context)
        // Then the values are substituted
        #expect(resolved.request.headers["Authorization"] == "Bearer t0k")
        #expect(resolved.request.headers["X-From"] == "r1")
        #expect(resolved.request.headers["X-Raw"] == "b")
        #expect(resolved.request.url.query == "role=b&n=3")
        // And a request that has not run, or a missing path, is an error that says so
        #expect(throws: CollectionError.responseValueUnavailable(
            expression: "other.response.body.$.x", request: "GET https://x/{{other.response.body.$.x}}",
            reason: "request 'other' has not run earlier in this run; run it first (put it above this request, or add --name other)")) {
            try resolve("GET https://x/{{other.response.body.$.x}}\n", context: context)
        }
        #expect(throws: CollectionError.self) { try resolve("GET https://x/{{login.response.body.$.nope}}\n", context: context) }
    }

    @Test func aWholeObjectResponseValueKeepsItsKeyOrderAndAWildcardGivesAnArray() throws {
        // Given a recorded response whose object keys are not in alphabetical order
        var store = ResponseStore()
        store.record(name: "login", entry: .init(status: 200, headers: HTTPHeaders(),
                                                 body: Data(#"{"user":{"z":1,"a":2.50,"m":[1,2]},"ids":[{"id":7},{"id":8}]}"#.utf8)))
        let context = VariableContext(processEnvironment: [:], responses: store, dynamic: .fixed)
        // When a request takes the whole object and every id
        let resolved = try resolve("""
            POST https://x/copy
            X-User: {{login.response.body.$.user}}
            X-Ids: {{login.response.body.$.ids[*].id}}
            """, context: context)
        // Then the object is compact JSON in document order and the ids come as one array
        #expect(resolved.request.headers["X-User"] == #"{"z":1,"a":2.50,"m":[1,2]}"#)
        #expect(resolved.request.headers["X-Ids"] == "[7,8]")
    }

    @Test func plusAndAmpersandInVariableValuesAreEncodedButLiteralQueryTextIsKept() throws {
        let context = VariableContext(overrides: ["q": "a+b c&d=e"], processEnvironment: [:])
        let resolved = try resolve("GET https://x/search?q={{q}}&literal=1+2&sp=x y\n", context: context)
        #expect(resolved.request.url.absoluteString == "https://x/search?q=a%2Bb%20c%26d%3De&literal=1+2&sp=x%20y")
    }

    @Test func aVariableHoldingAWholeURLKeepsItsQuery() throws {
        let context = VariableContext(overrides: ["url": "http://h:8/p?x=1"], processEnvironment: [:])
        #expect(try resolve("GET {{url}}&y=2\n", context: context).request.url.absoluteString == "http://h:8/p?x=1&y=2")
        #expect(try resolve("GET localhost:8/a\n").request.url.absoluteString == "http://localhost:8/a")
    }

    @Test func invalidURLIsAnErrorNamingTheRequest() {
        #expect(throws: CollectionError.badURL(url: "ftp://x/a", request: "f")) {
            try resolve("# @name f\nGET ftp://x/a\n")
        }
    }

    @Test func tagsBecomeRequestOptions() throws {
        let resolved = try resolve("# @timeout 2.5\n# @no-redirect\nGET https://x\n")
        #expect(resolved.request.timeout == .milliseconds(2500))
        #expect(resolved.request.followRedirects == false)
    }

    @Test func fileBodiesAreReadRelativeToTheHTTPFileAndMultipartEmbedsFiles() throws {
        let folder = Fixtures.folder.appendingPathComponent("roundtrip")
        let file = HTTPFile(path: "m.http", text: try Fixtures.text("roundtrip/multipart.http"))
        let context = VariableContext(overrides: ["base": "B"], processEnvironment: [:])
        let resolver = Resolver(file: file, baseFolder: folder, context: context)
        let upload = try resolver.resolve(file.requests[0])
        // A multipart part's `< ./file` streams from disk between the parts' text
        guard case .parts(let parts) = upload.request.body, parts.contains(where: { if case .file = $0 { true } else { false } }),
              let data = CollectionFileAccess.contents(of: parts) else { Issue.record("no streamed part"); return }
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("Content-Type: text/plain\r\n\r\nfile contents\n\r\n--WebAppBoundary--"))
        #expect(text.hasPrefix("--WebAppBoundary\r\nContent-Disposition: form-data; name=\"field\"\r\n"))
        // `< ./file` is sent as the file is, streamed from disk when the request goes out
        let json = try resolver.resolve(file.requests[1])
        guard case .file(let sent) = json.request.body else { Issue.record("not a file body"); return }
        #expect(sent.lastPathComponent == "body.json")
        #expect(try Data(contentsOf: sent) == Data("{\"from\": \"{{base}}\"}\n".utf8))
        // `<@` substitutes variables inside the file
        let substituted = HTTPFile(path: "s.http", text: "POST https://x\n\n<@ ./body.json\n")
        let body = try Resolver(file: substituted, baseFolder: folder, context: context).resolve(substituted.requests[0])
        #expect(body.request.body == .data(Data("{\"from\": \"B\"}\n".utf8)))
        let missing = HTTPFile(path: "s.http", text: "POST https://x\n\n< ./missing.bin\n")
        let refusal = FileAccessRefusal(access: .read, path: "./missing.bin", reason: "no such file or directory",
                                        request: "POST https://x", line: 3)
        #expect(throws: CollectionError.fileAccess(refusal)) {
            try Resolver(file: missing, baseFolder: folder, context: context).resolve(missing.requests[0])
        }
    }

    @Test func websocketMessagesAreResolvedToo() throws {
        let context = VariableContext(overrides: ["room": "r1"], processEnvironment: [:])
        let resolved = try resolve("WEBSOCKET ws://h/ws\n\n# @subscribe\n{\"join\":\"{{room}}\"}\n", context: context)
        #expect(resolved.messages == [WebSocketMessage(text: "{\"join\":\"r1\"}", subscribe: true)])
        #expect(resolved.request.url.scheme == "ws")
    }
}

@Suite("URL building edge cases found by fuzzing")
struct URLBuildingRegressionTests {
    private func url(_ text: String) -> String? {
        let file = HTTPFile(path: "u.http", text: text)
        guard let request = file.requests.first else { return nil }
        let resolver = Resolver(file: file, baseFolder: URL(fileURLWithPath: "/"),
                                context: VariableContext(processEnvironment: [:]))
        return (try? resolver.resolve(request))?.request.url.absoluteString
    }

    @Test func hashesInFragmentsAndStrayPercentSignsAreEncodedInsteadOfCrashing() {
        #expect(url("0###") == "http://0#%23%23")
        #expect(url("GET http://h/p#a#b[c]") == "http://h/p#a%23b%5Bc%5D")
        #expect(url("GET http://h/p?q=100%&r=%41%zz") == "http://h/p?q=100%25&r=%41%25zz")
        #expect(url("GET http://h/p?q=[x]") == "http://h/p?q=%5Bx%5D")
    }
}
