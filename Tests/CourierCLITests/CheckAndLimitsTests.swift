import CourierTestSupport
import Foundation
import Testing
@testable import CourierCollections

/// `courier check`, and the limits that keep hostile files from exhausting the resolver.
@Suite("courier check and resolver limits", .serialized)
struct CheckAndLimitsTests {
    private func resolve(_ text: String, environment: Environment = .none) throws -> ResolvedRequest {
        let file = HTTPFile(path: "t.http", text: text)
        let template = try #require(file.requests.first)
        let fixed = DynamicValues(uuid: { "00000000-0000-4000-8000-000000000000" },
                                  now: { Date(timeIntervalSince1970: 1_700_000_000) }, randomInt: { $0.lowerBound })
        let context = VariableContext(environment: environment, processEnvironment: [:], dynamic: fixed)
        return try Resolver(file: file, baseFolder: URL(fileURLWithPath: "/"), context: context).resolve(template)
    }

    @Test func courierCheckListsEachRequestAndEveryProblemWithItsPlaceAndSendsNothing() async throws {
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            # @name login
            POST http://127.0.0.1:1/login

            ###
            GET http://127.0.0.1:1/me?t={{login.response.body.$.token}}
            X-Token: {{token}}

            ###
            GET http://127.0.0.1:1/{{$nope}}
            """)
        let result = try await CourierCLI.run(["check", "api.http"], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stdout.contains("api.http:1: POST http://127.0.0.1:1/login  (login)"), "\(result.stdout)")
        #expect(result.stdout.contains("api.http:6: unknown variable 'token'"), "\(result.stdout)")
        #expect(result.stdout.contains("api.http:9: bad dynamic variable '{{$nope}}'"), "\(result.stdout)")
        #expect(!result.stdout.contains("has not run"), "a chained request that exists is no problem")
        #expect(result.stderr.contains("3 requests checked in 1 file: 2 problems"), "\(result.stderr)")
        let clean = try await CourierCLI.run(["check", "api.http", "--var", "token=x"], in: folder.url)
        #expect(clean.status == 1)
        try folder.write("ok.http", "GET http://127.0.0.1:1/ok\n")
        #expect(try await CourierCLI.run(["check", "ok.http"], in: folder.url).status == 0)
        #expect(try await CourierCLI.run(["--help"]).stdout.contains("check"))
        let help = try await CourierCLI.run(["check", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: Check .http files without sending"))
        #expect(help.stdout.contains("USAGE: courier check FILE.http|FOLDER [options]"))
        #expect(try await CourierCLI.run(["check"], in: folder.url).status == 2)
    }

    @Test func courierCheckListsAWebSocketRequestAsWebSocketNotGet() async throws {
        // Given a file with a WEBSOCKET request beside a GET
        let folder = try TemporaryFolder()
        try folder.write("live.http", "# @name ticker\nWEBSOCKET ws://127.0.0.1:1/ws/ticker\n\n###\nGET http://127.0.0.1:1/x\n")

        // When it is checked
        let result = try await CourierCLI.run(["check", "live.http"], in: folder.url)

        // Then each is listed by what it is
        #expect(result.stdout.contains("live.http:1: WEBSOCKET ws://127.0.0.1:1/ws/ticker  (ticker)"), "\(result.stdout)")
        #expect(result.stdout.contains("live.http:5: GET http://127.0.0.1:1/x"), "\(result.stdout)")
        #expect(result.status == 0)
    }

    @Test func aVariableThatDoublesPerLevelStopsAtTheSizeLimit() {
        var text = "@v0 = xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
        for level in 1...40 { text += "@v\(level) = {{v\(level - 1)}}{{v\(level - 1)}}\n" }
        text += "\n###\nGET http://x/\nX: {{v40}}\n"
        #expect(throws: CollectionError.expansionTooLarge(request: "GET http://x/", limit: Interpolator.maximumExpandedBytes)) {
            try resolve(text)
        }
    }

    @Test func aLongChainIsTooDeepNotACycle() throws {
        var text = "@v0 = end\n"
        for level in 1...40 { text += "@v\(level) = {{v\(level - 1)}}\n" }
        text += "\n###\nGET http://x/{{v40}}\n"
        #expect(try resolve(text).request.url.absoluteString == "http://x/end")
        var deep = "@v0 = end\n"
        for level in 1...100 { deep += "@v\(level) = {{v\(level - 1)}}\n" }
        deep += "\n###\nGET http://x/{{v100}}\n"
        #expect(throws: CollectionError.variableTooDeep(name: "v36", request: "GET http://x/{{v100}}", limit: 64)) {
            try resolve(deep)
        }
    }

    @Test func anEnvironmentFileNestedTooDeepIsRefusedWithoutCrashing() {
        let nested = String(repeating: #"{"a":"#, count: 50_000) + "1" + String(repeating: "}", count: 50_000)
        #expect(throws: CollectionError.badEnvironmentFile(path: "http-client.env.json",
                                                           reason: "nested more than 64 levels deep")) {
            try EnvironmentSet.from(publicJSON: #"{"dev": "# + nested + "}")
        }
    }

    @Test func anUnknownNameAmongManySuggestsAFewCloseOnes() {
        let names = (0..<5000).map { "request\($0)" } + ["login"]
        let text = CollectionError.unknownRequest(name: "logn", available: names).description
        #expect(text.hasPrefix("no request named 'logn'; did you mean 'login'?"), "\(text)")
        #expect(text.count < 200)
    }

    @Test func datesFollowTheRestClientFormats() throws {
        let resolved = try resolve("""
            GET http://x/
            A: {{$datetime rfc1123}}
            B: {{$datetime iso8601 1 d}}
            C: {{$datetime "YYYY-MM-DD[T]HH:mm" -1 h}}
            D: {{$timestamp -1 d}}
            E: {{$random.float(1, 2)}}
            """)
        #expect(resolved.request.headers["A"] == "Tue, 14 Nov 2023 22:13:20 GMT")
        #expect(resolved.request.headers["B"] == "2023-11-15T22:13:20.000Z")
        #expect(resolved.request.headers["C"] == "2023-11-14T21:13")
        #expect(resolved.request.headers["D"] == "1699913600")
        #expect(resolved.request.headers["E"] == "1.0")
        #expect(throws: CollectionError.self) { try resolve("GET http://x/\nA: {{$timestamp -1 fortnight}}\n") }
    }
}
