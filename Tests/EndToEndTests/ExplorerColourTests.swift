import CourierApp
import CourierTerminal
import Foundation
import Testing

/// The explorer's colours as a real terminal receives them: tmux keeps the colour of every cell, and
/// `capture-pane -e` writes them back as escape sequences, so the theme's colours can be looked for.
@Suite("the explorer's colours in tmux", .serialized)
struct ExplorerColourTests {
    typealias Session = ExplorerEndToEndTests.Session

    /// The escape text tmux writes for a foreground colour: `38;5;N` from a 256-colour terminal,
    /// `38;2;R;G;B` from a direct-colour one.
    enum Expected {
        case indexed(Int)
        case rgb(Int, Int, Int)

        var foreground: String {
            switch self {
            case .indexed(let n): "38;5;\(n)"
            case .rgb(let r, let g, let b): "38;2;\(r);\(g);\(b)"
            }
        }
    }

    /// Opens the demo, checks the focused border's colour (`NO_COLOR=` undoes a `NO_COLOR` the test
    /// runner may pass down), sends the first request and checks the 2xx
    /// status colour.
    private func expectColours(theme: String, width: Int, height: Int, environment: String,
                               border: Expected, success: Expected) async throws {
        let session = try await Session(width: width, height: height, variables: environment, arguments: "--theme \(theme)")
        defer { session.stop() }
        let tmux = session.tmux
        let (loaded, first) = await tmux.waitFor { $0.contains("listUsers") }
        #expect(loaded, "the collection never showed:\n\(first)")
        let opened = await tmux.screenWithEscapes()
        #expect(opened.contains(border.foreground),
                "\(theme) at \(width)×\(height): no focused-border colour \(border.foreground) in\n\(opened.debugDescription)")
        try await tmux.keys("j", "Enter")
        let (answered, screen) = await tmux.waitFor { $0.contains("200 OK") }
        #expect(answered, "no response:\n\(screen)")
        let sent = await tmux.screenWithEscapes()
        // The status line's colour comes right before its text.
        let status = sent.components(separatedBy: "200 OK").first?.suffix(40) ?? ""
        #expect(status.contains(success.foreground),
                "\(theme) at \(width)×\(height): 200 is not drawn in \(success.foreground): \(status.debugDescription)")
    }

    @Test("The dark theme's colours reach a 256-colour terminal at 80×24")
    func darkTheme256ColoursAt80x24() async throws {
        // #5fd7ff is 81 in the 256 palette, #87d75f is 113.
        try await expectColours(theme: "dark", width: 80, height: 24, environment: "TERM=tmux-256color NO_COLOR=",
                          border: .indexed(81), success: .indexed(113))
    }

    @Test("The light theme's colours reach a 256-colour terminal at 200×60, with COLORTERM=truecolor too")
    func lightTheme256ColoursAt200x60() async throws {
        // #005f87 is 24, #005f00 is 22. COLORTERM alone cannot give 24-bit colour through a 256-colour
        // description (none for tmux-direct here), so the palette is used.
        try await expectColours(theme: "light", width: 200, height: 60,
                          environment: "TERM=tmux-256color COLORTERM=truecolor TERMINFO=/nonexistent NO_COLOR=",
                          border: .indexed(24), success: .indexed(22))
    }

    @Test("A direct-colour terminal gets the theme's exact 24-bit colours")
    func directColour() async throws {
        let terminfo = try await DirectColourTerminfo()
        defer { terminfo.remove() }
        try await expectColours(theme: "dark", width: 120, height: 40,
                          environment: "TERM=courier-direct TERMINFO='\(terminfo.folder.path)' NO_COLOR=",
                          border: .rgb(0x5f, 0xd7, 0xff), success: .rgb(0x87, 0xd7, 0x5f))
    }

    @Test("Every theme with colours in Themes/ draws its focused border in its own colour on a 256-colour terminal",
          arguments: ["dark", "light", "high-contrast"])
    func everyThemeDrawsItsOwnBorderColour(theme name: String) async throws {
        let folder = TmuxSession.packageRoot.appendingPathComponent("Themes")
        let (theme, warning) = ThemeLoader.load(name: name, folders: [folder], trueColor: true, noColor: false)
        #expect(warning == nil)
        let colour = ColorMapping.number(for: theme.borderFocused.foreground, depth: .indexed256)
        try #require(colour >= 16, "\(name)'s focused border is not a palette colour")
        let session = try await Session(width: 120, height: 40, variables: "TERM=tmux-256color NO_COLOR=",
                                  arguments: "--theme \(name)")
        defer { session.stop() }
        let (loaded, first) = await session.tmux.waitFor { $0.contains("listUsers") }
        #expect(loaded, "the collection never showed:\n\(first)")
        let screen = await session.tmux.screenWithEscapes()
        // The colour may come with other settings, or be followed by the theme's background, before the corner.
        let border = try Regex("38;5;\(colour)(;[0-9;]*)?m(\u{1B}\\[[0-9;]*m)*┏")
        #expect(screen.contains(border) || screen.contains("38;5;\(colour);"),
                "\(name): the focused border is not in 38;5;\(colour): \(screen.prefix(400).debugDescription)")
    }

    @Test("An 8-colour terminal gets the nearest basic colours; NO_COLOR gets none")
    func eightColoursAndNoColor() async throws {
        let session = try await Session(width: 80, height: 24, variables: "TERM=screen NO_COLOR=")
        defer { session.stop() }
        let (loaded, first) = await session.tmux.waitFor { $0.contains("listUsers") }
        #expect(loaded, "the collection never showed:\n\(first)")
        let basic = await session.tmux.screenWithEscapes()
        // Cyan is basic colour 6.
        #expect(basic.contains(/[\[;]36[;m]/), "no basic cyan in \(basic.debugDescription)")
        #expect(!basic.contains("38;5;"))

        let plain = try await Session(width: 80, height: 24, variables: "TERM=tmux-256color NO_COLOR=1")
        defer { plain.stop() }
        let (shown, screen) = await plain.tmux.waitFor { $0.contains("listUsers") }
        #expect(shown, "the collection never showed:\n\(screen)")
        let uncoloured = await plain.tmux.screenWithEscapes()
        #expect(!uncoloured.contains(/[\[;][34][0-8][;m]/),
                "colour despite NO_COLOR: \(uncoloured.debugDescription)")
    }
}

/// A compiled terminal description with 24-bit colour (what `xterm-direct` is, when ncurses-term is
/// installed), in a folder of its own for `TERMINFO`.
struct DirectColourTerminfo {
    let folder: URL

    init() async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("terminfo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = folder.appendingPathComponent("courier-direct.src")
        // Numbers below 8 are the basic colours; above, the three bytes of a 24-bit colour.
        let setaf = #"\E[%?%p1%{8}%<%t3%p1%d%e38;2;%p1%{65536}%/%d;%p1%{256}%/%{255}%&%d;%p1%{255}%&%d%;m"#
        let setab = #"\E[%?%p1%{8}%<%t4%p1%d%e48;2;%p1%{65536}%/%d;%p1%{256}%/%{255}%&%d;%p1%{255}%&%d%;m"#
        let description = """
            courier-direct|a terminal with 24-bit colour,
            \tcolors#16777216, pairs#65536, RGB,
            \tsetaf=\(setaf),
            \tsetab=\(setab),
            \tuse=xterm-256color,

            """
        try Data(description.utf8).write(to: source)
        let (status, output) = try await TmuxSession.spawn(["tic", "-x", "-o", folder.path, source.path])
        try #require(status == 0, "tic failed: \(output)")
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}
