import Foundation
import Testing
import CourierTestSupport
@testable import CourierCollections

/// The explorer's first stage reads only the start of a collection; what it reads must be exactly the
/// first requests of the whole load, with the same IDs and lines.
@Suite("Loading the start of a collection")
struct CollectionStartTests {
    /// `count` blocks of a few hundred bytes each, with CRLF endings and a `# @name` above some separators.
    static func text(_ count: Int) -> String {
        (1...count).map { index in
            let above = index % 7 == 0 ? "# @name named\(index)\r\n\r\n" : ""
            return above + "### request \(index)\r\nPOST http://x/\(index)\r\nContent-Type: application/json\r\n\r\n"
                + "{\"padding\": \"" + String(repeating: "x", count: 300) + "\"}\r\n\r\n"
        }.joined()
    }

    @Test func theStartOfALargeFileIsTheFirstRequestsOfTheWholeLoad() throws {
        // Given a file of 2,000 blocks (about 750 KB, read in several chunks)
        let folder = try TemporaryFolder()
        let url = try folder.write("big.http", Self.text(2_000))
        // When its first 150 blocks are loaded, and then the whole file
        let (start, complete) = CollectionLoader.loadStart(url.path, blocks: 150)
        let whole = CollectionLoader.load(url.path)
        // Then the start is cut, and its requests are the whole load's first 150, IDs and lines included
        #expect(!complete)
        let first = try #require(start.files.first).file.requests
        let all = try #require(whole.files.first).file.requests
        #expect(first.count == 150)
        #expect(first == Array(all.prefix(150)))
        #expect(first.map(\.lines) == all.prefix(150).map(\.lines))
    }

    @Test func aSmallFileOrFolderIsCompleteAfterTheFirstStage() throws {
        let folder = try TemporaryFolder()
        try folder.write("a/one.http", Self.text(3))
        try folder.write("b/two.http", Self.text(4))
        let (start, complete) = CollectionLoader.loadStart(folder.url.path, blocks: 200)
        #expect(complete)
        #expect(start == CollectionLoader.load(folder.url.path))
        // A limit reached inside the folder stops at that file
        let (cut, cutComplete) = CollectionLoader.loadStart(folder.url.path, blocks: 5)
        #expect(!cutComplete)
        #expect(cut.files.map { $0.file.requests.count } == [3, 2])
    }
}
