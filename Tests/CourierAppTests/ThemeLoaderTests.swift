import CourierApp
import CourierTerminal
import Foundation
import Testing

@Suite("themes from Themes/*.json")
struct ThemeLoaderTests {
    static let themes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Themes")

    @Test(arguments: ["dark", "light", "high-contrast", "monochrome"])
    func everyShippedThemeLoadsWithoutWarnings(name: String) {
        let (theme, warning) = ThemeLoader.load(name: name, folders: [Self.themes], trueColor: true, noColor: false)
        #expect(warning == nil)
        #expect(theme.name == name)
    }

    @Test func rgbColoursMapToTheNearestIndexedColourWithoutTrueColour() throws {
        let json = ##"{"roles": {"error": "#ff0000", "muted": "#808080", "text": 33}}"##
        let theme = try ThemeLoader.parse(Data(json.utf8), file: "t.json", trueColor: false)
        #expect(theme.error.foreground == .indexed(196))
        #expect(theme.muted.foreground == .indexed(244))
        #expect(theme.text.foreground == .indexed(33))
        let full = try ThemeLoader.parse(Data(json.utf8), file: "t.json", trueColor: true)
        #expect(full.error.foreground == .rgb(255, 0, 0))
    }

    @Test func aBadValueNamesTheFileAndTheKeyAndFallsBackToDark() throws {
        // Given a theme file with a bad colour
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("themes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = ##"{"roles": {"text": "green", "method.GET": {"fg": "#12345"}}}"##
        try Data(json.utf8).write(to: folder.appendingPathComponent("broken.json"))
        // When loading it
        let (theme, warning) = ThemeLoader.load(name: "broken", folders: [folder], trueColor: true, noColor: false)
        // Then the warning names the file and the key, and the dark theme is used
        #expect(theme == Theme.dark)
        #expect(warning?.contains(folder.appendingPathComponent("broken.json").path) == true)
        #expect(warning?.contains("roles.method.GET.fg") == true)
    }

    @Test func unknownRolesAndInvalidJSONAreErrors() {
        #expect(throws: ThemeError.badValue(file: "x.json", key: "roles.bogus", reason: "unknown role")) {
            try ThemeLoader.parse(Data(##"{"roles": {"bogus": "#000000"}}"##.utf8), file: "x.json")
        }
        #expect(throws: ThemeError.unreadable(file: "x.json", reason: "not valid JSON")) {
            try ThemeLoader.parse(Data("{".utf8), file: "x.json")
        }
    }

    @Test func aMissingThemeFallsBackWithAWarning() {
        let (theme, warning) = ThemeLoader.load(name: "nope", folders: [Self.themes], trueColor: true, noColor: false)
        #expect(theme.name == "dark")
        #expect(warning?.contains("No theme named 'nope'") == true)
    }

    @Test func noColorStripsEveryColourButKeepsSelectionVisible() {
        let (theme, _) = ThemeLoader.load(name: "light", folders: [Self.themes], trueColor: true, noColor: true)
        #expect(theme.error.foreground == .default && theme.error.background == .default)
        #expect(theme.method("GET").foreground == .default)
        #expect(theme.selection.attributes.contains(.reverse))
        var state = Fixtures.loaded()
        state.theme = theme
        let buffer = Screen.render(state).buffer
        #expect(buffer.cells.allSatisfy { $0.style.foreground == .default && $0.style.background == .default })
    }

    @Test func themeNamesListTheFilesAndTheBuiltIns() {
        #expect(ThemeLoader.names(in: [Self.themes]) == ["dark", "high-contrast", "light", "monochrome"])
    }

    @Test func aLoadedThemeReplacesTheCurrentOneLive() {
        var state = Fixtures.loaded()
        let (light, _) = ThemeLoader.load(name: "light", folders: [Self.themes], trueColor: true, noColor: false)
        _ = update(&state, .themeLoaded(light, warning: nil))
        #expect(state.theme.name == "light")
        #expect(Screen.render(state).buffer.lines().last?.hasSuffix("light") == true)
    }
}

@Suite("the explorer's text fields on CourierTerminal's editors")
struct TextEditorTests {
    @Test func wordMovementAndDeletion() {
        var editor = LineEditor("GET /users/42?x=1")
        editor.moveWordLeft()
        #expect(editor.cursor == 16)
        editor.moveWordLeft()
        editor.moveWordLeft()
        #expect(editor.cursor == 11)
        editor.deleteWordBackward()
        #expect(editor.text == "GET /42?x=1")
        editor.moveHome()
        editor.moveWordRight()
        #expect(editor.cursor == 3)
    }

    @Test func wideCharactersMoveAsOneAndCountTwoColumns() {
        var editor = LineEditor("名前=太郎")
        #expect(editor.cursorColumn == 9)
        editor.moveLeft()
        #expect(editor.cursorColumn == 7)
        editor.deleteBackward()
        #expect(editor.text == "名前=郎")
    }

    @Test func multilineEditingSplitsAndJoinsLines() {
        var editor = TextAreaEditor("{\n}", cursorAtEnd: true)
        editor.moveUp()
        editor.moveEnd()
        editor.newline()
        editor.insert("  \"a\": 1")
        #expect(editor.text == "{\n  \"a\": 1\n}")
        editor.moveHome()
        editor.deleteBackward()
        #expect(editor.text == "{  \"a\": 1\n}")
        editor.undo()
        #expect(editor.text == "{\n  \"a\": 1\n}")
    }

    @Test func pastingLinesIntoASingleLineFieldKeepsOneLine() {
        var editor = LineEditor("a")
        editor.paste("b\nc\r\nd")
        #expect(editor.text == "ab c d")
        var body = TextAreaEditor("")
        body.insert("x\ny")
        #expect(body.lines.count == 2 && body.row == 1 && body.column == 1)
    }
}
