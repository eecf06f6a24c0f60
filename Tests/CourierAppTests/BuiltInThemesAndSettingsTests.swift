import CourierApp
import Foundation
import Testing

/// The themes the binary carries equal Themes/*.json, load without any folder, and the user's settings
/// file is read with errors that name the file and the line.
struct BuiltInThemesAndSettingsTests {
    static let themes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Themes")

    @Test func everyShippedThemeIsEmbeddedByteForByte() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.themes.path).filter { $0.hasSuffix(".json") }
        #expect(Set(files.map { String($0.dropLast(5)) }) == Set(BuiltInThemeFiles.all.keys))
        for file in files {
            let text = try String(contentsOf: Self.themes.appendingPathComponent(file), encoding: .utf8)
            #expect(BuiltInThemeFiles.all[String(file.dropLast(5))] == text, "run `make embed` after editing \(file)")
        }
    }

    @Test(arguments: ["light", "high-contrast"])
    func aShippedThemeLoadsWithNoThemeFolderAtAll(name: String) {
        // Given no folder holding theme files (an installed binary, run from anywhere)
        // When the theme is loaded
        let (theme, warning) = ThemeLoader.load(name: name, folders: [], trueColor: true, noColor: false)
        // Then it is the shipped theme, without a warning
        #expect(warning == nil)
        #expect(theme.name == name)
        #expect(ThemeLoader.names(in: []).contains(name))
    }

    @Test func settingsGiveTheDefaultThemeAndEnvironment() throws {
        let settings = try UserSettings.parse(Data(#"{"theme": "light", "environment": "dev"}"#.utf8), file: "config.json")
        #expect(settings == UserSettings(theme: "light", environment: "dev"))
    }

    @Test func aMalformedSettingsFileIsAnErrorNamingTheFileAndLine() {
        let text = "{\n  \"theme\": \"light\",\n  \"environment\": dev\n}\n"
        #expect(throws: SettingsError.self) { try UserSettings.parse(Data(text.utf8), file: "/home/ada/config.json") }
        do {
            _ = try UserSettings.parse(Data(text.utf8), file: "/home/ada/config.json")
        } catch {
            #expect(error.description.hasPrefix("/home/ada/config.json:3: "), "\(error)")
        }
    }

    @Test func anUnknownSettingsKeyIsReportedOnItsLine() {
        let text = "{\n  \"theme\": \"light\",\n  \"colour\": \"red\"\n}\n"
        do {
            _ = try UserSettings.parse(Data(text.utf8), file: "config.json")
            Issue.record("an unknown key was accepted")
        } catch {
            #expect(error.description.hasPrefix("config.json:3: unknown key 'colour'"), "\(error)")
        }
    }
}
