import CourierApp
import CourierHTTP
import CourierTerminal
import Foundation
import Synchronization
import Testing

/// Drives the explorer's state with a real runner and store over files in a temporary folder.
final class ExplorerDriver {
    let folder: URL
    let queue = ActionQueue {}
    let runner: EffectRunner
    var state: AppState

    init(files: [String: String], size: Size = Size(width: 120, height: 40)) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("problems-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: [], clipboard: { _ in }),
                              queue: queue)
        state = AppState(size: size, collectionPath: folder.path)
    }

    func stop() {
        runner.shutdown()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Performs `effects`, then applies what comes back until `done` matches an action (10 s at most).
    func run(_ effects: [Effect], until done: (Action) -> Bool) async {
        runner.perform(effects)
        for _ in 0..<1000 {
            var finished = false
            for action in queue.drain() {
                runner.perform(update(&state, action))
                if done(action) { finished = true }
            }
            if finished { return }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    func press(_ keys: Key...) -> [Effect] { keys.flatMap { update(&state, .input(.key($0))) } }
    var screen: String { Snapshot.screen(state).joined(separator: "\n") }
}

@Suite("problems in the collection, reload, and the save conflict's three ways out", .serialized)
struct ProblemsAndConflictTests {
    static let broken = """
        ### good
        GET http://127.0.0.1:1/good

        ### first broken
        GET http://127.0.0.1:1/a
        Not a header

        ### second broken
        GET http://127.0.0.1:1/b
        Bad Name: x

        """

    @Test func everyProblemIsListedBrokenRequestsShowGreyedAndEnterJumpsThere() async throws {
        // Given a file with two malformed requests
        let driver = try ExplorerDriver(files: ["api.http": Self.broken])
        defer { driver.stop() }
        await driver.run([.loadCollection(path: driver.folder.path)]) { if case .collectionLoaded = $0 { true } else { false } }
        // Then both problems are kept, the tree shows both requests greyed, and the status bar points at the list
        #expect(driver.state.collection.problems.map(\.line) == [6, 10])
        let tree = driver.screen
        #expect(tree.contains("✗ line 6: expected a header"))
        #expect(tree.contains("✗ line 10: header name"))
        // When the Problems list is opened
        _ = driver.press(.char("!"))
        let list = driver.screen
        // Then every problem is there as file:line
        #expect(list.contains("api.http:6: expected a header"))
        #expect(list.contains("api.http:10: header name"))
        // And Enter on the second jumps to its row in the tree
        _ = driver.press(.char("j"), Key(.enter))
        #expect(driver.state.modals.isEmpty)
        #expect(driver.state.focus == .collection)
        #expect(driver.state.tree.selectedRow(driver.state.collection)?.kind == .problem(1))
        // When the file is fixed on disk and the collection reloaded
        try Data(Self.broken.replacingOccurrences(of: "Not a header\n", with: "").replacingOccurrences(of: "Bad Name", with: "Bad-Name").utf8)
            .write(to: driver.folder.appendingPathComponent("api.http"))
        let reload = driver.press(.ctrl("r"))
        #expect(reload == [.loadCollection(path: driver.folder.path)])
        await driver.run(reload) { if case .collectionLoaded = $0 { true } else { false } }
        // Then the problems are gone and all three requests load
        #expect(driver.state.collection.problems.isEmpty)
        #expect(driver.state.collection.files.first?.requests.count == 3)
    }

    @Test func aSaveConflictOffersTheDiffAndOverwriteKeepsTheOtherProgramsChange() async throws {
        // Given a request open and edited, and its file changed on disk by another program meanwhile
        let text = "### one\nGET http://127.0.0.1:1/one\n\n### two\nGET http://127.0.0.1:1/two\n"
        let driver = try ExplorerDriver(files: ["api.http": text])
        defer { driver.stop() }
        await driver.run([.loadCollection(path: driver.folder.path)]) { if case .collectionLoaded = $0 { true } else { false } }
        // (the first request is open at start; focusing the editor sends nothing)
        _ = driver.press(.char("2"))
        #expect(driver.state.editor.name == "one")
        driver.state.editor.url = LineEditor("http://127.0.0.1:1/edited")
        let file = driver.folder.appendingPathComponent("api.http")
        try Data(text.replacingOccurrences(of: "/two", with: "/changed-elsewhere").utf8).write(to: file)
        // When saving
        await driver.run(driver.press(.ctrl("s"))) { if case .saveConflict = $0 { true } else { false } }
        // Then a dialog offers reload, overwrite and the diff, and nothing was written
        let dialog = driver.screen
        #expect(dialog.contains("changed on disk"), "\(dialog)")
        #expect(dialog.contains("r reload it"), "\(dialog)")
        #expect(dialog.contains("o overwrite with your edit"), "\(dialog)")
        #expect(try String(contentsOf: file, encoding: .utf8).contains("/changed-elsewhere"))
        // When the diff is asked for
        await driver.run(driver.press(.char("d"))) { if case .conflictDiffReady = $0 { true } else { false } }
        let diff = driver.screen
        #expect(diff.contains("+ GET http://127.0.0.1:1/edited"), "\(diff)")
        #expect(diff.contains("- GET http://127.0.0.1:1/changed-elsewhere"), "\(diff)")
        // And overwrite is chosen
        await driver.run(driver.press(.char("o"))) { if case .saveFinished = $0 { true } else { false } }
        // Then the file holds the edit, and the other program's change to the other request stays
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(saved.contains("GET http://127.0.0.1:1/edited"), "\(saved)")
        #expect(saved.contains("GET http://127.0.0.1:1/changed-elsewhere"), "\(saved)")
        #expect(!driver.state.editor.isDirty)
    }
}
