import CourierTestSupport
import Foundation
import Testing
@testable import CourierBody

/// Runs the built `courier` binary (built by `swift build --build-tests`) and returns exit code and output.
func runHistoryCommand(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let process = Process()
    process.executableURL = root.appendingPathComponent(".build/debug/courier")
    process.arguments = ["history"] + arguments
    let stdout = Pipe(), stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}

@Suite(.serialized) struct HistoryCommandTests {
    @Test func listShowAndJSONPrintRedactedEntriesWithServerTextMadeSafe() throws {
        // Given a history folder with one entry whose body carries a terminal escape and a secret
        let folder = try TemporaryFolder()
        let store = HistoryStore(directory: folder.url)
        let stored = try store.record(HistoryStoreTests.entry("getUser"),
                                      body: Data("hello \u{1B}]0;title\u{07} \(HistoryStoreTests.token)".utf8),
                                      secrets: [HistoryStoreTests.token])
        // When listing
        let list = try runHistoryCommand(["--dir", folder.url.path])
        // Then one line names the entry, its status and request
        #expect(list.status == 0)
        #expect(list.stdout.contains(stored.id))
        #expect(list.stdout.contains("200"))
        #expect(list.stdout.contains("getUser  GET https://api.example.com/users/1"))
        // When showing it
        let show = try runHistoryCommand(["show", String(stored.id.prefix(20)), "--dir", folder.url.path])
        #expect(show.status == 0)
        #expect(show.stdout.contains("> Authorization: Bearer REDACTED"))
        #expect(show.stdout.contains("hello ␛]0;title␇ REDACTED"))
        #expect(!show.stdout.contains("\u{1B}"))
        // And as JSON, one object with the body
        let json = try runHistoryCommand(["show", stored.id, "--json", "--dir", folder.url.path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["id"] as? String == stored.id)
        #expect((object["body"] as? String)?.hasSuffix("REDACTED") == true)
        for output in [list.stdout, show.stdout, json.stdout] { #expect(!output.contains(HistoryStoreTests.token)) }
    }

    @Test func unknownEntriesAndWordsAreErrorsThatSayWhatToType() throws {
        let folder = try TemporaryFolder()
        let missing = try runHistoryCommand(["show", "nope", "--dir", folder.url.path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no history entry 'nope'"))
        let unknown = try runHistoryCommand(["bogus", "--dir", folder.url.path])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "Error: unknown history command 'bogus'; use list, show or search\nHelp:  courier history --help\n")
        let help = try runHistoryCommand(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: List, show and search past responses"))
    }
}
