import CourierApp
import CourierCollections
import CourierDemo
import CourierHTTP
import CourierTerminal
import Foundation
import Testing

/// A cookie jar the explorer cannot save is said in the status bar instead of being lost in silence.
@Suite struct CookieJarSaveFailureTests {
    @Test func aJarThatCannotBeSavedIsSaidInTheStatusBar() async throws {
        // Given a jar folder that cannot be made (a file holds its name), and a login setting a cookie
        let server = try DemoServer.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-jar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        let blocked = folder.appendingPathComponent("cookies")
        try Data("not a folder".utf8).write(to: blocked)
        try Data("### login\nPOST {{base}}/session/login\nContent-Type: application/json\n\n{\"username\": \"grace\"}\n"
            .utf8).write(to: folder.appendingPathComponent("s.http"))
        let queue = ActionQueue {}
        let base = server.baseURL.absoluteString.trimmingTrailingSlash
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: [],
                                                       cookies: CookieJarStore(directory: blocked)),
                                  queue: queue, store: CollectionStore(overrides: ["base": base]))
        defer { runner.perform([.cancelSend]) }
        let log = ActionLog(queue)
        runner.perform([.loadCollection(path: folder.appendingPathComponent("s.http").path)])
        let collection = try #require(await log.waitFor(polls: 6000) {
            if case .collectionLoaded(let c) = $0 { c } else { nil }
        })
        // When the login is sent
        let ref = RequestRef(file: collection.files[0].path, index: 0)
        runner.perform([.send(generation: 1, job: SendJob(ref: ref, draft: try #require(collection.request(ref)),
                                                          environment: nil))])
        let notice = try #require(await log.waitFor(polls: 6000) {
            if case .notice(let message) = $0 { message } else { nil }
        })
        // Then the status bar says the jar was not saved and why
        var state = Fixtures.editing()
        _ = update(&state, .notice(notice))
        let screen = Screen.render(state).buffer.lines().joined(separator: "\n")
        #expect(notice.text.hasPrefix("Cookie jar not saved: \(blocked.path)/default.json: cannot save:"), "\(notice.text)")
        #expect(screen.contains("Cookie jar not saved"), "\(screen)")
    }
}
