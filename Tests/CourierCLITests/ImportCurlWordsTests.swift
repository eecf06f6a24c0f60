import CourierTestSupport
import Foundation
import Testing

/// `courier import curl` takes a command typed as words, as a shell passes it, not only as one quoted argument.
@Suite("courier import curl with the command unquoted")
struct ImportCurlWordsTests {
    @Test func aCommandAfterDoubleDashIsImportedAndRunsAsCurlWouldSendIt() async throws {
        // Given a loopback server, and a curl command typed unquoted after --
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder("import-curl-words")
        let words = ["curl", "-X", "PUT", server.base + "/users/7?q=1", "-H", "Content-Type: application/json",
                     "-H", "X-Trace: abc", "-d", #"{"name": "Ada Lovelace"}"#]

        // When it is imported into a file, then the file runs
        let imported = try await CourierCLI.run(["import", "curl", "-o", "api.http", "--name", "put", "--"] + words,
                                                in: folder.url)
        let run = try await CourierCLI.run(["run", "api.http"], in: folder.url)

        // Then the server received the request the words describe
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let received = try #require(server.requests.first)
        #expect(received.method == "PUT")
        #expect(received.path == "/users/7")
        #expect(received.header("X-Trace") == "abc")
        #expect(received.bodyText == #"{"name": "Ada Lovelace"}"#)
    }

    @Test func withoutDoubleDashTheWordsAreTakenWhenTheyStartWithCurl() async throws {
        // When the command is typed unquoted right after the source word
        let result = try await CourierCLI.run(["import", "curl", "curl", "-X", "POST", "http://127.0.0.1:1/login",
                                               "-H", "Accept: application/json", "--data-raw", "a=1"])

        // Then it is converted, not refused as an unknown option '-X'
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("POST http://127.0.0.1:1/login"), "\(result.stdout)")
        #expect(result.stdout.contains("Accept: application/json"))
        #expect(!result.stderr.contains("unknown option"))
    }
}
