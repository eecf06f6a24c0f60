import CourierApp
import CourierHTTP
import CourierTerminal
import CourierTestSupport
import Foundation
import Testing

/// A Postman collection opened in the explorer: no bogus request made of its JSON, and the collection pane
/// says what the file is and how to convert it, whole, at 80×24.
@Suite("Another tool's file opened in the explorer")
struct ExplorerForeignFileTests {
    @Test func aPostmanCollectionShowsWhatToRunInTheCollectionPane() async throws {
        // Given the explorer opened on a Postman collection at 80×24
        let folder = try TemporaryFolder("foreign-explorer")
        let file = try folder.write("shop.postman_collection.json", """
            {"info": {"name": "Shop"}, "item": [{"name": "List", "request": {"method": "GET", "url": "http://127.0.0.1:1/x"}}]}
            """)
        let driver = LiveExplorer(configuration: .init(transport: CurlTransport(), themeFolders: []),
                                  state: AppState(size: Size(width: 80, height: 24), collectionPath: file.path))
        defer { driver.runner.shutdown() }
        // When it has loaded
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })
        // Then no request was read from it, and the pane's wrapped lines hold the import command
        #expect(driver.state.collection.files.isEmpty)
        let pane = driver.screen.split(separator: "\n").map { line in
            String(line.prefix(24)).trimmingCharacters(in: CharacterSet(charactersIn: "┃│ "))
        }.joined().replacingOccurrences(of: " ", with: "")
        #expect(pane.contains("aPostmancollection,nota.httpfile"), "\(driver.screen)")
        #expect(pane.contains("'courierimportpostman"), "\(driver.screen)")
        #expect(!driver.screen.contains("\"item\""), "\(driver.screen)")
    }
}
