import CourierTestSupport
import Foundation
import Testing
@testable import CourierCollections

/// Files written for the JetBrains HTTP Client, the VS Code REST Client and Postman, run through
/// `courier run` against a loopback server that keeps the exact bytes it received.
@Suite("Dialects on the wire", .serialized)
struct DialectRunTests {
    /// Runs `text` as `api.http` in a fresh folder (with `extra` files beside it) and returns what the server got.
    private func run(_ text: String, extra: [String: String] = [:], arguments: [String] = ["--all"],
                     folder: TemporaryFolder? = nil) async throws
        -> (result: ChildResult, received: [CaptureServer.Received]) {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try folder ?? TemporaryFolder()
        try folder.write("api.http", text.replacingOccurrences(of: "BASE", with: server.base))
        for (path, content) in extra { try folder.write(path, content.replacingOccurrences(of: "BASE", with: server.base)) }
        // Its own state folder: a cookie another test's server set on 127.0.0.1 must not reach this server's log.
        let result = try await CourierCLI.run(["run", "api.http"] + arguments, in: folder.url,
                                              environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent(".state").path])
        return (result, server.requests)
    }

    @Test func aPostWithoutABodyCarriesNoContentTypeAndNoHeaderTheFileDoesNotSay() async throws {
        let (result, received) = try await run("POST BASE/empty\n\n###\nPOST BASE/typed\nContent-Type: text/plain\n\nhi\n")
        #expect(result.status == 0, "\(result.stderr)")
        let empty = try #require(received.first)
        #expect(empty.requestLine == "POST /empty HTTP/1.1")
        #expect(empty.header("Content-Type") == nil)
        #expect(empty.header("Expect") == nil)
        // Only what HTTP needs and Courier documents: Host, User-Agent, Accept, Accept-Encoding, Content-Length.
        #expect(Set(empty.headerNames).isSubset(of: ["host", "user-agent", "accept", "accept-encoding", "content-length"]),
                "\(empty.headerLines)")
        #expect(received[1].header("Content-Type") == "text/plain")
        #expect(received[1].bodyText == "hi")
    }

    @Test func originFormLowerCaseMethodsFormBodiesAndCommentFootersGoOutAsTheirAuthorsMeant() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            GET /api/customers HTTP/1.1
            Host: 127.0.0.1:\(server.port)

            ###
            post \(server.base)/form
            Content-Type: application/x-www-form-urlencoded

            name=ada
            &role=admin
            &team=core

            ###
            DELETE \(server.base)/items/1

            # deletes the first item; nothing to send
            """)
        let result = try await CourierCLI.run(["run", "api.http", "--all"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        let received = server.requests
        try #require(received.count == 3)
        #expect(received[0].requestLine == "GET /api/customers HTTP/1.1")
        #expect(received[1].method == "POST")
        #expect(received[1].bodyText == "name=ada&role=admin&team=core")
        #expect(received[2].method == "DELETE")
        #expect(received[2].body.isEmpty && received[2].header("Content-Length") == nil)
    }

    @Test func basicAndDigestShorthandsAuthenticate() async throws {
        let (result, received) = try await run("""
            GET BASE/basic1
            Authorization: Basic ada:lovelace

            ###
            GET BASE/basic2
            Authorization: Basic ada lovelace

            ###
            GET BASE/digest/area
            Authorization: Digest ada lovelace
            """)
        #expect(result.status == 0, "\(result.stderr)")
        let encoded = "Basic " + Data("ada:lovelace".utf8).base64EncodedString()
        #expect(received[0].header("Authorization") == encoded)
        #expect(received[1].header("Authorization") == encoded)
        // Digest: the first try carries no credentials, the answer to the challenge does, without the password.
        let digest = received.filter { $0.target == "/digest/area" }
        try #require(digest.count == 2)
        #expect(digest[0].header("Authorization") == nil)
        let answer = try #require(digest[1].header("Authorization"))
        #expect(answer.hasPrefix("Digest username=\"ada\""), "\(answer)")
        #expect(answer.contains("nonce=\"abc123\"") && !answer.contains("lovelace"))
    }

    @Test func graphQLRequestsOfBothDialectsPostQueryAndVariablesAsJSON() async throws {
        let (result, received) = try await run("""
            GRAPHQL BASE/graphql

            query User($id: ID!) { user(id: $id) { name } }

            { "id": "7" }

            ###
            POST BASE/graphql
            X-REQUEST-TYPE: GraphQL
            Content-Type: application/json

            { viewer { login } }
            """)
        #expect(result.status == 0, "\(result.stderr)")
        try #require(received.count == 2)
        #expect(received[0].requestLine == "POST /graphql HTTP/1.1")
        #expect(received[0].header("Content-Type") == "application/json")
        #expect(received[0].bodyText
                == #"{"query":"query User($id: ID!) { user(id: $id) { name } }","operationName":"User","variables":{"id":"7"}}"#)
        #expect(received[1].header("X-REQUEST-TYPE") == nil)
        #expect(received[1].bodyText == #"{"query":"{ viewer { login } }"}"#)
    }

    @Test func dynamicVariablesOfEveryDialectExpandAndEnvironmentValuesHoldingThemToo() async throws {
        let environment = #"{"dev": {"requestId": "{{$uuid}}", "host": "BASE"}}"#
        let (result, received) = try await run("""
            POST {{host}}/dyn
            X-Id: {{requestId}}
            X-Int: {{$random.integer(5, 6)}}
            X-Alpha: {{$random.alphabetic(8)}}
            X-Hex: {{$random.hexadecimal(4)}}
            X-Date: {{$datetime "YYYY-MM-DD"}}
            X-Yesterday: {{$timestamp -1 d}}
            X-Now: {{$timestamp}}
            X-Email: {{$randomEmail}}
            X-Dotenv: {{$dotenv API_KEY}}
            Content-Type: text/plain

            {{$randomPassword}}
            """, extra: ["http-client.env.json": environment, ".env": "API_KEY=\"k-123\"\n"],
            arguments: ["--all", "--env", "dev"])
        #expect(result.status == 0, "\(result.stderr)")
        let request = try #require(received.first)
        #expect(UUID(uuidString: request.header("X-Id") ?? "") != nil, "\(request.headerLines)")
        #expect(request.header("X-Int") == "5")
        #expect(request.header("X-Alpha")?.count == 8 && request.header("X-Alpha")?.allSatisfy(\.isLetter) == true)
        #expect(request.header("X-Hex")?.count == 4)
        #expect(request.header("X-Date")?.count == 10)
        let now = Int(request.header("X-Now") ?? "") ?? 0
        let yesterday = Int(request.header("X-Yesterday") ?? "") ?? 0
        #expect(now - yesterday == 86_400)
        #expect(request.header("X-Email")?.contains("@") == true)
        #expect(request.header("X-Dotenv") == "k-123")
        #expect(request.bodyText.count == 15)
    }

    @Test func postmansWholeListOfRandomVariablesExpands() async throws {
        // Given a request using Postman's dynamic variables beyond the common few, every one of them in its body
        let names = PostmanFakerNames.catalog
        let (result, received) = try await run("""
            POST BASE/fake
            X-Currency: {{$randomCurrencyCode}}
            X-Latitude: {{$randomLatitude}}
            X-Image: {{$randomCatsImage}}
            X-Product: {{$randomProductName}}
            Content-Type: text/plain

            \(names.map { "{{\($0)}}" }.joined(separator: "|"))
            """)
        // Then each expanded, to a value of the shape Postman gives
        #expect(result.status == 0, "\(result.stderr)")
        let request = try #require(received.first)
        #expect(request.header("X-Currency")?.count == 3 && request.header("X-Currency")?.allSatisfy(\.isUppercase) == true)
        #expect(Double(request.header("X-Latitude") ?? "").map { abs($0) <= 90 } == true, "\(request.headerLines)")
        #expect(request.header("X-Image")?.hasPrefix("https://") == true && request.header("X-Image")?.contains("/cats") == true)
        #expect(request.header("X-Product")?.split(separator: " ").count == 3)
        let values = request.bodyText.split(separator: "|", omittingEmptySubsequences: false)
        #expect(values.count == names.count && values.allSatisfy { !$0.isEmpty && !$0.contains("{{") }, "\(request.bodyText)")
    }

    @Test func aJetBrainsHandlerReadsValuesWithJSONPath() async throws {
        // Given a handler that takes values out of JSON with the JetBrains jsonPath(data, path) function
        let (result, received) = try await run("""
            GET BASE/first

            > {%
                const data = {"users": [{"name": "ada", "id": 1}, {"name": "bob", "id": 2}]};
                client.global.set("second", jsonPath(data, "$.users[1].name"));
                client.global.set("ids", jsonPath(JSON.stringify(data), "$.users[*].id").join("-"));
                client.global.set("none", String(jsonPath(data, "$.nobody")));
            %}

            ###
            GET BASE/next?second={{second}}&ids={{ids}}&none={{none}}
            """)
        // Then the next request carries what it found: one value, all values, or null
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(received.last?.requestLine == "GET /next?second=bob&ids=1-2&none=null HTTP/1.1", "\(result.stdout)")
    }

    @Test func namesAboveTheSeparatorAndAfterItChainRequests() async throws {
        let (result, received) = try await run("""
            # @name login
            ###
            POST BASE/login

            # @name
            ### me
            GET BASE/me
            Authorization: Bearer {{login.response.body.$.token}}
            """)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(received.last?.header("Authorization") == "Bearer t0k")
        #expect(result.stdout.contains("### login") && result.stdout.contains("### me"), "\(result.stdout)")
    }

    @Test func promptsNeedAVarAndErrorsNameTheirFileAndLine() async throws {
        let text = """
            # @prompt otp one-time password
            GET BASE/otp?code={{otp}}

            ###
            # @name uses
            GET BASE/x
            X-Token: {{token}}
            """
        let (failed, none) = try await run(text)
        #expect(failed.status == 3)
        #expect(none.isEmpty)
        #expect(failed.stderr.contains("asks for 'otp' (one-time password); pass --var otp=VALUE"), "\(failed.stderr)")
        #expect(failed.stderr.contains("api.http:7: unknown variable 'token'"), "\(failed.stderr)")
        #expect(failed.stderr.contains("no http-client.env.json found"), "\(failed.stderr)")
        let (answered, received) = try await run(text, arguments: ["--all", "--var", "otp=424242", "--var", "token=t"])
        #expect(answered.status == 0, "\(answered.stderr)")
        #expect(received.first?.target == "/otp?code=424242")
    }

    @Test func aChainedRequestThatFailedIsToldFromOneThatDoesNotExist() async throws {
        let (result, _) = try await run("""
            # @name login
            GET {{nowhere}}/login

            ###
            GET BASE/a?t={{login.response.body.$.token}}

            ###
            GET BASE/b?t={{logn.response.body.$.token}}
            """)
        #expect(result.status == 3)
        #expect(result.stderr.contains("request 'login' failed earlier in this run"), "\(result.stderr)")
        #expect(result.stderr.contains("no request is named 'logn'; did you mean 'login'?"), "\(result.stderr)")
    }

    @Test func environmentFilesAreFoundBesideAFileInASubfolder() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("sub/api.http", "GET {{host}}/sub\n")
        try folder.write("sub/http-client.env.json", #"{"dev": {"host": "\#(server.base)"}}"#)
        let result = try await CourierCLI.run(["run", "sub/api.http", "--env", "dev"], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.first?.target == "/sub")
    }

    @Test func courierSendWithDataStillSendsAFormContentTypeAsCurlDoes() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let result = try await CourierCLI.run(["send", "POST", "\(server.base)/form", "-d", "a=1&b=2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.first?.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(server.requests.first?.bodyText == "a=1&b=2")
    }
}

/// Postman's dynamic variables beyond the common few (its dynamic-variables reference), as a user writes them.
enum PostmanFakerNames {
    static let catalog = [
        "$randomNoun", "$randomVerb", "$randomIngverb", "$randomAdjective", "$randomAbbreviation", "$randomPhrase",
        "$randomCatchPhrase", "$randomCatchPhraseAdjective", "$randomCatchPhraseDescriptor", "$randomCatchPhraseNoun",
        "$randomBs", "$randomBsAdjective", "$randomBsBuzz", "$randomBsNoun", "$randomLoremSentences",
        "$randomLoremParagraph", "$randomLoremText", "$randomLoremSlug", "$randomProduct",
        "$randomProductName", "$randomProductAdjective", "$randomProductMaterial", "$randomDepartment",
        "$randomBankAccount", "$randomBankAccountName", "$randomCreditCardMask", "$randomBankAccountBic",
        "$randomBankAccountIban", "$randomTransactionType", "$randomCurrencyCode", "$randomCurrencyName",
        "$randomCurrencySymbol", "$randomBitcoin", "$randomStreetName", "$randomLatitude", "$randomLongitude",
        "$randomPhoneNumberExt", "$randomNameSuffix", "$randomJobArea", "$randomJobDescriptor", "$randomJobType",
        "$randomUserAgent", "$randomDomainSuffix", "$randomDomainWord", "$randomWeekday", "$randomMonth",
        "$randomFileName", "$randomFileType", "$randomFileExt", "$randomCommonFileName", "$randomCommonFileType",
        "$randomCommonFileExt", "$randomFilePath", "$randomDirectoryPath", "$randomMimeType",
        "$randomDatabaseColumn", "$randomDatabaseType", "$randomDatabaseCollation", "$randomDatabaseEngine",
        "$randomAvatarImage", "$randomImageUrl", "$randomImageDataUri", "$randomAbstractImage",
        "$randomAnimalsImage", "$randomBusinessImage", "$randomCatsImage", "$randomCityImage", "$randomFoodImage",
        "$randomNightlifeImage", "$randomFashionImage", "$randomPeopleImage", "$randomNatureImage",
        "$randomSportsImage", "$randomTransportImage",
    ]
}
