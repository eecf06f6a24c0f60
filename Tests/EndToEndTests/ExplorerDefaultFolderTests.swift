import CourierTestSupport
import Foundation
import Testing

/// `courier` with no PATH, as a new user types it first: in a project with request files beside it, and in a
/// folder with none.
@Suite("courier with no PATH", .serialized)
struct ExplorerDefaultFolderTests {
    static func folder(_ files: [String: String]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nopath-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, text) in files {
            let file = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        return folder
    }

    @Test func inAFolderWithRequestFilesAndNoCollectionsFolderItOpensThem() async throws {
        // (in a folder of its own, as projects keep them: `http/`, `requests/`)
        let folder = try Self.folder(["http/orders.rest": "### listOrders\nGET http://127.0.0.1:9/orders\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let binary = TmuxSession.binary.path
        let tmux = try await TmuxSession(command: "XDG_STATE_HOME='\(folder.path)/state' exec '\(binary)'",
                                         directory: folder, width: 80, height: 24)
        defer { tmux.stop() }
        let (shown, screen) = await tmux.waitFor { $0.contains("listOrders") && $0.contains("orders.rest") }
        #expect(shown, "the files beside it did not open:\n\(screen)")
    }

    @Test func inAFolderWithNoneItSaysWhatToGiveAndPointsAtTheDemo() async throws {
        let folder = try Self.folder(["notes.txt": "nothing to send", "docs/a/deep.http": "GET http://127.0.0.1:9/\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await CourierCLI.run([], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("no Collections folder and no .http or .rest file here"), "\(result.stderr)")
        #expect(result.stderr.contains("courier demo"), "\(result.stderr)")
        // Not a guess at a mistyped subcommand: nothing was typed.
        #expect(!result.stderr.contains("did you mean"), "\(result.stderr)")
    }
}
