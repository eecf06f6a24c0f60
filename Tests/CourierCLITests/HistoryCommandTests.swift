@testable import CourierHistory
import CourierTestSupport
import Foundation
import Testing
@testable import CourierBody

@Suite(.serialized) struct HistoryCommandTests {
    @Test func listShowAndJSONPrintRedactedEntriesWithServerTextMadeSafe() async throws {
        // Given a history folder with one entry whose body carries a terminal escape and a secret
        let folder = try TemporaryFolder()
        let store = HistoryStore(directory: folder.url)
        let stored = try store.record(HistorySample.entry("getUser"),
                                      body: Data("hello \u{1B}]0;title\u{07} \(HistorySample.token)".utf8),
                                      secrets: [HistorySample.token])
        // When listing
        let list = try await CourierCLI.run(["history", "--dir", folder.url.path])
        // Then one line names the entry, its status and request
        #expect(list.status == 0)
        #expect(list.stdout.contains(stored.id))
        #expect(list.stdout.contains("200"))
        #expect(list.stdout.contains("getUser  GET https://api.example.com/users/1"))
        // When showing it
        let show = try await CourierCLI.run(["history", "show", String(stored.id.prefix(20)), "--dir", folder.url.path])
        #expect(show.status == 0)
        #expect(show.stdout.contains("> Authorization: Bearer REDACTED"))
        #expect(show.stdout.contains("hello ␛]0;title␇ REDACTED"))
        #expect(!show.stdout.contains("\u{1B}"))
        // And as JSON, one object with the body
        let json = try await CourierCLI.run(["history", "show", stored.id, "--json", "--dir", folder.url.path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["id"] as? String == stored.id)
        #expect((object["body"] as? String)?.hasSuffix("REDACTED") == true)
        for output in [list.stdout, show.stdout, json.stdout] { #expect(!output.contains(HistorySample.token)) }
    }

    @Test func unknownEntriesAndWordsAreErrorsThatSayWhatToType() async throws {
        let folder = try TemporaryFolder()
        let missing = try await CourierCLI.run(["history", "show", "nope", "--dir", folder.url.path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no history entry 'nope'"))
        let unknown = try await CourierCLI.run(["history", "bogus", "--dir", folder.url.path])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "Error: unknown history command 'bogus'; use list, show or search\nHelp:  courier history --help\n")
        let help = try await CourierCLI.run(["history", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("OVERVIEW: List, show and search past responses"))
    }
}
