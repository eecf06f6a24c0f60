import CourierTestSupport
import Foundation
import Testing

/// XPath into XML responses in `courier run`: the REST Client's `{{login.response.body.//token}}` and
/// httpyac's `?? xpath` lines, checked by what the next request carried to the server.
@Suite("XPath in courier run")
struct XPathRunTests {
    static func xmlServer() throws -> LoopbackServer {
        try LoopbackServer { request in
            guard request.path == "/login" else { return .json("{}") }
            return LoopbackServer.Reply(headers: [("Content-Type", "application/xml")], body: Data("""
                <?xml version="1.0"?><auth expires="3600"><token>x-77</token>\
                <roles><role>a</role><role>b</role></roles></auth>
                """.utf8))
        }
    }

    @Test func anXMLResponseFeedsLaterRequestsThroughXPathAndJSONPathStillAppliesToJSON() async throws {
        // Given a login answering XML, and a request using its token, an attribute and a count
        let server = try Self.xmlServer()
        let folder = try TemporaryFolder()
        let base = server.baseURL.absoluteString
        try folder.write("api.http", """
            # @name login
            POST \(base)/login

            ###
            # @name me
            GET \(base)/me
            X-Token: {{login.response.body.//token}}
            X-Expires: {{login.response.body./auth/@expires}}
            X-Roles: {{login.response.body.count(//role)}}

            ###
            GET \(base)/after?empty={{me.response.body.$}}

            ###
            GET \(base)/broken
            X-Role: {{login.response.body.//role}}
            """)
        // When the file runs
        let result = try await CourierCLI.run(["run", "api.http", "--all"], in: folder.url)
        // Then the server received the values the XPath expressions selected
        let received = server.requests
        let me = try #require(received.first { $0.path == "/me" })
        #expect(me.headers["x-token"] == "x-77", "\(me.headers)")
        #expect(me.headers["x-expires"] == "3600")
        #expect(me.headers["x-roles"] == "2")
        #expect(received.contains { $0.path == "/after" }, "a JSON response is still read with JSONPath")
        // And an expression selecting two nodes is an error naming it, and nothing is sent
        #expect(!received.contains { $0.path == "/broken" })
        #expect(result.status == 3)
        #expect((result.stdout + result.stderr).contains("XPath '//role' on the response of 'login': it selects 2 nodes"),
                "\(result.stdout)\(result.stderr)")
    }

    @Test func anXMLRequestBodyIsReadWithXPathToo() async throws {
        // Given a login that sends XML, and a request copying a field of what it sent
        let server = try Self.xmlServer()
        let folder = try TemporaryFolder()
        let base = server.baseURL.absoluteString
        try folder.write("api.http", """
            # @name login
            POST \(base)/login
            Content-Type: application/xml

            <login><user>ada</user></login>

            ###
            GET \(base)/me
            X-User: {{login.request.body.//user}}
            """)
        // When the file runs
        let result = try await CourierCLI.run(["run", "api.http", "--all"], in: folder.url)
        // Then the server received the value read from the request body
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let me = try #require(server.requests.first { $0.path == "/me" })
        #expect(me.headers["x-user"] == "ada", "\(me.headers)")
    }

    @Test func httpyacXPathLinesAreTestsAndAFailingOneNamesItsExpression() async throws {
        // Given `?? xpath` lines after an XML response
        let server = try Self.xmlServer()
        let folder = try TemporaryFolder()
        try folder.write("api.http", """
            POST \(server.baseURL.absoluteString)/login

            ?? xpath //token == x-77
            ?? xpath /auth/@expires > 60
            ?? xpath //role[2] startsWith b
            ?? xpath //missing exists
            ?? status == 200
            """)
        // When it runs
        let result = try await CourierCLI.run(["run", "api.http", "--all"], in: folder.url)
        // Then the matching lines pass, the one selecting nothing fails saying why, and the others still run
        #expect(result.status == 1)
        let passing = ["xpath //token == x-77", "xpath /auth/@expires > 60", "xpath //role[2] startsWith b", "status == 200"]
        for name in passing {
            #expect(result.stdout.contains("✓ " + name), "\(name): \(result.stdout)")
        }
        #expect(result.stdout.contains("✗ xpath //missing exists: XPath '//missing': the XML response has nothing there"),
                "\(result.stdout)")
    }
}
