import CourierTestSupport
import Foundation
import Testing

/// `courier COLLECTION.json` opens a Postman collection in the explorer, as Postman's peers open one.
@Suite("the explorer on a Postman collection", .serialized)
struct ExplorerPostmanTests {
    static let collection = """
        {"info": {"name": "Shop", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
         "variable": [{"key": "base", "value": "http://127.0.0.1:9"}],
         "item": [{"name": "List items", "request": {"method": "GET", "url": "{{base}}/items"}},
                  {"name": "Orders", "item": [{"name": "Place order", "request": {"method": "POST",
                    "url": "{{base}}/orders", "header": [{"key": "Content-Type", "value": "application/json"}],
                    "body": {"mode": "raw", "raw": "{\\"sku\\": 1}"}}}]}]}
        """

    @Test func itOpensThroughACopyInTheStateFolderAndWritesNothingBesideIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("postman-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.collection.utf8).write(to: folder.appendingPathComponent("shop.postman_collection.json"))
        let state = folder.appendingPathComponent("state")
        let tmux = try await TmuxSession(command: "XDG_STATE_HOME='\(state.path)' exec '\(TmuxSession.binary.path)' "
                                             + "shop.postman_collection.json", directory: folder, width: 100, height: 30)
        defer { tmux.stop() }
        // Then its requests are there, the folder's one included, and the status line says where the copy is
        // (waited for together: tmux may be read between the tree's rows and the status line's)
        let (shown, screen) = await tmux.waitFor {
            $0.contains("List items") && $0.contains("Place order") && $0.contains("Postman collection, opened as converted")
        }
        #expect(shown, "the collection's requests or the status line did not show:\n\(screen)")
        // And nothing was written beside the collection; the copy is in the state folder
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                == ["shop.postman_collection.json", "state"])
        let copies = try FileManager.default.contentsOfDirectory(atPath: state.appendingPathComponent("courier/postman").path)
        #expect(copies.count == 1 && copies[0].hasPrefix("shop.postman_collection-"), "\(copies)")
    }
}
