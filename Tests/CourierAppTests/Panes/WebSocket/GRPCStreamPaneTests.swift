import CourierApp
import CourierHTTP
import CourierHistory
import CourierTerminal
import CourierTestSupport
import Foundation
import Testing

/// A GRPC request whose method streams goes on in the live pane, against the grpcio server with reflection
/// (Tests/Servers/grpc): replies show as they come, the send box sends on the call, `e` ends the client's
/// stream, and disconnecting cancels the call.
@Suite("GRPC streams in the live pane")
struct GRPCStreamPaneTests {
    final class Driver: LiveExplorer {
        let folder: TemporaryFolder
        let history: HistoryStore

        /// The explorer on one GRPC request of `method` with `body`.
        init(port: Int, method: String, body: String = "") throws {
            folder = try TemporaryFolder("grpc-pane")
            try folder.write("api.http", """
                ### \(method)
                GRPC 127.0.0.1:\(port)/courier.test.Echo/\(method)

                \(body)

                """)
            let historyFolder = folder.url.appendingPathComponent("history")
            history = HistoryStore(directory: historyFolder)
            super.init(configuration: .init(transport: CurlTransport(), themeFolders: [], historyDirectory: historyFolder),
                       state: AppState(size: Size(width: 160, height: 48),
                                       collectionPath: folder.url.appendingPathComponent("api.http").path))
        }

        /// The calls kept in history, once one is there (the store is written in the background).
        func keptCalls() async throws -> [HistoryEntry] {
            for _ in 0..<600 {
                let kept = ((try? history.list()) ?? []).filter { $0.request.method == "GRPC" }
                if !kept.isEmpty { return kept }
                try await Task.sleep(for: .milliseconds(100))
            }
            return []
        }

        var texts: [String] {
            let pane = state.webSocketPane
            return (0..<pane.entries.count).map { pane.entries[$0].text.filter { !$0.isWhitespace } }
        }

        var isClosed: Bool {
            if case .closed = state.webSocketPane.connection { true } else { false }
        }
    }

    @Test func aServerStreamsRepliesShowOneByOneThenItsStatus() async throws {
        let driver = try Driver(port: try await PythonTestServer.grpc.port(), method: "Count",
                                body: #"{"message": "tick", "count": 3, "wait": "1s"}"#)
        defer { driver.runner.shutdown() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })
        // When the server-streaming request is sent, the first reply shows while the call is still open
        #expect(await driver.press(.char("3"), Key(.enter), until: { $0.webSocketPane.receivedCount >= 1 }),
                "\(driver.screen)")
        #expect(driver.state.focus == .webSocket)
        #expect(!driver.isClosed, "\(driver.texts)")
        #expect(driver.texts.contains { $0.contains("tick1") }, "\(driver.texts)")
        // Then the other two, then the status OK
        #expect(await driver.run([]) { _ in driver.isClosed }, "\(driver.texts)")
        let texts = driver.texts
        let replies = (1...3).compactMap { count in texts.firstIndex { $0.contains("tick\(count)") } }
        #expect(replies.count == 3 && replies == replies.sorted(), "\(texts)")
        let status = try #require(texts.firstIndex { $0.contains("grpcOK") }, "\(texts)")
        #expect(status > replies.last ?? .max)
        #expect(driver.screen.contains("grpc OK"), "\(driver.screen)")
        #expect(driver.screen.contains("gRPC · 127.0.0.1"), "\(driver.screen)")
        // And the ended call is kept in history: its status and its three replies
        let call = try #require(try await driver.keptCalls().first)
        #expect(call.response?.reason?.contains("grpc OK") == true, "\(String(describing: call.response))")
        let kept = String(decoding: try driver.history.body(id: call.id), as: UTF8.self)
        #expect(kept.components(separatedBy: #""dir":"in""#).count - 1 == 3, "\(kept)")
    }

    @Test func messagesTypedInTheSendBoxGoOutOnAClientStream() async throws {
        let driver = try Driver(port: try await PythonTestServer.grpc.port(), method: "Sum")
        defer { driver.runner.shutdown() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })
        // Given the client-streaming Sum open in the pane
        #expect(await driver.press(.char("3"), Key(.enter), until: { state in
            if case .open = state.webSocketPane.connection { state.focus == .webSocket } else { false }
        }), "\(driver.screen)")
        // When two messages are typed in the send box and `e` ends the client's stream
        for (message, count) in [("a", 2), ("b", 5)] {
            await driver.press(.char("i"))
            await driver.type(#"{"message": "\#(message)", "count": \#(count)}"#)
            #expect(await driver.press(Key(.enter), until: { _ in
                driver.texts.contains { $0.contains(#""message":"\#(message)""#) }
            }), "\(driver.texts)")
            await driver.press(Key(.escape))
        }
        // Then the server's sum comes back, then OK
        #expect(await driver.press(.char("e"), until: { _ in driver.isClosed }), "\(driver.texts)")
        let texts = driver.texts
        #expect(texts.contains { $0.contains(#""total":"7""#) && $0.contains(#""count":2"#) }, "\(texts)")
        #expect(texts.last?.contains("grpcOK") == true, "\(texts)")
    }

    /// The explorer with a `Forever` call streaming into the pane (two replies in).
    static func endlessCall() async throws -> Driver {
        let driver = try Driver(port: try await PythonTestServer.grpc.port(), method: "Forever",
                                body: #"{"message": "on"}"#)
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })
        #expect(await driver.press(.char("3"), Key(.enter), until: { state in
            state.webSocketPane.receivedCount >= 2
        }), "\(driver.screen)")
        return driver
    }

    @Test func disconnectingCancelsTheCallAndConnectingCallsAgain() async throws {
        // Given a call that never ends streaming into the pane
        let driver = try await Self.endlessCall()
        defer { driver.runner.shutdown() }
        // When the pane's disconnect key is pressed, the call ends, by the user
        #expect(await driver.press(.char("D"), until: { _ in driver.isClosed }), "\(driver.texts)")
        guard case .closed(_, _, let byUser) = driver.state.webSocketPane.connection else { return }
        #expect(byUser)
        // And `o` calls again
        let before = driver.state.webSocketPane.receivedCount
        #expect(await driver.press(.char("o"), until: { state in
            state.webSocketPane.receivedCount >= before + 2 && !driver.isClosed
        }), "\(driver.texts)")
        #expect(driver.state.focus == .webSocket)
        await driver.press(.char("D"), until: { _ in driver.isClosed })
    }

    @Test func ctrlCCancelsTheCallInThePaneAsItCancelsARequestInFlight() async throws {
        // Given a call that never ends streaming into the pane
        let driver = try await Self.endlessCall()
        defer { driver.runner.shutdown() }
        // When Ctrl-C is pressed, the call ends, by the user, and the status bar says so
        #expect(await driver.press(.ctrl("c"), until: { _ in driver.isClosed }), "\(driver.texts)")
        guard case .closed(_, _, let byUser) = driver.state.webSocketPane.connection else { return }
        #expect(byUser)
        #expect(driver.state.status?.text == "gRPC call cancelled")
    }

    @Test func callingAgainWithAnotherRequestOpenSaysToOpenTheCallsRequest() {
        // Given the pane holding a gRPC call while the editor shows another (HTTP) request
        var state = Fixtures.loaded()
        state.press(.char("j"), Key(.enter))
        state.webSocketJob = SendJob(ref: nil, draft: RequestDraft(name: "Forever", kind: .grpc, method: "GRPC",
                                                                   url: "127.0.0.1:1/courier.test.Echo/Forever"),
                                     environment: nil)
        state.webSocketPane.title = "gRPC"
        state.webSocketPane.url = "http://127.0.0.1:1/courier.test.Echo/Forever"
        state.focus = .webSocket
        // When the pane's call-again key is pressed
        let effects = state.press(.char("o"))
        // Then nothing connects the WebSocket way, and the status bar says how to call again
        #expect(effects.isEmpty, "\(effects)")
        #expect(state.status?.text == "Open 'Forever' to call it again (Enter sends it)")
    }
}
