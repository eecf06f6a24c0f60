import CourierApp
import CourierDemo
import CourierHTTP
import CourierHistory
import CourierTerminal
import CourierTestSupport
import Foundation
import Testing

/// A WebSocket connection of the live pane is kept in history when it ends, as a response is: its URL, the
/// time it was open, its close line and its messages, known secrets masked.
@Suite("WebSocket connections in history")
struct WebSocketPaneHistoryTests {
    final class Driver: LiveExplorer {
        let folder: TemporaryFolder
        let server: LoopbackUpgradeServer
        let history: HistoryStore

        init() throws {
            folder = try TemporaryFolder("ws-pane-history")
            server = try LoopbackUpgradeServer { fd, request, leftover in
                DemoWebSocketRoutes.serve(fd: fd, request: request, leftover: leftover)
            }
            try folder.write("api.http", """
                ### live
                WEBSOCKET \(server.url("/ws/echo").absoluteString)
                Authorization: Bearer {{token}}

                # @subscribe
                {"auth": "{{token}}", "hello": "courier"}

                """)
            try folder.write("http-client.env.json", #"{"dev": {}}"#)
            try folder.write("http-client.private.env.json", #"{"dev": {"token": "h1st-t0ken-93"}}"#)
            let historyFolder = folder.url.appendingPathComponent("history")
            history = HistoryStore(directory: historyFolder)
            super.init(configuration: .init(transport: CurlTransport(), themeFolders: [], historyDirectory: historyFolder),
                       state: AppState(size: Size(width: 160, height: 48),
                                       collectionPath: folder.url.appendingPathComponent("api.http").path,
                                       environment: "dev"))
        }

        func stop() {
            runner.shutdown()
            server.stop()
        }
    }

    @Test func anEndedConnectionIsKeptWithItsMessagesAndNoSecret() async throws {
        // Given a WEBSOCKET request whose subscription quotes a private token, connected and echoed
        let driver = try Driver()
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })
        #expect(await driver.press(.char("3"), Key(.enter), until: { state in
            if case .open = state.webSocketPane.connection { return state.webSocketPane.receivedCount >= 1 }
            return false
        }), "\(driver.screen)")
        // And the Log shows the connect as an attempt answered 101
        #expect(driver.state.log.attempts.contains { $0.method == "WS" && $0.outcome == .response(status: 101, headers: []) },
                "\(driver.state.log.attempts)")
        // When the user disconnects
        #expect(await driver.press(.char("5"), .char("D"), until: { state in
            if case .closed = state.webSocketPane.connection { true } else { false }
        }), "\(driver.screen)")
        // Then history holds the connection under the request's name: its URL, close line and both messages
        var kept: [HistoryEntry] = []
        for _ in 0..<600 where kept.isEmpty {
            kept = ((try? driver.history.list()) ?? []).filter { $0.request.method == "WEBSOCKET" }
            if kept.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
        }
        let entry = try #require(kept.first)
        #expect(entry.request.name == "live")
        #expect(entry.request.url == driver.server.url("/ws/echo").absoluteString)
        #expect(entry.response?.status == 101)
        #expect(entry.response?.reason?.hasPrefix("closed 1000") == true, "\(String(describing: entry.response))")
        let body = String(decoding: try driver.history.body(id: entry.id), as: UTF8.self)
        let lines = body.split(separator: "\n")
        #expect(lines.count == 2, "\(body)")
        #expect(lines.first?.contains(#""dir":"out""#) == true && lines.last?.contains(#""dir":"in""#) == true,
                "\(body)")
        #expect(body.contains("courier"), "\(body)")
        // And the private token, sent and echoed, is not in what was written
        #expect(!body.contains("h1st-t0ken-93"), "\(body)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: driver.history.directory.path)
        for file in files {
            let data = (try? Data(contentsOf: driver.history.directory.appendingPathComponent(file))) ?? Data()
            #expect(!String(decoding: data, as: UTF8.self).contains("h1st-t0ken-93"), "\(file)")
        }
        // And the history pane lists it as the collection does, and does not restore it into the editor as a request
        #expect(await driver.press(Key(.function(3))) { $0.historyPane?.entries.isEmpty == false }, "\(driver.screen)")
        #expect(driver.screen.contains("WS "), "\(driver.screen)")
        #expect(await driver.press(.char("r")) { $0.status?.text.contains("is not restored") == true }, "\(driver.screen)")
        #expect(driver.state.editor.draft.kind == .websocket)
    }
}
