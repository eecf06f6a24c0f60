import CourierHTTP
import CourierScript
import Foundation
import Testing
@testable import CourierCollections

/// httpyac's reading rules, and the lenient ones httpyac and kulala.nvim share: `{{ }}` scripts, a request
/// line that starts the next request without `###`, a body without the blank line, `@ref`/`@import`/`@loop`,
/// `$input` prompts, and other protocols' request lines refused at their line.
@Suite("httpyac and kulala.nvim files: parsing")
struct HttpyacParserTests {
    @Test func scriptBlocksRunBeforeOrAfterTheirRequestAndFileWideOnesStandAlone() throws {
        // Given scripts in a block without a request, before a request line and after a body
        let file = HTTPFile(path: "y.http", text: """
            {{
              exports.shared = 1;
            }}
            {{+
              exports.every = 1;
            }}
            {{@response
              exports.after = 1;
            }}
            ###
            {{
              exports.before = 2;
            }}
            POST https://x/a
            Content-Type: text/plain

            hello

            {{
              exports.token = response.parsedBody.token;
            }}
            """)
        // Then the file keeps three file-wide scripts and the request one of each phase, in httpyac's dialect
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        let request = try #require(file.requests.first)
        #expect(request.body == .text("hello"))
        #expect(request.scripts.map(\.phase) == [.preRequest, .response])
        #expect(request.scripts.allSatisfy { $0.dialect == .httpyac })
        #expect(request.scripts.map(\.line) == [12, 20], "the line of each script's first code line")
        #expect(file.fileScripts.map(\.fileScope) == [.once, .everyRequest, .everyRequest])
        #expect(file.fileScripts.map(\.phase) == [.preRequest, .preRequest, .response])
        guard case .inline(let code) = request.scripts[1].source else { Issue.record("not inline"); return }
        #expect(code.trimmingCharacters(in: .whitespacesAndNewlines) == "exports.token = response.parsedBody.token;")
    }

    @Test func aRequestLineAfterAHandlerOrInPlaceOfAHeaderStartsTheNextRequest() throws {
        // Given requests httpyac separates without `###`
        let file = HTTPFile(path: "y.http", text: """
            GET https://x/one
            GET https://x/two
            Accept: text/plain

            ?? status == 200

            # @name third
            POST https://x/three
            Content-Type: application/json

            {"a": 1}

            DELETE /four HTTP/1.1
            """)
        // Then each is a request of its own; the name above the third is the third's
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        #expect(file.requests.map(\.url) == ["https://x/one", "https://x/two", "https://x/three", "/four"])
        #expect(file.requests.map(\.method.rawValue) == ["GET", "GET", "POST", "DELETE"])
        #expect(file.requests[1].headers["Accept"] == "text/plain")
        #expect(file.requests[1].scripts.count == 1, "the ?? test stays with its request")
        #expect(file.requests[2].name == "third")
        #expect(file.requests[2].body == .text(#"{"a": 1}"#))
        #expect(file.requests.map(\.lines) == [1..<2, 2..<7, 7..<13, 13..<14])
    }

    @Test func bodyTextThatMentionsAMethodAndWebSocketMessagesAreNotSplit() {
        let file = HTTPFile(path: "y.http", text: """
            POST https://x/notes
            Content-Type: text/plain

            please
            GET /this later
            GET https://x/not-split-without-a-blank-line

            ###
            WEBSOCKET ws://x/socket

            hello

            GET https://x/a-message
            """)
        #expect(file.requests.count == 2, "\(file.requests.map(\.url))")
        #expect(file.requests.first?.body == .text("please\nGET /this later\nGET https://x/not-split-without-a-blank-line"))
        #expect(file.requests.last?.messages.map(\.text) == ["hello\n\nGET https://x/a-message"])
    }

    @Test func aJSONXMLOrGraphQLBodyRightUnderTheHeadersIsTheBody() {
        let file = HTTPFile(path: "y.http", text: """
            POST https://x/json
            Content-Type: application/json
            {"a": [1, 2]}

            ###
            POST https://x/list
            [1, 2]

            ###
            POST https://x/xml
            Content-Type: application/xml
            <a>1</a>

            ###
            GRAPHQL https://x/graphql
            query Q($id: ID) {
              node(id: $id) { id }
            }

            {"id": 1}

            ###
            GRAPHQL https://x/graphql
            mutation { ping }
            """)
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        #expect(file.requests.map(\.body) == [
            .text(#"{"a": [1, 2]}"#), .text("[1, 2]"), .text("<a>1</a>"),
            .text("query Q($id: ID) {\n  node(id: $id) { id }\n}\n\n{\"id\": 1}"), .text("mutation { ping }"),
        ])
        #expect(file.requests[0].headers["Content-Type"] == "application/json")
    }

    @Test func aHeaderWhoseNameIsAVariableStaysAHeader() {
        let file = HTTPFile(path: "y.http", text: "POST https://x/a\n{{auth}}: Bearer t\n{{prefix}}-Trace : 1\n{{payload}}\n")
        #expect(file.requests.first?.headers.map(\.name) == ["{{auth}}", "{{prefix}}-Trace"])
        #expect(file.requests.first?.body == .text("{{payload}}"))
    }

    @Test func otherProtocolsRequestLinesAreErrorsAtTheirLineAndTheRestLoads() {
        // Given gRPC (which Courier calls), SSE, MQTT, AMQP requests and kulala's NOP between HTTP requests
        let file = HTTPFile(path: "y.http", text: """
            GRPC localhost:50051/helloworld.Greeter/SayHello
            {"name": "ada"}

            ###
            GRPC localhost:50051 helloworld.Greeter/SayHello

            ###
            SSE https://x/events
            ###
            MQTT mqtt://broker
            ###
            grpc://localhost:50051/a.B/C
            ###
            NOP
            Host: x
            ###
            PURGE https://x/cache
            ###
            VERSION-CONTROL https://x/dav
            """)
        // Then the GRPC requests load as gRPC calls; the others are refused at their line (a grpc:// line
        // without GRPC says how to write one), and the HTTP requests load with their own methods
        #expect(file.diagnostics.map(\.line) == [8, 10, 12, 14], "\(file.diagnostics)")
        #expect(file.diagnostics[2].message == "a gRPC call is written 'GRPC host:port/package.Service/Method' "
                + "(grpcs:// for TLS)")
        #expect(file.diagnostics.allSatisfy { $0.severity == .error })
        #expect(file.requests.map(\.kind) == [.grpc, .grpc, .http, .http])
        #expect(file.requests.map(\.method.rawValue) == ["POST", "POST", "PURGE", "VERSION-CONTROL"])
        #expect(file.requests.first?.messages.map(\.text) == [#"{"name": "ada"}"#])
    }

    @Test func aGRPCRequestWithoutSeparatorAfterAnHTTPOneIsARequestOfItsOwn() {
        let file = HTTPFile(path: "y.http", text: "GET https://x/a\n\nGRPC localhost:1/a.B/C\n{}\n\nGET https://x/b\n")
        #expect(file.requests.map(\.url) == ["https://x/a", "localhost:1/a.B/C", "https://x/b"])
        #expect(file.requests.map(\.kind) == [.http, .grpc, .http])
        #expect(file.diagnostics.isEmpty)
    }

    @Test func wsRequestsAreWebSocketRequests() {
        let file = HTTPFile(path: "y.http", text: "WS wss://x/socket\n\n{\"hi\": 1}\n")
        #expect(file.requests.first?.kind == .websocket)
        #expect(file.requests.first?.messages.map(\.text) == [#"{"hi": 1}"#])
    }

    @Test func refImportAndLoopTagsAreRead() {
        let file = HTTPFile(path: "y.http", text: """
            # @import ./auth.http
            ###
            # @ref login
            # @forceRef token
            # @loop for item of items
            # @name each
            GET https://x/{{item}}
            ###
            # @loop for 3
            GET https://x/{{$index}}
            ###
            # @loop while i < 3
            GET https://x/while
            ###
            # @loop while
            GET https://x/never
            ###
            # @ref two words
            GET https://x/never-either
            """)
        #expect(file.imports.map(\.path) == ["./auth.http"])
        #expect(file.requests.count == 3)
        let each = file.requests[0]
        #expect(each.references == [RequestReference(name: "login", force: false, line: 3),
                                    RequestReference(name: "token", force: true, line: 4)])
        #expect(each.loop?.kind == .forOf(variable: "item", iterable: "items"))
        #expect(each.tags.isEmpty, "\(each.tags)")
        #expect(file.requests[1].loop?.kind == .count(3))
        #expect(file.requests[2].loop?.kind == .whileTrue(condition: "i < 3"))
        #expect(file.diagnostics.map(\.line) == [15, 18], "\(file.diagnostics)")
        #expect(file.diagnostics.first?.message == "expected '# @loop while CONDITION'")
    }

    @Test func inputVariablesBecomePromptsOfTheRequestsThatUseThem() {
        let file = HTTPFile(path: "y.http", text: """
            @query = {{$input Search for? $value: swift}}
            @secret = {{$password Token?}}
            @pick = {{$pick-askonce Which app? $value: web,cli}}
            @url = https://x/search?q={{query}}

            GET {{url}}
            X-Token: {{secret}}

            ###
            GET https://x/{{pick}}

            ###
            GET https://x/none
            """)
        #expect(file.requests[0].prompts == [
            PromptVariable(name: "query", description: "Search for?", defaultValue: "swift"),
            PromptVariable(name: "secret", description: "Token?", isSecret: true),
        ])
        #expect(file.requests[1].prompts == [PromptVariable(name: "pick", description: "Which app? (one of web, cli)")])
        #expect(file.requests[2].prompts.isEmpty)
    }

    @Test func kulalaSecretPromptsAndCurlFlagsAreRead() {
        let file = HTTPFile(path: "y.http", text: """
            # @secret password Your password
            # @curl-insecure
            # @curl-connect-timeout 20
            # @curl-location
            GET https://x/a
            ###
            # @curl-proxy http://127.0.0.1:9
            POST https://x/b
            """)
        let request = file.requests.first
        #expect(request?.prompts == [PromptVariable(name: "password", description: "Your password", isSecret: true)])
        #expect(request?.options.insecure == true)
        #expect(request?.options.connectionTimeout == 20)
        #expect(file.requests.count == 1)
        #expect(file.diagnostics.map(\.line) == [7])
    }

    @Test func theOutlineReadsSplitRequestsAsTheFullParseDoes() throws {
        let text = try Fixtures.text("roundtrip/httpyac.http")
        let full = HTTPFile(path: "y.http", text: text)
        #expect(full.diagnostics.isEmpty, "\(full.diagnostics)")
        #expect(full.requests.map(\.name) == ["login", "me", nil])
        let outline = try HTTPFileOutline(path: "y.http", data: Data(text.utf8))
        #expect(try outline.entries.indices.map { try outline.template(at: $0) } == full.requests)
        #expect(outline.fileScripts == full.fileScripts)
    }

    @Test func forcedSeparatorsAndBatchBodiesKeepTheirRequestLinesInTheOutlineToo() throws {
        // Given a file marked # @forceRegionDelimiter (below its first block) with request lines in bodies
        let text = """
            GET https://x/first

            ###
            # @forceRegionDelimiter
            POST https://x/notes
            Content-Type: text/plain

            GET /this/is/text

            ###
            POST https://x/$batch
            Content-Type: multipart/mixed; boundary="b1"

            --b1

            GET /inner HTTP/1.1

            --b1--

            """
        // Then each parse finds the three requests ### separates
        let full = HTTPFile(path: "y.http", text: text)
        #expect(full.requests.map(\.url) == ["https://x/first", "https://x/notes", "https://x/$batch"])
        let outline = try HTTPFileOutline(path: "y.http", data: Data(text.utf8))
        #expect(try outline.entries.indices.map { try outline.template(at: $0) } == full.requests)
        // And without the tag, the batch alone keeps its inner request line
        let untagged = HTTPFile(path: "y.http", text: text.replacingOccurrences(of: "# @forceRegionDelimiter\n", with: ""))
        #expect(untagged.requests.map(\.url) == ["https://x/first", "https://x/notes", "/this/is/text", "https://x/$batch"])
    }

    @Test func aHostHeaderWithASchemeOrPort8443GivesTheScheme() {
        let id = RequestTemplateID(file: "y.http", ordinal: 1)
        let kulala = RequestTemplate(id: id, url: "/api", headers: ["Host": "http://example.com:8080"])
        let secure = RequestTemplate(id: id, url: "/api", headers: ["Host": "example.com:8443"])
        #expect(Resolver.absoluteURLText(kulala) == "http://example.com:8080/api")
        #expect(Resolver.absoluteURLText(secure) == "https://example.com:8443/api")
    }

    @Test func httpyacsCamelCasedTagsAreTheTagsCourierReads() {
        let file = HTTPFile(path: "y.http", text: "# @noRedirect\n# @noRejectUnauthorized\n# @noLog\nGET https://x\n")
        let options = file.requests.first?.options
        #expect(options?.followRedirects == false)
        #expect(options?.insecure == true)
        #expect(options?.noLog == true)
    }

    @Test func streamingAndLoggingHooksAreNotRunAndSayWhy() {
        let file = HTTPFile(path: "y.http", text: "GET https://x\n\n{{@streaming\n  await sleep(1)\n}}\n{{@responseLogging\n}}\n")
        #expect(file.requests.first?.scripts.isEmpty == true)
        #expect(file.diagnostics.map(\.line) == [3, 6])
        #expect(file.diagnostics.allSatisfy { $0.severity == .warning && $0.message.contains("are not run") })
    }

    @Test func httpyacsDisplayTagsChangeNothingThatIsSent() {
        let tags = ["title Sign in", "description the login", "save", "openWith vscode.markdown", "noResponseView",
                    "verbose", "debug", "extension json", "noStreamingLog"]
        let file = HTTPFile(path: "y.http", text: tags.map { "# @" + $0 }.joined(separator: "\n") + "\nGET https://x/a\n")
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        #expect(file.requests.first?.options == RequestOptions())
        #expect(file.requests.first?.url == "https://x/a")
    }

    @Test func aHeaderSpreadIsReadApartFromTheHeadersAndKeptWhenTheHeadersAreEdited() throws {
        // Given httpyac's parser test: two requests without `###`, each spreading an exported object
        let file = HTTPFile(path: "y.http", text: """
            GET https://x/a
            ...defaultHeaders
            GET https://x/b
            Accept: text/plain
            ...defaultHeaders,
            """)
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        #expect(file.requests.map(\.url) == ["https://x/a", "https://x/b"])
        #expect(file.requests.map(\.headerSpreads) == [["defaultHeaders"], ["defaultHeaders"]])
        #expect(file.requests[1].headers["Accept"] == "text/plain")
        // When the second's headers are edited and written back, the spread line stays
        var edited = file.requests[1]
        edited.headers["Accept"] = "application/json"
        let reread = HTTPFile(path: "y.http", text: try file.replacing(request: file.requests[1], with: edited))
        #expect(reread.requests.last?.headerSpreads == ["defaultHeaders"])
        #expect(reread.requests.last?.headers["Accept"] == "application/json")
    }

    @Test func httpyacsTagsCourierDoesNotFollowAreSentWithAWarningAtTheirLine() {
        let tags = ["jwt token", "rateLimit minIdleTime=100", "keepStreaming", "noClientCert"]
        let file = HTTPFile(path: "y.http", text: tags.map { "# @" + $0 }.joined(separator: "\n") + "\nGET https://x/a\n")
        #expect(file.requests.first?.url == "https://x/a")
        // `@jwt` is followed (HttpyacConfigRunTests): no warning for it.
        #expect(file.diagnostics.map(\.line) == [2, 3, 4])
        #expect(file.diagnostics.allSatisfy { $0.severity == .warning && $0.message.contains("is not followed") })
    }

    @Test func anUnclosedScriptIsAnErrorAtItsLineAndItsRequestIsNotKept() {
        let file = HTTPFile(path: "y.http", text: "GET https://x/a\n\n{{\n  exports.a = 1\n\n###\nGET https://x/b\n")
        #expect(file.requests.map(\.url) == ["https://x/b"])
        #expect(file.diagnostics.map(\.line) == [3])
        #expect(file.diagnostics.first?.message == "script '{{' is not closed with a '}}' line")
    }

    @Test func aProtoImportIsIgnoredWithAWarningAndTheFileVariablesAfterItStay() {
        let file = HTTPFile(path: "y.http", text: "proto < ./hello.proto\n@host=grpc.example.com\n\n###\nGRPC /sayHello\n")
        #expect(file.fileVariables.map(\.name) == ["host"])
        #expect(file.diagnostics.map(\.severity) == [.warning])
        #expect(file.requests.map(\.kind) == [.grpc])
    }
}
