import CourierApp
import CourierDemo
import CourierHTTP
import CourierTerminal
import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// A token the private environment names a secret store for, in the explorer: sent to a server that echoes
/// it, masked on screen, kept out of the history folder; "copy as code" leaves it out without asking the store.
@Suite struct ExplorerSecretStoreTests {
    /// What the explorer put on the clipboard.
    final class Clipboard: Sendable {
        let texts = Mutex<[String]>([])
        var first: String? { texts.withLock { $0.first } }
    }

    final class Driver: LiveExplorer {
        let folder: URL
        let server: DemoServer
        let copied = Clipboard()
        var history: URL { folder.appendingPathComponent("history") }

        /// A collection whose `token` is the 1Password item `reference`.
        init(reference: String) throws {
            server = try DemoServer.start()
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)")
            let collection = folder.appendingPathComponent("api")
            try FileManager.default.createDirectory(at: collection, withIntermediateDirectories: true)
            try Data("""
                ### echo
                # @name echo
                POST http://127.0.0.1:\(server.port)/echo
                Authorization: Bearer {{token}}
                Content-Type: application/json

                {"note": "hi"}

                """.utf8).write(to: collection.appendingPathComponent("api.http"))
            let entry = #"{"dev": {"token": {"secretStore": "1password", "reference": "\#(reference)"}}}"#
            try Data(entry.utf8).write(to: collection.appendingPathComponent("http-client.private.env.json"))
            let copied = self.copied
            super.init(configuration: .init(transport: CurlTransport(), themeFolders: [],
                                            historyDirectory: folder.appendingPathComponent("history"),
                                            clipboard: { text in copied.texts.withLock { $0.append(text) } }),
                       state: AppState(size: Size(width: 140, height: 40),
                                       collectionPath: collection.appendingPathComponent("api.http").path,
                                       environment: "dev"))
        }

        func stop() {
            runner.shutdown()
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    static let secret = "op-S3CRET-in-the-vault"

    @Test func aStoresTokenIsSentMaskedAndKeptOutOfHistory() async throws {
        let child = try await TestInOwnProcess.run("secretStoreExplorerChildWhenStartedByItsTest")
        #expect(child.status == 0, "child ended with \(child.status): \(child.stdout)\(child.stderr)")
    }

    @Test("Copy as code on a request whose token is in a store copies the code without asking the store")
    func copyAsCodeNamesTheStoreWithoutAskingIt() async throws {
        // Given a token kept in a 1Password item that no `op` can read (none is installed, or no such item)
        let driver = try Driver(reference: "op://courier-test-\(UUID().uuidString)/none/token")
        defer { driver.stop() }
        #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })
        // When the request is copied as Swift
        await driver.press(.char("3"), .char("X"))
        await driver.type(" swift")
        #expect(await driver.press(Key(.enter)) { _ in driver.copied.first != nil }, "\(driver.screen)")
        // Then the code takes the Authorization header's credentials as a parameter, naming no store
        let code = try #require(driver.copied.first)
        #expect(code.contains("//   authorization: the Authorization header's credentials"), "\(code)")
        #expect(!code.contains("op://") && !code.contains("1password"), "\(code)")
    }
}

/// The child's side: with a stand-in `op` on PATH (process-wide, hence its own process), sends the request.
@Test func secretStoreExplorerChildWhenStartedByItsTest() async throws {
    guard TestInOwnProcess.isChild("secretStoreExplorerChildWhenStartedByItsTest") else { return }
    // Given an `op` that answers for one item as 1Password's CLI does
    let bin = FileManager.default.temporaryDirectory.appendingPathComponent("op-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: bin) }
    let op = bin.appendingPathComponent("op")
    try Data("""
        #!/bin/sh
        [ "$1 $2 $3" = "read --no-newline op://Work/API/token" ] && printf '\(ExplorerSecretStoreTests.secret)' && exit 0
        echo "[ERROR] no such item" >&2; exit 1

        """.utf8).write(to: op)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: op.path)
    setenv("PATH", bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), 1)
    let driver = try ExplorerSecretStoreTests.Driver(reference: "op://Work/API/token")
    defer { driver.stop() }
    #expect(await driver.run(Explorer.startupEffects(driver.state)) { $0.loading == .loaded })

    // When the request is sent to /echo, which answers with the request it received
    let received: (AppState) -> Bool = { state in
        if case .received = state.response.phase { return state.responsePane?.isWorking == false }
        return false
    }
    #expect(await driver.press(.char("3"), Key(.enter), until: received), "\(driver.screen)")

    // Then the server received the store's value, and the screen does not show it
    let echo = try #require(driver.server.log.last { $0.path == "/echo" })
    #expect(echo.header("Authorization") == "Bearer \(ExplorerSecretStoreTests.secret)")
    #expect(!driver.screen.contains("S3CRET"), "\(driver.screen)")

    // And once F2 lists the exchange, no file of the history folder holds the value
    #expect(await driver.press(Key(.function(2))) { $0.historyPane?.entries.isEmpty == false }, "\(driver.screen)")
    let files = FileManager.default.enumerator(at: driver.history, includingPropertiesForKeys: nil)?
        .compactMap { $0 as? URL }.filter { !$0.hasDirectoryPath } ?? []
    let kept = try files.map { try Data(contentsOf: $0) }
    // (the echoed body is kept: it lists the Authorization header the server received)
    #expect(kept.contains { $0.range(of: Data("Authorization".utf8)) != nil })
    for (file, data) in zip(files, kept) {
        #expect(data.range(of: Data(ExplorerSecretStoreTests.secret.utf8)) == nil, "\(file.path) holds the secret")
    }
}
