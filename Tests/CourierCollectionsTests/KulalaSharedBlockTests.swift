import CourierHTTP
import Testing
@testable import CourierCollections

/// kulala.nvim's `### Shared` block read into the requests after it, and kept out of them when one is edited.
@Suite("kulala shared blocks: parsing and editing")
struct KulalaSharedBlockTests {
    static let text = """
        ### Shared
        # @timeout 7
        NOP
        X-Team: core

        ### one
        # @timeout 2
        GET https://x/one
        Accept: text/plain

        ### two
        GET https://x/two

        """

    @Test func theRequestsAfterANOPBlockHaveItsHeadersAndTagsWhereTheyLackTheirOwn() {
        let file = HTTPFile(path: "k.http", text: Self.text)
        #expect(file.diagnostics.isEmpty, "\(file.diagnostics)")
        #expect(file.requests.map(\.name) == ["one", "two"])
        #expect(file.requests.map { $0.headers["X-Team"] } == ["core", "core"])
        #expect(file.requests.map { $0.tags["timeout"] } == ["2", "7"])
    }

    @Test func editingARequestWritesOnlyItsOwnHeadersAndTagsAndDuplicatingCopiesOnlyThose() throws {
        // Given request two with a header added in the explorer
        let file = HTTPFile(path: "k.http", text: Self.text)
        var edited = file.requests[1]
        edited.headers.add("X-Mine", "1")
        // When it is written back
        let text = try file.replacing(request: file.requests[1], with: edited)
        // Then its block holds its own header and none of what the shared block lent; reread, it has both
        #expect(text.hasSuffix("### two\nGET https://x/two\nX-Mine: 1\n"), "\(text)")
        let reread = HTTPFile(path: "k.http", text: text)
        #expect(reread.requests[1].headers["X-Team"] == "core")
        #expect(reread.requests[1].headers["X-Mine"] == "1")
        // And a copy of request one carries only what its own lines say
        let copied = try file.duplicating(file.requests[0], as: "one-copy")
        let copy = try #require(copied.components(separatedBy: "# @name one-copy").last)
        #expect(!copy.contains("X-Team") && !copy.contains("# @timeout 7"), "\(copied)")
    }
}
