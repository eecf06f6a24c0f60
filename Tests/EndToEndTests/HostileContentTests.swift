import CourierApp
import CourierBody
import CourierDemo
import CourierTerminal
import Foundation
import Testing

/// Hostile responses (`/chaos/escape`: OSC 0/2 titles, OSC 52 clipboard writes, cursor movement, C1
/// controls, NUL, invalid UTF-8, bidi overrides, long lines; deep JSON) never reach the terminal as
/// control bytes: not through `courier send`, not through the explorer's screen.
struct HostileContentTests {
    /// Scalars a terminal would act on: C0 controls other than newline and tab, DEL, C1, bidi overrides.
    static func actsOnTerminal(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F, 0x80...0x9F: true
        case 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The first offending scalar in `data` (which must also be valid UTF-8: stray bytes such as 0x9B
    /// are C1 controls to an 8-bit terminal), or nil when the bytes are safe to print.
    static func firstDangerous(in data: Data) -> String? {
        guard let text = String(data: data, encoding: .utf8) else { return "invalid UTF-8" }
        return text.unicodeScalars.first(where: actsOnTerminal).map { String(format: "U+%04X", $0.value) }
    }

    // MARK: courier send

    @Test("courier send prints /chaos/escape's body and headers with no control byte, as text and --json",
          .enabled(if: Reliability.hasCourier, "the courier binary is not built"))
    func courierSendPrintsNoEscapeBytes() async throws {
        // Given the demo server's hostile endpoint, as text and as JSON
        let server = try DemoServer.start()
        defer { server.stop() }
        let base = server.baseURL.absoluteString
        for url in [base + "/chaos/escape", base + "/chaos/escape?format=json"] {
            for flags in [[], ["--json"], ["--timing"]] {
                // When courier prints the response
                let result = try await Reliability.runCourier(["send"] + flags + [url])

                // Then stdout and stderr carry no byte a terminal would act on
                #expect(result.status == 0, "\(url) \(flags)")
                #expect(result.stdout.count > 300, "\(url) \(flags): the headers and body were printed")
                #expect(Self.firstDangerous(in: result.stdout) == nil, "stdout of \(url) \(flags)")
                #expect(Self.firstDangerous(in: result.stderr) == nil, "stderr of \(url) \(flags)")
            }
        }
    }

    @Test("courier send -o FILE keeps the raw bytes, escapes included, because raw output was asked for",
          .enabled(if: Reliability.hasCourier, "the courier binary is not built"))
    func rawOutputToAFileKeepsTheBytes() async throws {
        // Given a file to write the body to
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try Reliability.temporaryFolder("hostile-raw")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("body.bin")

        // When the hostile body is saved with -o
        let result = try await Reliability.runCourier(["send", "-o", file.path, server.baseURL.absoluteString + "/chaos/escape"])

        // Then the file holds the escape bytes untouched and the terminal output holds none
        let saved = try Data(contentsOf: file)
        #expect(result.status == 0)
        #expect(saved.contains(0x1B))
        #expect(Self.firstDangerous(in: result.stdout) == nil)
    }

    // MARK: The explorer's rendering

    /// Renders a response pane over `body` into a buffer, scrolled and unscrolled, and returns the buffers.
    static func render(_ body: Data, contentType: String) -> [Buffer] {
        var pane = ResponsePaneState(info: ResponsePaneInfo(status: 200, reason: "OK",
                                                            headers: [.init("Content-Type", contentType),
                                                                      .init("X-Title", "\u{1B}]0;pwned\u{07}")]),
                                     body: BodyDocument(data: body))
        var buffers: [Buffer] = []
        for tab in [ResponsePaneState.Tab.body, .headers] {
            for hex in [false, true] {
                pane.tab = tab
                pane.showsHex = hex
                var buffer = Buffer(size: Size(width: 100, height: 30))
                ResponsePaneView.draw(ShownResponse(pane), RenderContext(theme: Theme.dark, focused: true,
                                                                         area: Rect(x: 0, y: 0, width: 100, height: 30)),
                                      into: &buffer)
                buffers.append(buffer)
            }
        }
        return buffers
    }

    static let hostileBodies: [(name: String, body: Data, type: String)] = {
        var bodies: [(String, Data, String)] = []
        bodies.append(("escapes", Data("title \u{1B}]0;pwned\u{07} clip \u{1B}]52;c;aGk=\u{07} move \u{1B}[2J\u{1B}[H".utf8),
                       "text/plain"))
        bodies.append(("C1 and NUL", Data([0x61, 0x00, 0x62, 0xC2, 0x9B, 0x32, 0x4A, 0x9B, 0x48, 0x0A]), "text/plain"))
        bodies.append(("invalid UTF-8", Data([0xFF, 0xFE, 0xC3, 0x28, 0xED, 0xA0, 0x80, 0x1B, 0x5B, 0x41]), "text/plain"))
        bodies.append(("bidi", Data("invoice\u{202E}fdp.exe and \u{2067}isolate\u{2069}".utf8), "text/plain"))
        bodies.append(("long line", Data((String(repeating: "z", count: 10_000) + "\u{1B}[5A").utf8), "text/plain"))
        bodies.append(("deep JSON", Data((String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)).utf8),
                       "application/json"))
        bodies.append(("JSON strings", Data(#"{"\u001b]0;key\u0007":"\u001b[2J\u009b\u202e","n":[1,2]}"#.utf8),
                       "application/json"))
        return bodies
    }()

    @Test("The response pane draws NUL, C1, escapes, invalid UTF-8, bidi, long lines and deep JSON as inert cells")
    func responsePaneDrawsNoControlCharacters() {
        for (name, body, type) in Self.hostileBodies {
            // When the pane renders the body in every view
            for buffer in Self.render(body, contentType: type) {
                // Then no cell holds a scalar a terminal would act on
                let bad = buffer.cells.flatMap(\.grapheme.unicodeScalars).first(where: Self.actsOnTerminal)
                #expect(bad == nil, "\(name): \(bad.map { String(format: "U+%04X", $0.value) } ?? "")")
            }
        }
    }

    @Test("Visible stand-ins take the place of control characters in the text view")
    func standInsAreVisible() {
        // Given a body with ESC and NUL shown as text
        let buffers = Self.render(Data("a\u{1B}[2Jb\u{0}c".utf8), contentType: "text/plain")

        // Then the text view shows the stand-in symbols (␛) rather than nothing
        #expect(buffers[0].text.contains("\u{241B}") || buffers[1].text.contains("1b"))
    }

    // MARK: The explorer in tmux

    @Test("In the explorer, /chaos/escape changes neither the terminal title nor the clipboard",
          .enabled(if: Reliability.hasTmux, "tmux is not installed (make deps installs it)"))
    func explorerKeepsTitleAndClipboard() async throws {
        // Given the explorer in tmux on a collection of the two hostile requests
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try Reliability.temporaryFolder("hostile-tmux")
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = server.baseURL.absoluteString
        try """
        ### Text
        GET \(base)/chaos/escape

        ### JSON
        GET \(base)/chaos/escape?format=json

        """.write(to: folder.appendingPathComponent("hostile.http"), atomically: true, encoding: .utf8)
        let session = try await ReliabilityTmux(command: "cd '\(folder.path)' && HOME='\(folder.path)' "
            + "XDG_STATE_HOME='\(folder.path)/state' XDG_CACHE_HOME='\(folder.path)/cache' TERM=tmux-256color "
            + "'\(Reliability.courier.path)' hostile.http")
        defer { session.kill() }
        #expect(await session.waitFor("Collection"), "\(session.lastScreen)")
        let title = await session.title()

        // When both hostile requests are sent
        #expect(await session.open("Text", steps: 0), "\(session.lastScreen)")
        await session.send("Enter")
        #expect(await session.waitFor("#1  200"), "\(session.lastScreen)")
        await session.send("1")
        #expect(await session.open("JSON"), "\(session.lastScreen)")
        await session.send("Enter")
        let bothAnswered = await Reliability.eventually(limit: 15) {
            await session.screen().components(separatedBy: "#1  200").count >= 3
        }
        #expect(bothAnswered, "\(session.lastScreen)")

        // Then the title is unchanged, no paste buffer appeared, and the screen shows stand-ins
        try await Task.sleep(for: .milliseconds(300))
        let screen = await session.screen()
        #expect(await session.title() == title)
        let buffers = await session.buffers()
        #expect(buffers.isEmpty, "OSC 52 reached tmux: \(buffers)")
        #expect(!screen.contains("pwned-title") || screen.contains("\u{241B}") || screen.contains("�"),
                "\(screen)")
        #expect(screen.contains("\u{241B}") || screen.contains("�") || screen.contains("\\u001b"), "\(screen)")
    }
}
