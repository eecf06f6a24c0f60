import CourierTerminal
import Foundation
import Testing
@testable import CourierApp

/// Theme files are read with CourierBody's JSON values rather than `JSONSerialization`: every value kind
/// and every error the loader knew still reads the same.
@Suite("Theme files read as typed JSON")
struct ThemeFileValueTests {
    @Test("every value kind of a theme file reads as before: palette names, indexes, attrs, default")
    func valueKinds() throws {
        // Given a theme using each kind of value
        let json = ##"""
            {"palette": {"red": "#ff0000"},
             "roles": {"error": "red", "muted": 244, "text": "default",
                       "title": {"fg": "red", "bg": 17, "attrs": ["bold", "underline"]}}}
            """##
        // When it is parsed
        let theme = try ThemeLoader.parse(Data(json.utf8), file: "t.json")
        // Then each role has its colours
        #expect(theme.error.foreground == .rgb(255, 0, 0))
        #expect(theme.muted.foreground == .indexed(244))
        #expect(theme.text.foreground == .default)
        #expect(theme.title == Style(foreground: .rgb(255, 0, 0), background: .indexed(17), attributes: [.bold, .underline]))
    }

    @Test("bad values name the key: an index out of range, attrs that are not a list, a boolean colour")
    func badValues() {
        #expect(throws: ThemeError.badValue(file: "t.json", key: "roles.muted", reason: "colour index 300 is not 0–255")) {
            try ThemeLoader.parse(Data(##"{"roles": {"muted": 300}}"##.utf8), file: "t.json")
        }
        #expect(throws: ThemeError.badValue(file: "t.json", key: "roles.title.attrs", reason: "not a list")) {
            try ThemeLoader.parse(Data(##"{"roles": {"title": {"attrs": "bold"}}}"##.utf8), file: "t.json")
        }
        #expect(throws: ThemeError.badValue(file: "t.json", key: "roles.title.fg", reason: "not a colour")) {
            try ThemeLoader.parse(Data(##"{"roles": {"title": {"fg": true}}}"##.utf8), file: "t.json")
        }
        #expect(throws: ThemeError.badValue(file: "t.json", key: "(root)", reason: "not an object")) {
            try ThemeLoader.parse(Data("[1]".utf8), file: "t.json")
        }
    }

    @Test("a dark.json in a theme folder is read instead of the built-in copy")
    func changedDarkFileIsParsed() throws {
        // Given a dark.json in a theme folder that differs from the shipped one
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dark-theme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(##"{"roles": {"error": "#ff0000"}}"##.utf8).write(to: folder.appendingPathComponent("dark.json"))
        // When it is loaded
        let (theme, warning) = ThemeLoader.load(name: "dark", folders: [folder], trueColor: true, noColor: false)
        // Then the user's colour is used
        #expect(warning == nil)
        #expect(theme.error.foreground == .rgb(255, 0, 0))
        #expect(theme != Theme.dark)
    }
}
