import CourierHTTP
import Testing
@testable import CourierCollections

/// httpyac's `@name = value` lines after a request line: read as variables set from the response, never sent
/// as a header or body, and kept as written when the request is edited.
@Suite("httpyac response variables: parsing and editing")
struct HttpyacResponseVariableParserTests {
    static let text = """
        # @name login
        POST https://x/login
        @token = {{login.token}}
        Content-Type: application/json

        {"user": "ada"}

        @lazy := {{response.parsedBody.n}}
        ###
        GET https://x/me

        @only={{response.body}}
        ###
        POST https://x/notes
        Content-Type: text/plain

        @mention this is body text
        """

    @Test func variableLinesAfterTheRequestLineAreSetFromTheResponseNotSent() throws {
        // Given variables among the headers, after a body, as the whole body, and body text starting with `@`
        let file = HTTPFile(path: "v.http", text: Self.text)
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        let login = try #require(file.requests.first)
        // Then they are the request's response variables, in order, the lazy one marked; the body is the JSON
        #expect(login.responseVariables.map(\.name) == ["token", "lazy"])
        #expect(login.responseVariables.map(\.isLazy) == [false, true])
        #expect(login.headers["Content-Type"] == "application/json")
        #expect(login.body == .text(#"{"user": "ada"}"#))
        #expect(login.variables.isEmpty)
        #expect(file.requests[1].responseVariables.map(\.value) == ["{{response.body}}"])
        #expect(file.requests[1].body == .none)
        // And body text starting with `@` but not a definition stays the body
        #expect(file.requests[2].responseVariables.isEmpty)
        #expect(file.requests[2].body == .text("@mention this is body text"))
    }

    @Test func editingTheHeadersOrBodyKeepsTheVariableLines() throws {
        // Given the login request with a changed header and body
        let file = HTTPFile(path: "v.http", text: Self.text)
        var edited = try #require(file.requests.first)
        edited.headers["Content-Type"] = "application/vnd.api+json"
        edited.body = .text(#"{"user": "grace"}"#)
        // When it is written back
        let text = try file.replacing(request: file.requests[0], with: edited)
        // Then both variable lines are still there, and read back the same
        let reread = HTTPFile(path: "v.http", text: text)
        #expect(reread.requests.first?.responseVariables.map(\.name) == ["token", "lazy"], "\(text)")
        #expect(reread.requests.first?.body == .text(#"{"user": "grace"}"#), "\(text)")
    }
}
