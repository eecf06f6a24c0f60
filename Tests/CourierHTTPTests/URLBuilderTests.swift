import Foundation
import Testing
@testable import CourierHTTP

/// Request URLs from parts.
@Suite struct URLBuilderTests {
    let base = URL(string: "http://127.0.0.1:8080/api/")!

    @Test func pathsJoinWithOneSlashAndQueriesAreEncoded() {
        let url = URLBuilder.url(base, path: "/search", query: [("q", "a+b c&d"), ("page", "2")])
        #expect(url?.absoluteString == "http://127.0.0.1:8080/api/search?q=a%2Bb%20c%26d&page=2")
    }

    @Test func existingQueryItemsAreKept() {
        let url = URLBuilder.url(URL(string: "http://x.test/users?per_page=5")!, query: [("page", "3"), ("flag", nil)])
        #expect(url?.absoluteString == "http://x.test/users?per_page=5&page=3&flag")
    }
}
