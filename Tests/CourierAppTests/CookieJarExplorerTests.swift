import CourierApp
import CourierCollections
import CourierDemo
import CourierHTTP
import CourierTerminal
import Foundation
import Synchronization
import Testing

/// The cookie jar in the explorer: a login that sets a session cookie, then a request that needs it, sent
/// by the effect runner against the demo server; the Request pane names the cookie that went with it and
/// F4 lists the jar, values masked.
@Suite(.serialized) struct CookieJarExplorerTests {
    @Test func aLoginsCookieSignsInTheNextRequestAndShowsMaskedInTheRequestPaneAndTheJar() async throws {
        // Given the explorer's runner with a cookie jar folder, on a file with a login and a request needing it
        let server = try DemoServer.start()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        try Data("""
            ### login
            POST {{base}}/session/login
            Content-Type: application/json

            {"username": "grace"}

            ### me
            GET {{base}}/session/me

            """.utf8).write(to: folder.appendingPathComponent("s.http"))
        let queue = ActionQueue {}
        let base = server.baseURL.absoluteString.hasSuffix("/") ? String(server.baseURL.absoluteString.dropLast())
                                                                 : server.baseURL.absoluteString
        let runner = EffectRunner(
            configuration: .init(transport: CurlTransport(), themeFolders: [],
                                 cookies: CookieJarStore(directory: folder.appendingPathComponent("cookies"))),
            queue: queue, store: CollectionStore(overrides: ["base": base]))
        defer { runner.perform([.cancelSend]) }
        let log = ActionLog(queue)
        func waitFor<T>(_ match: (Action) -> T?) async -> T? { await log.waitFor(match) }
        runner.perform([.loadCollection(path: folder.appendingPathComponent("s.http").path)])
        let collection = try #require(await waitFor { if case .collectionLoaded(let c) = $0 { c } else { nil } })
        let file = collection.files[0].path
        // When login is sent, then me
        for (generation, index) in [(1, 0), (2, 1)] {
            let ref = RequestRef(file: file, index: index)
            let draft = try #require(collection.request(ref))
            runner.perform([.send(generation: generation, job: SendJob(ref: ref, draft: draft, environment: nil))])
            _ = await waitFor { if case .responsePaneReady(generation, let s) = $0 { s } else { nil } }
        }
        // Then me was signed in by the cookie, which the server received
        let me = log.actions().lazy.compactMap { if case .responsePaneReady(2, let s) = $0 { s } else { nil } }.first
        #expect(me?.info.status == 200)
        #expect(server.log.last { $0.path == "/session/me" }?.header("Cookie")?.hasPrefix("courier_session=demo-") == true)
        // And the runner told the Request pane which cookie went with me, masked
        let cookies = try #require(log.actions().lazy.compactMap {
            if case .requestCookies("me", let lines) = $0 { lines } else { nil } }.first)
        #expect(cookies == ["courier_session=REDACTED"])
        // And F4 lists the jar with the value masked and its attributes
        var state = Fixtures.editing()
        _ = update(&state, .requestCookies(request: state.editor.name, lines: cookies))
        let effects = state.press(Key(.function(4)))
        #expect(effects == [.listCookies(environment: "dev")])
        runner.perform([.listCookies(environment: nil)])
        let listing = try #require(await waitFor { if case .cookiesListed(let l) = $0 { l } else { nil } })
        _ = update(&state, .cookiesListed(listing))
        let screen = Screen.render(state).buffer.lines().joined(separator: "\n")
        #expect(screen.contains("Cookies from the jar: courier_session=REDACTED"), "\(screen)")
        #expect(screen.contains("Cookie jar · default"), "\(screen)")
        #expect(screen.contains("127.0.0.1  /  courier_session=REDACTED  HttpOnly SameSite=Lax  session"), "\(screen)")
        #expect(!screen.contains("demo-"))
    }
}
