import CourierTestSupport
import CourierDemo
import Foundation
import Testing

/// A machine without JavaScriptCore: `COURIER_JAVASCRIPTCORE_LIBRARY` names a library that does not exist,
/// which is what the loader meets there. Requests with scripts fail with a message that says what to
/// install; requests without scripts are sent as usual, and the server's log proves which were.
@Suite("courier without JavaScriptCore")
struct MissingJavaScriptCoreTests {
    static func base(_ server: DemoServer) -> String {
        let text = server.baseURL.absoluteString
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    @Test func aScriptFailsWithTheClearErrorWhileRequestsWithoutScriptsAreStillSent() async throws {
        // Given a file whose middle request has a pre-request script and whose last has a response handler
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder("nojsc")
        let missing = folder.url.appendingPathComponent("libjavascriptcoregtk-missing.so").path
        let file = try folder.write("api.http", """
            ### plain
            GET \(Self.base(server))/users/1

            ### scripted
            < {% request.variables.set("id", "7"); %}
            GET \(Self.base(server))/echo?id={{id}}

            ### handled
            GET \(Self.base(server))/users/2

            > {% client.global.set("seen", "yes"); %}

            ### after
            GET \(Self.base(server))/users/3
            """)

        // When it runs where the library cannot be loaded
        let result = try await CourierCLI.run(["run", file.path],
                                              environment: ["COURIER_JAVASCRIPTCORE_LIBRARY": missing])

        // Then both scripts fail with the error naming the library and the package to install
        #expect(result.status == 1)
        let expected = "cannot load JavaScriptCore (\(missing)); install Debian's libjavascriptcoregtk-4.1-0 to run scripts"
        let output = result.stdout + result.stderr
        #expect(output.components(separatedBy: expected).count - 1 == 2, "\(result.stdout)\n\(result.stderr)")
        // And the request whose pre-request script failed was never sent, while every other one was
        // (the server logs a request after answering it, so the last one may land a moment after exit)
        _ = await LoopbackServer.eventually { server.log.contains { $0.path == "/users/3" } }
        let paths = server.log.map(\.path)
        #expect(!paths.contains("/echo"))
        #expect(paths.filter { $0 == "/users/1" }.count == 1)
        #expect(paths.filter { $0 == "/users/2" }.count == 1)
        #expect(paths.filter { $0 == "/users/3" }.count == 1)
        #expect(!result.stderr.contains("crashed"))
    }

    @Test func sendNeverLoadsJavaScriptCoreAndWorksWithoutIt() async throws {
        // Given the same missing library
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder("nojsc")
        let missing = folder.url.appendingPathComponent("absent.so").path

        // When a one-shot request is sent
        let result = try await CourierCLI.run(["send", "\(Self.base(server))/users/1"],
                                              environment: ["COURIER_JAVASCRIPTCORE_LIBRARY": missing])

        // Then it succeeds and the server received it
        #expect(result.status == 0, "\(result.stderr)")
        #expect(await LoopbackServer.eventually { server.log.contains { $0.path == "/users/1" && $0.status == 200 } })
        #expect(!result.stderr.contains("JavaScriptCore"))
    }

    @Test func theRealLibraryStillRunsScriptsWhenTheVariableIsEmpty() async throws {
        // Given an empty variable, which means the default library
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder("nojsc")
        let file = try folder.write("pre.http", """
            < {% request.variables.set("id", "7"); %}
            GET \(Self.base(server))/echo?id={{id}}
            """)

        // When it runs
        let result = try await CourierCLI.run(["run", file.path], environment: ["COURIER_JAVASCRIPTCORE_LIBRARY": ""])

        // Then the script ran and its variable reached the server
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        _ = await LoopbackServer.eventually { server.log.contains { $0.path == "/echo" } }
        let echo = try #require(server.log.first { $0.path == "/echo" })
        #expect(echo.query.first { $0.name == "id" }?.value == "7")
    }
}
