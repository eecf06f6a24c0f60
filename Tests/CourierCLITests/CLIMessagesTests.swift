import CourierHistory
import CourierTestSupport
import CourierBody
import Foundation
import Testing

@Suite("the command line's errors: one prefix, usage errors exit 2, truncation said", .serialized)
struct CLIMessagesTests {
    @Test func importingAnotherToolsCommandIsAUsageErrorNotAnEmptyRequest() async throws {
        // When a wget command is given to import curl
        let result = try await CourierCLI.run(["import", "curl", "wget http://x"])
        // Then nothing is printed as a request, the error says why, and the exit code is 2
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty, "\(result.stdout)")
        #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr)")
        #expect(result.stderr.contains("'wget' is not curl"), "\(result.stderr)")
        // And a command without its leading curl still imports
        let bare = try await CourierCLI.run(["import", "curl", "http://x/y -H 'Accept: text/plain'"])
        #expect(bare.status == 0, "\(bare.stderr)")
        #expect(bare.stdout.contains("GET http://x/y"))
    }

    @Test func everyCommandsErrorsStartWithTheSamePrefix() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A missing history entry (was `courier:`), a failed send body (was `error:`), a usage error (`Error:`)
        let history = try await CourierCLI.run(["history", "show", "nosuchid", "--dir", folder.path])
        let send = try await CourierCLI.run(["send", "POST", "http://127.0.0.1:9/", "-d", "@/nonexistent/body"])
        let usage = try await CourierCLI.run(["send"])
        for result in [history, send, usage] {
            #expect(result.status != 0)
            #expect(result.stderr.hasPrefix("Error: "), "\(result.stderr)")
        }
    }

    @Test func historyShowSaysWhereATruncatedBodyStops() async throws {
        // Given a history entry whose 3 MB body was kept only up to the store's 2 MB
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = HistoryStore(directory: folder)
        let body = Data(("[" + String(repeating: "1234567,", count: 393_216) + "0]").utf8)
        let stored = try store.record(HistoryEntry(request: .init(method: "GET", url: "http://x/big"),
                                                   response: .init(status: 200, bodyBytes: body.count)), body: body)
        // When showing it
        let result = try await CourierCLI.run(["history", "show", stored.id, "--dir", folder.path])
        // Then the output ends by saying the body stops there, and how to get all of it
        #expect(result.status == 0)
        let last = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.hasPrefix("… truncated at 2.0 MB of 3.0 MB"), "\(last)")
        #expect(last.contains("-o FILE"))
    }
}
