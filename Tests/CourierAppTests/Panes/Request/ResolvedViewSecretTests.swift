import CourierApp
import CourierTerminal
import Foundation
import Testing

/// The request editor's `v` view (variables resolved) never shows a private-environment value.
struct ResolvedViewSecretTests {
    @Test func privateValuesAreMaskedWhenVariablesAreShownResolved() throws {
        // Given a collection loaded from disk with a private environment holding the token
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("resolved-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("### Me\n# @name me\nGET {{base}}/me?access={{token}}\nAuthorization: Bearer {{token}}\n".utf8)
            .write(to: folder.appendingPathComponent("api.http"))
        try Data(#"{"dev": {"base": "http://127.0.0.1:10"}}"#.utf8)
            .write(to: folder.appendingPathComponent("http-client.env.json"))
        try Data(#"{"dev": {"token": "priv-S3CRET-value"}}"#.utf8)
            .write(to: folder.appendingPathComponent("http-client.private.env.json"))
        let (collection, problems) = CollectionStore().load(folder.appendingPathComponent("api.http").path)
        #expect(problems.isEmpty)
        var state = AppState(size: Size(width: 120, height: 30), collectionPath: folder.path, environment: "dev")
        _ = update(&state, .collectionLoaded(collection))

        // When the request is opened and its variables are shown resolved, on the URL and the headers tab
        state.press(.char("j"), Key(.enter))
        state.press(.char("v"))
        let urlScreen = Screen.render(state).buffer.lines().joined(separator: "\n")

        // Then the public value is resolved and the private one is masked
        #expect(state.editor.showResolved)
        #expect(urlScreen.contains("http://127.0.0.1:10/me"), "\(urlScreen)")
        #expect(urlScreen.contains("REDACTED"), "\(urlScreen)")
        #expect(!urlScreen.contains("priv-S3CRET-value"))
    }
}
