import CourierApp
import CourierCollections
import CourierDemo
import CourierHTTP
import CourierTerminal
import Foundation
import Testing

/// A request that reads a file outside its collection's folder is not sent until the user says yes, asked
/// once per file per session; a run block whose `>>!` would replace a file Courier did not write asks too.
/// Driven through the explorer's real effect runner against the demo server, asserted on the text grid.
@Suite("files outside the collection in the explorer", .serialized)
struct ExplorerFileAccessTests {
    final class Driver: LiveExplorer {
        let server: DemoServer
        let folder: URL

        init() throws {
            server = try DemoServer.start()
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-files-\(UUID().uuidString)")
            let api = folder.appendingPathComponent("api")
            try FileManager.default.createDirectory(at: api, withIntermediateDirectories: true)
            let base = server.baseURL.absoluteString.trimmingTrailingSlash
            try Data("outside-bytes".utf8).write(to: folder.appendingPathComponent("outside.txt"))
            try Data("other-bytes".utf8).write(to: folder.appendingPathComponent("other.txt"))
            try Data("mine\n".utf8).write(to: api.appendingPathComponent("notes.txt"))
            try Data("""
                ### upload
                POST {{base}}/echo
                Content-Type: text/plain

                < ../outside.txt

                ### other
                POST {{base}}/echo
                Content-Type: text/plain

                < ../other.txt

                ### keep
                GET {{base}}/echo

                >>! ./notes.txt

                ### saving
                run #keep

                """.utf8).write(to: api.appendingPathComponent("api.http"))
            try Data(#"{"dev": {"base": "\#(base)"}}"#.utf8).write(to: api.appendingPathComponent("http-client.env.json"))
            let ledger = RedirectLedger(file: folder.appendingPathComponent("state/redirects.json"))
            super.init(configuration: .init(transport: CurlTransport(), themeFolders: []),
                       state: AppState(size: Size(width: 120, height: 40),
                                       collectionPath: api.appendingPathComponent("api.http").path, environment: "dev"),
                       store: CollectionStore(ledger: ledger))
        }

        func stop() {
            runner.shutdown()
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }

        var echoed: [String] {
            server.log.filter { $0.path == "/echo" && $0.method == "POST" }
                .map { String(decoding: $0.bodyPrefix, as: UTF8.self) }
        }
    }

    static func asking(_ state: AppState) -> Bool {
        if case .confirm? = state.modals.last { return true }
        return false
    }

    static func settled(_ state: AppState) -> Bool {
        switch state.response.phase {
        case .received: return state.responsePane?.isWorking == false
        case .failed: return true
        default: return false
        }
    }

    @Test func aBodyFileOutsideTheCollectionIsSentOnlyAfterTheUserSaysYesOncePerFile() async throws {
        let driver = try Driver()
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })
        let outside = driver.folder.appendingPathComponent("outside.txt").resolvingSymlinksInPath().path

        // When the request reading ../outside.txt is sent
        #expect(await driver.press(.char("3"), Key(.enter), until: Self.asking), "\(driver.screen)")
        // Then nothing went out and the user is asked about that file
        #expect(driver.echoed.isEmpty)
        let screen = driver.screen
        #expect(screen.contains("'upload' reads a file outside the collection's"), "\(screen)")
        #expect(screen.contains(String(outside.prefix(40))) && screen.contains("outside.txt Send it?"), "\(screen)")
        #expect(screen.contains("y yes   n no"), "\(screen)")

        // When the user says yes, the request goes out with the file's bytes
        #expect(await driver.press(.char("y"), until: Self.settled), "\(driver.screen)")
        #expect(driver.echoed == ["outside-bytes"])
        // And sending again does not ask again
        #expect(await driver.press(Key(.enter), until: { Self.settled($0) && driver.echoed.count == 2 }),
                "\(driver.screen)")
        #expect(!Self.asking(driver.state))

        // When another request reads another outside file and the user says no
        #expect(await driver.press(.char("1"), .char("j"), Key(.enter), until: Self.asking), "\(driver.screen)")
        #expect(await driver.press(.char("n"), until: { !Self.asking($0) }))
        // Then it is not sent, its failure says why, and the next send fails without asking again
        #expect(await driver.press(.char("3"), Key(.enter), until: Self.settled))
        #expect(!Self.asking(driver.state))
        #expect(driver.echoed.count == 2)
        #expect(driver.screen.contains("cannot read ../other.txt: it is outside the collection's folder"),
                "\(driver.screen)")
    }

    @Test func aRunBlocksBangOverAFileCourierDidNotWriteAsksBeforeReplacingIt() async throws {
        let driver = try Driver()
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })
        let notes = driver.folder.appendingPathComponent("api/notes.txt")

        // When the run block whose request saves over notes.txt is sent
        #expect(await driver.press(.char("1"), .char("j"), .char("j"), .char("j"), Key(.enter), until: Self.asking),
                "\(driver.screen)")
        // Then the file is untouched and the user is asked
        #expect(try String(contentsOf: notes, encoding: .utf8) == "mine\n")
        #expect(driver.screen.contains("'keep' saves its response over a file Courier did"), "\(driver.screen)")
        #expect(driver.screen.contains("notes.txt Replace it?"), "\(driver.screen)")
        // When the user says yes, the block runs again and replaces it
        #expect(await driver.press(.char("y"), until: Self.settled), "\(driver.screen)")
        #expect(try String(contentsOf: notes, encoding: .utf8) != "mine\n")
    }
}
