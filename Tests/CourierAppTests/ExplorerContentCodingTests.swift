import CourierApp
import CourierHTTP
import CourierTerminal
import CourierTestSupport
import Foundation
import Testing

/// The explorer shows a body in a coding libcurl cannot decode as it came, and its status line says so.
@Suite("unknown content codings in the explorer")
struct ExplorerContentCodingTests {
    @Test func theStatusLineSaysTheBodyWasNotDecoded() async throws {
        // Given a server that labels its JSON "Content-Encoding: UTF-8", and a file with one request to it
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply.json(#"{"labelled": true}"#, headers: [("Content-Encoding", "UTF-8")])
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("explorer-coding")
        let file = folder.url.appendingPathComponent("api.http")
        try Data("GET \(server.url("/labelled").absoluteString)\n".utf8).write(to: file)
        let explorer = LiveExplorer(configuration: .init(transport: CurlTransport(), themeFolders: []),
                                    state: AppState(size: Size(width: 160, height: 40), collectionPath: file.path))
        defer { explorer.runner.shutdown() }
        #expect(await explorer.run(Explorer.startupEffects(explorer.state)) { $0.loading == .loaded })
        // When the request is sent
        let received = await explorer.press(Key(.enter)) { state in
            if case .received = state.response.phase { return state.responsePane?.isWorking == false }
            return false
        }
        // Then the body is shown as sent, and the status line says it was not decoded
        #expect(received, "\(explorer.screen)")
        #expect(explorer.screen.contains("\"labelled\""), "\(explorer.screen)")
        #expect(explorer.screen.contains("body not decoded: unknown coding 'UTF-8'"), "\(explorer.screen)")
    }
}
