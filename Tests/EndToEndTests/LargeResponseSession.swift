import CourierDemo
import Foundation
import Testing

/// The real explorer in tmux on a one-request collection that asks the demo server for `megabytes` of
/// JSON: opened, sent, and showing the body's first screen. History and the HTTP cache go into the
/// session's own folder, never the user's.
final class LargeResponseSession {
    let server: DemoServer
    let folder: URL
    let tmux: TmuxSession

    init(megabytes: Int) async throws {
        server = try DemoServer.start()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-large-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let collection = "### \(megabytes) MB\n# @name large\nGET http://127.0.0.1:\(server.port)/large?mb=\(megabytes)\n"
        try Data(collection.utf8).write(to: folder.appendingPathComponent("large.http"))
        let binary = TmuxSession.binary.path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build first: swift build")
        let state = "XDG_STATE_HOME='\(folder.path)/state' XDG_CACHE_HOME='\(folder.path)/cache'"
        tmux = try await TmuxSession(command: "\(state) exec '\(binary)' large.http", directory: folder)
        let (loaded, first) = await tmux.waitFor { $0.contains("large") }
        #expect(loaded, "the collection never showed:\n\(first)")
        // The only request is selected at start: one Enter opens and sends it.
        try await tmux.keys("Enter")
        // The server generates the body on the fly; the first screen shows once it has arrived.
        let (opened, screen) = await tmux.waitFor(timeout: 90) { $0.contains("200 OK") && $0.contains("\"id\": 1,") }
        #expect(opened, "the body's first screen never showed:\n\(screen)")
    }

    /// Ends tmux and the server and removes the folder.
    func stop() {
        tmux.stop()
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
