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

    /// A URL that needs no encoding is parsed as it is, without URLComponents: the same URL comes out, and
    /// the same text is refused.
    @Test(arguments: [
        "http://127.0.0.1:8080/data.json", "HTTP://Example.COM/A/b", "https://[::1]:8443/x", "ws://h.test/",
        "http://h.test/?", "http://h.test/p?a=1&b=2#frag", "http://user:pw@h.test/p", "http://h.test/p#",
        "http://h.test/a;b=c/d?x=(1)*'2'!$,;", "ftp://h.test/", "http:///path", "http://h.test:99999999999/",
        "http://h.test:abc/", "http://h.test/[x]", "wss://h.test:443?q=1",
    ])
    func plainURLsComeOutAsURLComponentsMadeThem(_ typed: String) {
        var expected: String?
        var head = typed
        var fragment: String?
        var query: String?
        if let hash = head.firstIndex(of: "#") {
            fragment = String(head[head.index(after: hash)...])
            head = String(head[..<hash])
        }
        if let mark = head.firstIndex(of: "?") {
            query = String(head[head.index(after: mark)...])
            head = String(head[..<mark])
        }
        if var components = URLComponents(string: head),
           let scheme = components.scheme?.lowercased(), ["http", "https", "ws", "wss"].contains(scheme),
           components.percentEncodedHost?.isEmpty == false {
            if let query { components.percentEncodedQuery = query }
            if let fragment { components.percentEncodedFragment = fragment }
            expected = components.url?.absoluteString
        }
        #expect(URLBuilder.url(typed: typed)?.absoluteString == expected)
    }
}
