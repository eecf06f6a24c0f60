import CourierHTTP
import CourierMessage
import Foundation
import Testing
@testable import CourierCollections

@Suite("Parsing .http syntax")
struct HTTPFileParserTests {
    @Test func separatorsSplitRequestsAndTheRestOfTheLineIsTheName() {
        // Given two blocks named on their separator lines
        let file = HTTPFile(path: "a.http", text: "### First one\nGET https://x/1\n\n### Second\nGET https://x/2\n")
        // Then each is a request named after its separator
        #expect(file.requests.map(\.name) == ["First one", "Second"])
        #expect(file.requests.map(\.url) == ["https://x/1", "https://x/2"])
        #expect(file.diagnostics.isEmpty)
    }

    @Test func aSeparatorTitleBoxedInHashesLosesTheBoxButAWordsOwnHashStays() {
        let file = HTTPFile(path: "a.http", text: "### List   ###\nGET https://x/1\n\n### C# ##\nGET https://x/2\n\n### C#\nGET https://x/3\n\n#####\nGET https://x/4\n")
        #expect(file.requests.map(\.name) == ["List", "C#", "C#", nil])
    }

    @Test func atNameCommentWinsOverTheSeparatorTextInBothSpellings() {
        let file = HTTPFile(path: "a.http", text: """
            ### a comment, not a name
            # @name login
            POST https://x/login

            ###
            // @name = second
            GET https://x/2
            """)
        #expect(file.requests.map(\.name) == ["login", "second"])
    }

    @Test func methodDefaultsToGetAndHTTPVersionIsRecognised() {
        let file = HTTPFile(path: "a.http", text: "https://x/a\n\n###\nPATCH https://x/b HTTP/1.1\n###\nPURGE https://x/c\n")
        #expect(file.requests.map(\.method) == [.get, .patch, HTTPMethod("PURGE")])
        #expect(file.requests.map(\.httpVersion) == [nil, "HTTP/1.1", nil])
    }

    @Test func commentsWithHashAndSlashesAreSkippedBeforeAndAmongHeaders() {
        let file = HTTPFile(path: "a.http", text: "# one\n// two\nGET https://x\n# three\nAccept: a\n// four\nX-A: b\n")
        #expect(file.requests.count == 1)
        #expect(file.requests[0].headers == HTTPHeaders([("Accept", "a"), ("X-A", "b")]))
    }

    @Test func fileVariablesComeFromTheFirstBlockAndFromBlocksWithoutARequest() throws {
        let text = try Fixtures.text("roundtrip/variables-only.http")
        let file = HTTPFile(path: "v.http", text: text)
        #expect(file.fileVariables.map(\.name) == ["host", "token"])
        #expect(file.requests.count == 1)
        #expect(file.requests[0].variables == [VariableDefinition(name: "path", value: "local")])
    }

    @Test func variableValuesMayUseOtherVariablesAndKeepTheirText() {
        let file = HTTPFile(path: "a.http", text: "@base = https://x\n@users = {{base}}/users\nGET {{users}}\n")
        #expect(file.fileVariables.map(\.value) == ["https://x", "{{base}}/users"])
    }

    @Test func urlContinuationLinesAreJoined() throws {
        let file = HTTPFile(path: "c.http", text: try Fixtures.text("roundtrip/continuation.http"))
        #expect(file.requests.map(\.url) == ["https://example.com/search?q=swift&page=2&sort=desc",
                                             "https://example.com/items?limit=10&offset=20"])
        #expect(file.requests[0].headers["Accept"] == "application/json")
    }

    @Test func bodyRunsToTheNextSeparatorWithoutTrailingBlankLines() throws {
        let file = HTTPFile(path: "b.http", text: try Fixtures.text("roundtrip/basic.http"))
        let create = try #require(file.named("createUser"))
        #expect(create.body == .text("{\n  \"name\": \"Ada\",\n  \"tags\": [\"a\", \"b\"]\n}"))
        #expect(create.method == .post)
    }

    @Test func fileBodiesAreRecognisedWithAndWithoutSubstitution() {
        let file = HTTPFile(path: "f.http", text: "POST https://x\n\n< ./a.json\n\n###\nPOST https://x\n\n<@ ./b.txt\n")
        #expect(file.requests.map(\.body) == [.file(path: "./a.json", substituteVariables: false),
                                             .file(path: "./b.txt", substituteVariables: true)])
    }

    @Test func multipartBodiesStayTextWithTheirFileLines() throws {
        let file = HTTPFile(path: "m.http", text: try Fixtures.text("roundtrip/multipart.http"))
        let upload = try #require(file.named("Upload"))
        guard case .text(let body) = upload.body else { Issue.record("expected a text body"); return }
        #expect(body.contains("< ./data.txt"))
        #expect(body.hasSuffix("--WebAppBoundary--"))
    }

    @Test func websocketRequestsSplitMessagesOnTripleEqualsAndMarkSubscriptions() throws {
        let file = HTTPFile(path: "w.http", text: try Fixtures.text("roundtrip/websocket.http"))
        let echo = try #require(file.named("echo"))
        #expect(echo.kind == .websocket)
        #expect(echo.url == "ws://localhost:8080/ws/echo")
        #expect(echo.headers["Sec-WebSocket-Protocol"] == "chat")
        #expect(echo.messages == [
            WebSocketMessage(text: "{\"op\": \"subscribe\", \"channel\": \"ticks\"}", subscribe: true),
            WebSocketMessage(text: "plain text message"),
            WebSocketMessage(text: "{\"op\": \"ping\"}", waitForServer: true),
        ])
    }

    @Test func scriptsAreParsedWithTheirLinesAndRedirectsAreReadAsResponseRedirects() throws {
        let file = HTTPFile(path: "s.http", text: try Fixtures.text("roundtrip/scripts.http"))
        #expect(file.requests.count == 2)
        #expect(file.requests[0].scripts.map(\.phase) == [.preRequest, .response])
        #expect(file.requests[0].scripts.map(\.line) == [2, 8])
        guard case .inline(let code) = file.requests[0].scripts[0].source else { Issue.record("inline"); return }
        #expect(code == "\n    request.variables.set(\"t\", \"1\")\n")
        #expect(file.requests[1].scripts == [RequestScript(phase: .response, source: .file("./handler.js"), line: 15)])
        #expect(file.requests[1].unsupported.map(\.text) == [">> ./saved-response.json"])
        #expect(file.requests[1].responseRedirects.map(\.path) == ["./saved-response.json"])
        #expect(file.requests[1].responseRedirects.map(\.replaces) == [false])
        #expect(file.diagnostics.isEmpty)
        #expect(file.requests[0].headers["Accept"] == "application/json")
        #expect(file.requests[0].body == .none)
    }

    @Test func aHandlerRightAfterTheSeparatorIsNotTakenForTheRequestLine() {
        let file = HTTPFile(path: "h.http", text: "###\n> {% client.global.set(\"a\", \"1\") %}\nGET https://x/1\n")
        #expect(file.requests.count == 1)
        #expect(file.requests[0].url == "https://x/1")
        #expect(file.requests[0].body == .none)
        #expect(file.requests[0].scripts.map(\.phase) == [.response])
        #expect(file.diagnostics.map(\.line) == [2])
    }

    @Test func textAfterAHandlerFileIsReportedNotDropped() {
        let file = HTTPFile(path: "t.http", text: "POST https://x/1\n\n{\"a\": 1}\n\n> ./handler.js\n{\"b\": 2}\n\n###\nGET https://x/2\n")
        #expect(file.requests.map(\.url) == ["https://x/2"])
        #expect(file.diagnostics.map(\.description) == [
            "t.http:6: text after the response handler is not part of the request; move it above the '> …' line "
                + "or into the handler",
        ])
    }

    @Test func aMultiLineScriptOnTheHandlerLineAndAPreRequestFile() {
        let file = HTTPFile(path: "m.http", text: "< ./sign.js\nGET https://x\n\n> {% client.log(1);\nclient.log(2) %}\n<> 2024-01-01T000000.200.json\n")
        #expect(file.requests[0].scripts == [
            RequestScript(phase: .preRequest, source: .file("./sign.js"), line: 1),
            RequestScript(phase: .response, source: .inline(" client.log(1);\nclient.log(2) "), line: 4),
        ])
        #expect(file.requests[0].body == .none)
        #expect(file.diagnostics.isEmpty)
    }

    @Test func tagsOtherThanNameAreKept() {
        let file = HTTPFile(path: "t.http", text: "# @no-redirect\n# @timeout 5\n# @expect-status 404, 429\nGET https://x\n")
        #expect(file.requests[0].tags == ["no-redirect": "", "timeout": "5", "expect-status": "404, 429"])
        #expect(file.requests[0].expectedStatuses == [404, 429])
    }

    @Test func malformedHeaderIsReportedWithItsLineAndTheOtherRequestsStillLoad() {
        let file = HTTPFile(path: "bad.http", text: "GET https://x/1\nnot a header\n\n###\nGET https://x/2\n###\n@ = 1\nGET https://x/3\n")
        #expect(file.requests.map(\.url) == ["https://x/2", "https://x/3"])
        #expect(file.diagnostics.map(\.description) == [
            "bad.http:2: expected a header 'Name: value' or a blank line before the body",
            "bad.http:7: expected a variable definition '@name = value'",
        ])
    }

    @Test func unclosedScriptIsAnError() {
        let file = HTTPFile(path: "u.http", text: "GET https://x\n\n> {%\n client.log(1)\n")
        #expect(file.diagnostics.contains { $0.line == 3 && $0.severity == .error && $0.message.contains("not closed") })
    }

    @Test func requestsRecordTheirLinesAndSourceText() {
        let text = "@a = 1\nGET https://x/1\n\n### two\nGET https://x/2\n"
        let file = HTTPFile(path: "l.http", text: text)
        #expect(file.requests.map(\.lines) == [1..<4, 4..<6])
        #expect(file.requests[1].sourceText == "### two\nGET https://x/2\n")
        #expect(file.requests.map(\.id.description) == ["l.http#1", "l.http#2"])
    }
}
