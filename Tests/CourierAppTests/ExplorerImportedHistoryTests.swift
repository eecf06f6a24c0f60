import CourierApp
import CourierBody
import CourierCollections
import CourierHTTP
import CourierHistory
import CourierTerminal
import Foundation
import Testing

/// A HAR's responses, kept by the import as the first history entries of the requests it wrote, are what F2
/// shows for those requests in the explorer opened on the import's folder.
@Suite struct ExplorerImportedHistoryTests {
    final class Driver: LiveExplorer {
        let folder: URL
        var history: URL { folder.appendingPathComponent("history") }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("har-history-\(UUID().uuidString)")
            let collection = folder.appendingPathComponent("api")
            try FileManager.default.createDirectory(at: collection, withIntermediateDirectories: true)
            // Given a HAR imported as `courier import har` imports it: files written, responses kept in history
            let conversion = try HARImporter.convert(Data(Self.har.utf8), source: "session.har")
            for file in conversion.output.files {
                try Data(file.text.utf8).write(to: collection.appendingPathComponent(file.name))
            }
            let store = HistoryStore(directory: folder.appendingPathComponent("history"))
            for exchange in conversion.exchanges {
                try store.record(exchange.entry, body: exchange.body, secrets: exchange.secrets)
            }
            super.init(configuration: .init(transport: CurlTransport(), themeFolders: [],
                                            historyDirectory: folder.appendingPathComponent("history"),
                                            clipboard: { _ in }),
                       state: AppState(size: Size(width: 140, height: 40), collectionPath: collection.path))
        }

        func stop() {
            runner.shutdown()
            try? FileManager.default.removeItem(at: folder)
        }

        static let har = """
            {"log": {"version": "1.2", "entries": [
              {"startedDateTime": "2026-05-01T10:00:00.000Z", "time": 12,
               "request": {"method": "GET", "url": "http://127.0.0.1:9/api/users", "headers": []},
               "response": {"status": 200, "statusText": "OK",
                            "headers": [{"name": "Content-Type", "value": "application/json"}],
                            "content": {"size": 22, "mimeType": "application/json", "text": "{\\"users\\":[\\"from-har\\"]}"}}},
              {"startedDateTime": "2026-05-01T10:00:01.000Z", "time": 5,
               "request": {"method": "POST", "url": "http://127.0.0.1:9/api/form", "headers": []},
               "response": {"status": 201, "statusText": "Created", "headers": [], "content": {"size": 0}}}
            ]}}
            """
    }

    @Test("F2 on a request imported from a HAR lists the browser's response, dated when the browser sent it")
    func f2ShowsTheResponseTheHARKept() async throws {
        let driver = try Driver()
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })
        // When the first request is selected (the collection's cursor starts on the request open at start) and
        // F2 pressed
        await driver.press(.char("1"))
        #expect(driver.state.editor.name == "get-users", "\(driver.screen)")
        #expect(await driver.press(Key(.function(2))) { $0.historyPane?.entries.isEmpty == false }, "\(driver.screen)")
        // Then the history pane shows that request's one entry: the HAR's 200
        let entries = try #require(driver.state.historyPane?.entries)
        #expect(entries.map(\.requestKey) == ["get-users (127.0.0.1-9.http)"])
        #expect(entries.first?.response?.status == 200)
        #expect(driver.screen.contains("200"), "\(driver.screen)")
    }
}
