import CourierTerminal
import Foundation
import Testing
@testable import CourierApp

/// Every built-in colour theme is readable: each foreground on the background it is drawn on (its own, else
/// the theme's), and the body's colours on the Response pane's cursor line, meet WCAG AA (4.5:1), both in the
/// file's exact colours and in the nearest of the 256 a tmux-256color terminal shows. Computed from the files.
@Suite("built-in themes meet WCAG AA contrast")
struct ThemeContrastTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Themes")

    /// WCAG 2.x relative luminance of an sRGB colour.
    static func luminance(_ rgb: (UInt8, UInt8, UInt8)) -> Double {
        func channel(_ value: UInt8) -> Double {
            let c = Double(value) / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(rgb.0) + 0.7152 * channel(rgb.1) + 0.0722 * channel(rgb.2)
    }

    /// The contrast ratio of two colours, 1…21.
    static func ratio(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Double {
        let (la, lb) = (luminance(a), luminance(b))
        return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
    }

    /// A theme colour as RGB: exact, or as the nearest of the 256 palette.
    static func rgb(_ color: Color, palette256: Bool) -> (UInt8, UInt8, UInt8)? {
        switch color {
        case .default: return nil
        case .indexed(let n): return ColorMapping.rgb(ofIndexed: n)
        case .rgb(let r, let g, let b):
            return palette256 ? ColorMapping.rgb(ofIndexed: ColorMapping.nearest256(r, g, b)) : (r, g, b)
        }
    }

    /// Every role drawn as text, by its file name (the waterfall's phases are bars, not text).
    static func textRoles(_ theme: Theme) -> [(String, Style)] {
        Theme.roles.filter { !$0.key.hasPrefix("phase") && $0.key != "cursorLine" }
            .map { ($0.key, theme[keyPath: $0.value]) }
            + theme.methods.map { ("method.\($0.key)", $0.value) } + [("methodOther", theme.methodOther)]
            + theme.statusClasses.map { ("status.\($0.key)xx", $0.value) }
            + theme.cacheDecisions.map { ("cache.\($0.key)", $0.value) }
    }

    /// The roles drawn on the Response pane's cursor line: the body's colours.
    static let onCursorLine = ["text", "muted", "error", "jsonKey", "jsonString", "jsonNumber", "jsonLiteral",
                               "jsonPunctuation", "diffAdded", "diffRemoved", "diffChanged"]

    @Test("each role's text on its background, and the body's colours on the cursor line, are at least 4.5:1",
          arguments: ["dark", "light", "high-contrast"])
    func contrast(name: String) throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("\(name).json"))
        let theme = try ThemeLoader.parse(data, file: name)
        // The theme sets its own text colours and background: nothing is left to the terminal
        #expect(theme.text.foreground != .default && theme.text.background != .default,
                "\(name) leaves its text colours to the terminal")
        #expect(theme.cursorLine.background != .default, "\(name) has no cursor line background")
        var failures: [String] = []
        for palette256 in [false, true] {
            let base = (Self.rgb(theme.text.foreground, palette256: palette256), Self.rgb(theme.text.background, palette256: palette256))
            let line = Self.rgb(theme.cursorLine.background, palette256: palette256)
            for (role, style) in Self.textRoles(theme) {
                guard var fg = Self.rgb(style.foreground, palette256: palette256) ?? base.0,
                      var bg = Self.rgb(style.background, palette256: palette256) ?? base.1 else { continue }
                if style.attributes.contains(.reverse) { swap(&fg, &bg) }
                var pairs = [(role, fg, bg)]
                if Self.onCursorLine.contains(role), style.background == .default, let line { pairs.append((role + " on the cursor line", fg, line)) }
                for (label, f, b) in pairs where Self.ratio(f, b) < 4.5 {
                    failures.append(String(format: "%@%@: %.2f:1", label, palette256 ? " (256 colours)" : "", Self.ratio(f, b)))
                }
            }
        }
        #expect(failures.isEmpty, "\(name): \(failures.sorted().joined(separator: ", "))")
    }

    @Test func theCursorLineKeepsTheSyntaxColoursOnItsOwnBackground() {
        // Given a JSON body with the cursor on a key-value line, drawn focused in the dark theme
        var fixture = ResponsePaneFixture(#"{"name": "Ada"}"#)
        _ = fixture.press(.lineDown)
        var buffer = Buffer(size: Size(width: 40, height: 8))
        ResponsePaneView.draw(ShownResponse(fixture.pane), RenderContext(focused: true, area: Rect(x: 0, y: 0, width: 40, height: 8)),
                              into: &buffer)
        let row = (0..<8).first { buffer.lines()[$0].contains("\"name\"") }!
        let key = (0..<40).first { buffer[$0, row].grapheme == "n" }!
        // Then the key keeps its colour, on the cursor line's background rather than the selection's
        #expect(buffer[key, row].style.foreground == Theme.dark.jsonKey.foreground)
        #expect(buffer[key, row].style.background == Theme.dark.cursorLine.background)
        #expect(buffer[key, row].style.background != Theme.dark.selection.background)
    }

    @Test func aColourThemeDrawsItsBackgroundOnEveryCell() throws {
        // Given the light theme
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("light.json"))
        var state = Fixtures.loaded(size: Size(width: 80, height: 24))
        state.theme = try ThemeLoader.parse(data, file: "light")
        // When the screen is drawn
        let (buffer, _) = Screen.render(state)
        // Then no cell is left in the terminal's own colours
        let unset = buffer.cells.filter { $0.style.background == .default || $0.style.foreground == .default }
        #expect(unset.isEmpty, "\(unset.count) cells in the terminal's colours")
        #expect(buffer[0, 5].style.background == .rgb(0xff, 0xff, 0xff))
    }
}
