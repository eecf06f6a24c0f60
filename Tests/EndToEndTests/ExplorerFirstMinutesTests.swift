import CourierDemo
import Foundation
import Testing

/// What a new user meets in the explorer in its first minutes, on a real terminal at a small and a large
/// size: look at a request before sending it, read the hints, type into prompts as readline does.
@Suite("a new user's first minutes in tmux", .serialized)
struct ExplorerFirstMinutesTests {
    typealias Session = ExplorerEndToEndTests.Session

    /// Three requests, two of them unsafe, on the demo server.
    static let collection = """
        ### look
        GET {{base}}/users?page=1&per_page=2

        ### make
        POST {{base}}/users
        Content-Type: application/json

        {"name": "Ada"}

        ### remove
        DELETE {{base}}/users/1

        """

    /// A 256-colour terminal, whatever NO_COLOR the test runner passes down.
    static let colours = "TERM=tmux-256color NO_COLOR="

    /// The row of the escaped screen that holds `text`.
    static func row(_ text: String, in escaped: String) -> String {
        escaped.split(separator: "\n").first { $0.contains(text) }.map(String.init) ?? ""
    }

    @Test("Moving the cursor shows a request without sending it; Enter sends what is shown",
          arguments: [(80, 24), (200, 60)])
    func movingShowsAndEnterSends(size: (width: Int, height: Int)) async throws {
        // Given the explorer on two unsafe requests below a GET
        let session = try await Session(collection: Self.collection, width: size.width, height: size.height,
                                        variables: Self.colours)
        defer { session.stop() }
        let (server, tmux) = (session.server, session.tmux)
        let (loaded, first) = await tmux.waitFor { $0.contains("remove") && $0.contains("2 Request · look") }
        #expect(loaded, "the collection never showed:\n\(first)")
        // When moving the cursor down twice, onto the DELETE
        try await tmux.keys("j", "j")
        // Then the Request pane shows it, the highlighted row is that request, and nothing went out
        let (shown, screen) = await tmux.waitFor { $0.contains("2 Request · remove") && $0.contains("DELETE {{base}}/users/1") }
        #expect(shown, "the Request pane did not follow the cursor:\n\(screen)")
        let escaped = await tmux.screenWithEscapes()
        #expect(Self.row("DELETE remove", in: escaped).contains("48;5;81"),
                "the DELETE is not the highlighted row:\n\(escaped.debugDescription)")
        #expect(server.log.isEmpty, "moving sent \(server.log.map { "\($0.method) \($0.path)" })")
        // When pressing Enter
        try await tmux.keys("Enter")
        // Then the shown request is what the server receives
        let (answered, after) = await tmux.waitFor { _ in server.log.contains { $0.method == "DELETE" } }
        #expect(answered, "Enter did not send the request shown:\n\(after)")
        #expect(server.log.map { "\($0.method) \($0.path)" } == ["DELETE /users/1"])
    }

    @Test("A small terminal keeps the collection beside the request and response, and how to get help and quit",
          arguments: [(80, 24), (200, 60)])
    func smallTerminalLayoutAndHints(size: (width: Int, height: Int)) async throws {
        // Given the demo collection, whose names and lines are longer than an 80-column pane
        let session = try await Session(width: size.width, height: size.height, variables: Self.colours)
        defer { session.stop() }
        let tmux = session.tmux
        let (loaded, screen) = await tmux.waitFor { $0.contains("listUsers") && Self.isWhole($0) }
        #expect(loaded, "the collection never showed:\n\(screen)")
        // Then the collection, the request and the response are on screen together, the Log a key away
        for title in ["1 Collection", "2 Request · index", "3 Response"] {
            #expect(screen.contains(title), "no \(title) at \(size.width)×\(size.height):\n\(screen)")
        }
        #expect(screen.contains("4 Log"), "the Log is not named on screen:\n\(screen)")
        // And the status bar says how to get help and how to quit, in the hint colours
        let bottom = screen.split(separator: "\n").last.map(String.init) ?? ""
        #expect(bottom.contains("? help") && bottom.contains("q quit"), "hints: \(bottom)")
        let escaped = await tmux.screenWithEscapes()
        let hints = Self.row(" quit", in: escaped)
        #expect(hints.contains("38;5;221"), "the hint keys are not drawn in the key colour: \(hints.debugDescription)")
        if size.width == 80 {
            // And a name cut by the narrow collection ends in an ellipsis (at the end of the tree, which G shows)
            try await tmux.keys("G")
            let (cut, cutScreen) = await tmux.waitFor { $0.contains("etagRevalida…") }
            #expect(cut, "a cut name without …:\n\(cutScreen)")
        }
        // When pressing 4
        try await tmux.keys("4")
        // Then the Log shows, beside the collection
        let (log, logScreen) = await tmux.waitFor { $0.contains("Attempts, retries and timings") }
        #expect(log, "4 did not show the Log:\n\(logScreen)")
        #expect(logScreen.contains("1 Collection"))
    }

    @Test("The response's search and JSONPath prompts edit as readline does, take a paste and start empty",
          arguments: [(80, 24), (200, 60)])
    func promptsAreReadline(size: (width: Int, height: Int)) async throws {
        // Given a JSON response focused
        let session = try await Session(collection: Self.collection, width: size.width, height: size.height,
                                        variables: Self.colours)
        defer { session.stop() }
        let tmux = session.tmux
        await tmux.waitFor { $0.contains("2 Request · look") }
        try await tmux.keys("Enter")
        let (answered, first) = await tmux.waitFor { $0.contains("200 OK") }
        #expect(answered, "no response:\n\(first)")
        try await tmux.keys("3", "/")
        // When typing "abc def", moving left twice and typing X
        try await tmux.type("abc def")
        try await tmux.keys("Left", "Left")
        try await tmux.type("X")
        // Then X is inside the text, the prompt's label in the key colour, the terminal cursor after the X
        let (edited, screen) = await tmux.waitFor { $0.contains("/abc dXef") }
        #expect(edited, "Left did not move in the search prompt:\n\(screen)")
        let escaped = await tmux.screenWithEscapes()
        #expect(Self.row("dXef", in: escaped).contains("38;5;221"), "\(escaped.debugDescription)")
        let row = screen.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("/abc dXef") }
        let column = screen.split(separator: "\n", omittingEmptySubsequences: false)
            .first { $0.contains("/abc dXef") }.flatMap { $0.range(of: "dXef") }
            .map { String(screen.split(separator: "\n", omittingEmptySubsequences: false)[row!][..<$0.lowerBound]).count }
        #expect(await tmux.server.format("cursor_x") == "\((column ?? -10) + 2)")
        // And Ctrl-U clears to the start, Esc closes; f opens an empty JSONPath prompt that takes a paste whole
        try await tmux.keys("C-u")
        let (cleared, afterClear) = await tmux.waitFor { !$0.contains("/abc dX") && $0.contains("/ef") }
        #expect(cleared, "Ctrl-U did nothing:\n\(afterClear)")
        try await tmux.keys("Escape", "f")
        await tmux.waitFor { $0.contains("JSONPath: ") }
        _ = try await tmux.server.run(["set-buffer", "$.data[0].name"])
        _ = try await tmux.server.run(["paste-buffer", "-p", "-t", tmux.server.target])
        let (pasted, afterPaste) = await tmux.waitFor { $0.contains("JSONPath: $.data[0].name") }
        #expect(pasted, "the paste did not reach the prompt as it was:\n\(afterPaste)")
        try await tmux.keys("Enter")
        let (filtered, result) = await tmux.waitFor { $0.contains("filter $.data[0].name") && $0.contains("  \"Ada Lovelace\"") }
        #expect(filtered, "the pasted filter did not run:\n\(result)")
    }

    @Test("courier demo points only the environments without a base at its server, and says where requests go")
    func demoKeepsAnEnvironmentsOwnBase() async throws {
        // Given the demo's copy of its collection with a staging environment pointed at another server
        let staging = try DemoServer.start()
        defer { staging.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("demo-env-\(UUID().uuidString)")
        let copy = folder.appendingPathComponent("state/courier/demo")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("### look\nGET {{base}}/users?page=1&per_page=1\n".utf8).write(to: copy.appendingPathComponent("demo.http"))
        let environments = #"{"demo": {"base": "http://127.0.0.1:8088"}, "staging": {"base": "http://127.0.0.1:\#(staging.port)"}}"#
        try Data(environments.utf8).write(to: copy.appendingPathComponent("http-client.env.json"))
        let state = "XDG_STATE_HOME='\(folder.path)/state' XDG_CACHE_HOME='\(folder.path)/cache' XDG_CONFIG_HOME='\(folder.path)'"
        let tmux = try await TmuxSession(command: "\(state) \(Self.colours) exec '\(TmuxSession.binary.path)' demo --port 0",
                                         directory: folder, width: 120, height: 30)
        defer { tmux.stop() }
        // Then the first status line says which environments the demo server serves, and the bar where the
        // open request goes
        let (started, first) = await tmux.waitFor { $0.contains("{{base}} is the demo server in demo; staging keeps its own") }
        #expect(started, "no word on where {{base}} goes:\n\(first)")
        // (the message is long, so the bar keeps it whole and names the environment alone, without the theme)
        #expect(first.contains("staging keeps its own · Demo collection:") && first.contains("env: demo")
                    && !first.contains("env: demo →") && !first.contains("env: demo ·"), "\(first)")
        // When choosing staging and sending
        try await tmux.keys("E")
        try await tmux.type("staging")
        try await tmux.keys("Enter")
        let (switched, screen) = await tmux.waitFor { $0.contains("env: staging → http://127.0.0.1:\(staging.port)") }
        #expect(switched, "the status bar does not say where staging goes:\n\(screen)")
        try await tmux.keys("1", "Enter")
        // Then the staging server, not the demo server, gets the request
        let (answered, after) = await tmux.waitFor { _ in staging.completedCount(path: "/users") == 1 }
        #expect(answered, "staging got nothing:\n\(after)")
    }

    @Test func aCurlCommandPastedIntoTheURLFieldIsTheRequestThatGoesOut() async throws {
        // Given the explorer, the Request pane focused on its URL line
        let session = try await Session(collection: Self.collection)
        defer { session.stop() }
        let (server, tmux) = (session.server, session.tmux)
        await tmux.waitFor { $0.contains("2 Request · look") }
        try await tmux.keys("2")
        // When a curl command copied from a browser is pasted (bracketed paste, as a terminal sends it)
        let command = "curl 'http://127.0.0.1:\(server.port)/echo?from=paste' \\\n  -X POST \\\n"
            + "  -H 'X-Trace: pasted-7' \\\n  --data-raw '{\"name\":\"Ada\"}'"
        _ = try await tmux.server.run(["set-buffer", command])
        _ = try await tmux.server.run(["paste-buffer", "-p", "-t", tmux.server.target])
        // Then the Request pane shows the request it describes
        let (filled, screen) = await tmux.waitFor { $0.contains("POST http://127.0.0.1:\(server.port)/echo?from=paste") }
        #expect(filled, "the curl command did not become the request:\n\(screen)")
        // And Enter sends exactly that
        try await tmux.keys("Enter")
        let (sent, after) = await tmux.waitFor { _ in server.log.contains { $0.path == "/echo" } }
        #expect(sent, "\(after)")
        let entry = try #require(server.log.first { $0.path == "/echo" })
        #expect(entry.method == "POST")
        #expect(entry.headers.contains { $0.name == "X-Trace" && $0.value == "pasted-7" })
        #expect(entry.query.map { "\($0.name)=\($0.value)" } == ["from=paste"])
    }

    @Test func theJSONPathFilterTakesTheRFCFunctions() async throws {
        // Given a JSON response focused
        let session = try await Session(collection: Self.collection)
        defer { session.stop() }
        let tmux = session.tmux
        await tmux.waitFor { $0.contains("2 Request · look") }
        try await tmux.keys("Enter")
        await tmux.waitFor { $0.contains("200 OK") }
        // When filtering with search() and length()
        try await tmux.keys("3", "f")
        await tmux.waitFor { $0.contains("JSONPath: ") }
        try await tmux.type("$.data[?search(@.name, 'Love') && length(@.name) == 12].name")
        try await tmux.keys("Enter")
        // Then the user they select is shown, not a parse error
        let (filtered, screen) = await tmux.waitFor { $0.contains("filter $.data[?search") && $0.contains("  \"Ada Lovelace\"") }
        #expect(filtered, "the filter with functions did not run:\n\(screen)")
    }

    @Test func theLogsDetailShowsTheHeadersThatWentOutWithThoseLibcurlAdded() async throws {
        // Given a GET with no headers of its own, sent (on a terminal tall enough for the whole detail)
        let session = try await Session(collection: Self.collection, width: 200, height: 90)
        defer { session.stop() }
        let (server, tmux) = (session.server, session.tmux)
        await tmux.waitFor { $0.contains("2 Request · look") }
        try await tmux.keys("Enter")
        await tmux.waitFor { _ in server.log.contains { $0.path == "/users" } }
        // When its attempt in the Log is opened
        try await tmux.keys("4")
        let (listed, rows) = await tmux.waitFor { $0.contains("GET /us") && $0.contains(" 200 ") }
        #expect(listed, "\(rows)")
        try await tmux.keys("Enter")
        // Then the request headers are those the server received, not "(none)"
        let (shown, screen) = await tmux.waitFor { $0.contains("User-Agent: courier") }
        #expect(shown, "the detail does not show the sent headers:\n\(screen)")
        #expect(screen.contains("Accept: */*"), "\(screen)")
        #expect(!screen.contains("(none)\n"), "\(screen)")
    }

    /// The background of every character on an escaped screen (`capture-pane -e`), following its SGR state
    /// across lines: nil where the terminal's own background shows.
    static func backgrounds(_ escaped: String) -> [String?] {
        var backgrounds: [String?] = []
        var background: String?
        var scalars = Array(escaped.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\u{1B}", scalars.first == "[" {
                scalars.removeFirst()
                var parameters = ""
                while let next = scalars.popFirst(), !("@"..."~").contains(next) { parameters.unicodeScalars.append(next) }
                var codes = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
                while let code = codes.popFirst() {
                    switch code {
                    case 0, 49: background = nil
                    case 38:
                        if codes.popFirst() == 5 { _ = codes.popFirst() } else { codes = codes.dropFirst(3) }
                    case 48:
                        if codes.popFirst() == 5 {
                            background = codes.popFirst().map { "\($0)" }
                        } else {
                            background = codes.prefix(3).map(String.init).joined(separator: ",")
                            codes = codes.dropFirst(3)
                        }
                    default: break
                    }
                }
            } else if scalar != "\n" {
                backgrounds.append(background)
            }
        }
        return backgrounds
    }

    /// Whether a captured screen is a whole frame: its status bar, the last row curses writes, is on it (on
    /// loaded cores tmux can show a large frame while its last rows are on the way).
    static func isWhole(_ screen: String) -> Bool {
        screen.split(separator: "\n").last?.contains("quit") == true
    }

    @Test("The light theme paints its own background on a dark terminal; the dark cursor line keeps syntax colours",
          arguments: [(80, 24), (200, 60)])
    func themesSetTheirBackground(size: (width: Int, height: Int)) async throws {
        // Given the light theme on a terminal whose own background is not white
        let light = try await Session(collection: Self.collection, width: size.width, height: size.height,
                                      variables: Self.colours, arguments: "--theme light")
        defer { light.stop() }
        let (loaded, first) = await light.tmux.waitFor { $0.contains("2 Request · look") && Self.isWhole($0) }
        #expect(loaded, "\(first)")
        // Then every character on screen has the theme's background, and titles their dark colour on it
        let escaped = await light.tmux.screenWithEscapes()
        let backgrounds = Self.backgrounds(escaped)
        #expect(backgrounds.count >= size.width * (size.height - 1), "\(backgrounds.count) characters read")
        #expect(!backgrounds.contains(nil), "\(backgrounds.filter { $0 == nil }.count) characters on the terminal's background")
        #expect(backgrounds.filter { $0 == "231" }.count > backgrounds.count / 2)
        #expect(Self.row("2 Request", in: escaped).contains("38;5;234"), "\(Self.row("2 Request", in: escaped).debugDescription)")
        // Given the dark theme with a JSON response focused, its cursor on a key
        let dark = try await Session(collection: Self.collection, width: size.width, height: size.height,
                                     variables: Self.colours)
        defer { dark.stop() }
        await dark.tmux.waitFor { $0.contains("2 Request · look") }
        try await dark.tmux.keys("Enter")
        await dark.tmux.waitFor { $0.contains("200 OK") && $0.contains("\"data\"") }
        try await dark.tmux.keys("3", "j")
        try await Task.sleep(for: .milliseconds(300))
        // Then the cursor line has its own background (236), and the key keeps its colour (75) on it
        let cursor = Self.row("\"data\"", in: await dark.tmux.screenWithEscapes())
        #expect(cursor.contains("48;5;236") && cursor.contains("38;5;75"), "\(cursor.debugDescription)")
        #expect(!cursor.contains("48;5;81"), "the cursor line is the selection's cyan: \(cursor.debugDescription)")
    }
}
