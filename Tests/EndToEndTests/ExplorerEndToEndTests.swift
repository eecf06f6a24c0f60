import CourierDemo
import Foundation
import Testing

/// Drives the real `courier` binary in tmux against a demo server started here.
@Suite("the explorer in tmux", .serialized)
struct ExplorerEndToEndTests {
    /// A temporary copy of the demo collection whose `demo` environment points at `server`.
    /// The demo server, a collection pointed at it (a copy of the demo collection, or `collection` as
    /// `demo.http`), and the explorer on it in tmux. History and the HTTP cache stay inside the session's
    /// folder, which `stop` removes.
    final class Session {
        let server: DemoServer
        let folder: URL
        let tmux: TmuxSession

        /// `variables` are set for the command (`TERM=… NO_COLOR=1`), `arguments` follow it; without
        /// `chooseEnvironment` no `--env` is given.
        init(collection: String? = nil, width: Int = 120, height: Int = 40, variables: String = "",
             arguments: String = "", chooseEnvironment: Bool = true) async throws {
            server = try DemoServer.start()
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = folder.appendingPathComponent("demo.http")
            if let collection {
                try Data(collection.utf8).write(to: file)
            } else {
                try FileManager.default.copyItem(at: TmuxSession.packageRoot.appendingPathComponent("Collections/demo.http"),
                                                 to: file)
            }
            let environment = #"{"demo": {"base": "http://127.0.0.1:\#(server.port)", "ws": "ws://127.0.0.1:\#(server.port)"}}"#
            try Data(environment.utf8).write(to: folder.appendingPathComponent("http-client.env.json"))
            let binary = TmuxSession.binary.path
            try #require(FileManager.default.isExecutableFile(atPath: binary), "build first: swift build")
            let state = "XDG_STATE_HOME='\(folder.path)/state' XDG_CACHE_HOME='\(folder.path)/cache'"
            tmux = try await TmuxSession(command: "\(state) \(variables) exec '\(binary)' demo.http \(chooseEnvironment ? "--env demo" : "") \(arguments)",
                                   directory: folder, width: width, height: height)
        }

        func stop() {
            tmux.stop()
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test func openTheDemoSelectARequestSendItAndRead200AndTheBody() async throws {
        // Given the explorer on the demo collection
        let session = try await Session()
        defer { session.stop() }
        let (server, tmux) = (session.server, session.tmux)
        let (loaded, first) = await tmux.waitFor { $0.contains("listUsers") }
        #expect(loaded, "the collection never showed:\n\(first)")
        // When selecting "listUsers" (the first request, "index", is selected at start) and sending it
        // with one Enter from the collection
        try await tmux.keys("j", "Enter")
        // Then the status and the body appear
        let (answered, screen) = await tmux.waitFor { $0.contains("200 OK") && $0.contains("Ada Lovelace") }
        #expect(answered, "no 200 with the body:\n\(screen)")
        #expect(server.completedCount(path: "/users") == 1)
        // And the log shows the attempt
        #expect(screen.contains("#1  200"), "no log row for the attempt:\n\(screen)")
    }

    @Test func theResponsePaneFollowsTheOpenRequest() async throws {
        // Given two requests, the first answered with the users list
        let session = try await Session(collection: """
            ### first
            GET {{base}}/users?page=1&per_page=5

            ### second
            GET {{base}}/etag

            """)
        defer { session.stop() }
        let tmux = session.tmux
        await tmux.waitFor { $0.contains("second") }
        try await tmux.keys("1", "/")
        try await tmux.type("first")
        try await tmux.keys("Enter", "Enter")
        let (answered, first) = await tmux.waitFor { $0.contains("Ada Lovelace") }
        #expect(answered, "no body for the first request:\n\(first)")
        // When the second request is opened
        try await tmux.keys("1", "Escape", "/")
        try await tmux.type("second")
        try await tmux.keys("Enter")
        // Then the Response pane shows the second request's state, not the first one's body
        let (switched, screen) = await tmux.waitFor { $0.contains("No response yet") }
        #expect(switched, "the Response pane did not follow the request:\n\(screen)")
        #expect(!screen.contains("Ada Lovelace"), "\(screen)")
        // And opening the first again shows its body again, without sending it
        try await tmux.keys("1", "Escape", "/")
        try await tmux.type("first")
        try await tmux.keys("Enter")
        let (back, again) = await tmux.waitFor { $0.contains("Ada Lovelace") }
        #expect(back, "the first request's response did not come back:\n\(again)")
        #expect(session.server.completedCount(path: "/users") == 1)
    }

    @Test func aFirstRunSendsTheFirstRequestWithOneEnterInTheOnlyEnvironment() async throws {
        // Given the explorer opened on the demo without --env, at 80×24
        let session = try await Session(width: 80, height: 24, chooseEnvironment: false)
        defer { session.stop() }
        let (server, tmux) = (session.server, session.tmux)
        let (loaded, first) = await tmux.waitFor { $0.contains("index") && $0.contains("env: demo") }
        #expect(loaded, "the only environment was not chosen:\n\(first)")
        // When pressing Enter once
        try await tmux.keys("Enter")
        // Then the first request went out and its answer shows
        let (answered, screen) = await tmux.waitFor { $0.contains("200 OK") }
        #expect(answered, "no answer after one Enter:\n\(screen)")
        #expect(server.completedCount(path: "/") == 1)
    }

    @Test func editAURLSaveAndOnlyThatRequestChangesInTheFile() async throws {
        let session = try await Session()
        defer { session.stop() }
        let (folder, tmux) = (session.folder, session.tmux)
        let file = folder.appendingPathComponent("demo.http")
        let before = try String(contentsOf: file, encoding: .utf8)
        await tmux.waitFor { $0.contains("listUsers") }
        // When editing listUsers' URL and saving with Ctrl-S
        try await tmux.keys("j", "Enter")
        await tmux.waitFor { $0.contains("200 OK") }
        try await tmux.keys("e", "End")
        try await tmux.type("&sort=name")
        try await tmux.keys("Escape", "C-s")
        let (saved, screen) = await tmux.waitFor { $0.contains("Saved 'listUsers'") }
        #expect(saved, "no save message:\n\(screen)")
        // Then exactly that request's line changed
        let after = try String(contentsOf: file, encoding: .utf8)
        let old = before.split(separator: "\n", omittingEmptySubsequences: false)
        let new = after.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(old.count == new.count)
        let changed = zip(old, new).filter { $0 != $1 }
        #expect(changed.map(\.0) == ["GET {{users}}?page=1&per_page=5"])
        #expect(changed.map(\.1) == ["GET {{users}}?page=1&per_page=5&sort=name"])
        // And q quits at once, the edits being saved
        try await tmux.keys("q")
        let (quit, _) = await tmux.waitFor { !$0.contains("listUsers") }
        #expect(quit)
    }

    @Test func liveModeTypingIntoTheSearchReachesTheServerAsOneCompletedRequest() async throws {
        let session = try await Session()
        defer { session.stop() }
        let (server, tmux) = (session.server, session.tmux)
        await tmux.waitFor { $0.contains("search") }
        // Given the search request open in live mode
        try await tmux.keys("/")
        try await tmux.type("search")
        try await tmux.keys("Enter")
        await tmux.waitFor { $0.contains("/search?q=a") }
        try await tmux.keys("L", "e", "End")
        // When typing a word quickly
        try await tmux.type("da lovelace")
        // Then the screen follows with the last query, and the server finished one request
        let (shown, screen) = await tmux.waitFor { $0.contains("LIVE") && $0.contains("200 OK") }
        #expect(shown, "live mode never answered:\n\(screen)")
        #expect(server.completedCount(path: "/search") == 1)
    }

    @Test func aSentResponseIsKeptInHistoryAndF2ShowsItWithTheLatency() async throws {
        let session = try await Session()
        defer { session.stop() }
        let (folder, tmux) = (session.folder, session.tmux)
        await tmux.waitFor { $0.contains("listUsers") }
        // Given listUsers sent once
        try await tmux.keys("j", "Enter")
        // Then its latency follows the status line once the response is in history
        let (timed, answer) = await tmux.waitFor { $0.contains("200 OK") && $0.contains("p50") && $0.contains("p95") }
        #expect(timed, "no latency on the status line:\n\(answer)")
        // When pressing F2
        try await tmux.keys("F2")
        // Then the history of listUsers is shown over the layout, and Esc closes it
        let (shown, screen) = await tmux.waitFor { $0.contains("History · listUsers") && $0.contains("200") }
        #expect(shown, "no history pane:\n\(screen)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("state/courier/history").path))
        try await tmux.keys("Escape")
        let (closed, after) = await tmux.waitFor { !$0.contains("History · listUsers") && $0.contains("Collection") }
        #expect(closed, "history did not close:\n\(after)")
    }

    @Test func wordMotionUndoAndRedoEditTheURLInTheRealExplorer() async throws {
        let session = try await Session()
        defer { session.stop() }
        let tmux = session.tmux
        await tmux.waitFor { $0.contains("listUsers") }
        // Given listUsers' URL being edited, cursor at its end
        try await tmux.keys("j", "Enter")
        await tmux.waitFor { $0.contains("GET {{users}}?page=1&per_page=5") }
        try await tmux.keys("e")
        // When moving two words left with Alt-b and typing there
        try await tmux.keys("M-b", "M-b")
        try await tmux.type("x")
        // Then the text lands before the second query parameter
        let (moved, screen) = await tmux.waitFor { $0.contains("GET {{users}}?page=1&xper_page=5") }
        #expect(moved, "Alt-b did not move by words:\n\(screen)")
        // When undoing with Ctrl-_ (readline's undo), then redoing with Ctrl-Y
        try await tmux.keys("C-_")
        let (undone, before) = await tmux.waitFor { $0.contains("GET {{users}}?page=1&per_page=5") }
        #expect(undone, "Ctrl-_ did not undo:\n\(before)")
        try await tmux.keys("C-y")
        let (redone, after) = await tmux.waitFor { $0.contains("GET {{users}}?page=1&xper_page=5") }
        #expect(redone, "Ctrl-Y did not redo:\n\(after)")
    }
}
