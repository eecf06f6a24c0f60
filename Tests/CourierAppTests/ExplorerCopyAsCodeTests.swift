import CourierApp
import CourierCollections
import CourierHTTP
import CourierTerminal
import Foundation
import Synchronization
import Testing

/// "Copy as code" in the explorer: `X` in the Response pane opens the palette on one entry per language, and
/// the chosen code goes to the clipboard as `courier export` writes it, secrets left out.
@Suite struct ExplorerCopyAsCodeTests {
    /// What the explorer put on the clipboard.
    final class Clipboard: Sendable {
        let texts = Mutex<[String]>([])
        var first: String? { texts.withLock { $0.first } }
    }

    final class Driver: LiveExplorer {
        let folder: URL
        let copied = Clipboard()
        static let token = "tok-S3CRET-value"

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("copy-code-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("""
                ### echo
                # @name echo
                POST {{base}}/echo?page=2
                Authorization: Bearer {{token}}
                Content-Type: application/json

                {"note": "hi"}

                """.utf8).write(to: folder.appendingPathComponent("api.http"))
            try Data(#"{"dev": {"base": "http://127.0.0.1:9"}}"#.utf8)
                .write(to: folder.appendingPathComponent("http-client.env.json"))
            try Data(#"{"dev": {"token": "\#(Self.token)"}}"#.utf8)
                .write(to: folder.appendingPathComponent("http-client.private.env.json"))
            let copied = self.copied
            super.init(configuration: .init(transport: CurlTransport(), themeFolders: [],
                                            clipboard: { text in copied.texts.withLock { $0.append(text) } }),
                       state: AppState(size: Size(width: 140, height: 40),
                                       collectionPath: folder.appendingPathComponent("api.http").path, environment: "dev"))
        }

        func stop() {
            runner.shutdown()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test("X in the Response pane lists the languages; Swift goes to the clipboard with the token as a parameter")
    func copySwiftFromThePalette() async throws {
        // Given the explorer on a request that sends a private token
        let driver = try Driver()
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })

        // When X is pressed in the Response pane
        await driver.press(.char("3"), .char("X"))

        // Then the palette lists one entry per language
        for language in CodeLanguage.allCases {
            #expect(driver.screen.contains("Copy as: \(language.title)"), "\(language):\n\(driver.screen)")
        }

        // And choosing Swift copies the function, the token a parameter and never its value
        await driver.type(" swift")
        #expect(await driver.press(Key(.enter)) { _ in driver.copied.first != nil }, "\(driver.screen)")
        let code = try #require(driver.copied.first)
        #expect(code.contains("static func echo(token: String, session: URLSession = .shared)"))
        #expect(code.contains("request.setValue(\"Bearer \\(token)\", forHTTPHeaderField: \"Authorization\")"))
        #expect(!code.contains(Driver.token))
        #expect(driver.state.status?.text == "Copied the request as Swift (URLSession) code")
    }

    @Test("Code larger than the terminal clipboard takes is refused with the command that prints it")
    func tooLargeForTheClipboard() {
        var state = AppState(size: Size(width: 100, height: 30), collectionPath: "api.http")
        let effects = update(&state, .codeReady(String(repeating: "x", count: CourierApp.Clipboard.maxBytes + 1), .python))
        #expect(effects.isEmpty)
        #expect(state.status?.text.contains("courier export python prints it") == true)
    }
}
