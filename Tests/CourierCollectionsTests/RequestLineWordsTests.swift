import Testing
@testable import CourierCollections

/// A request line is split into words over its bytes when it is ASCII, by Character otherwise: both give the
/// words the Character split always gave.
@Suite("Request line words")
struct RequestLineWordsTests {
    @Test("An ASCII line splits at every run of spaces and tabs, as the Character split does")
    func asciiLinesSplitAtBlanks() {
        let lines = ["GET https://x/a", "POST\t https://x/b \tHTTP/1.1", "  https://x/c  ", "GET", "", " \t ",
                     "DELETE https://x/{{id}}?q=a%20b#frag HTTP/2", "PURGE\thttps://x/d\r"]
        for line in lines {
            #expect(HTTPFileParser.words(line) == line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init),
                    "\(line.debugDescription)")
        }
        #expect(HTTPFileParser.words("POST\t https://x/b \tHTTP/1.1") == ["POST", "https://x/b", "HTTP/1.1"])
    }

    @Test("A line with non-ASCII text keeps the Character split: a combining mark after a space joins it")
    func nonASCIILinesSplitByCharacter() {
        #expect(HTTPFileParser.words("GET https://x/é  HTTP/1.1") == ["GET", "https://x/é", "HTTP/1.1"])
        #expect(HTTPFileParser.words("GET \u{301}https://x/a") == ["GET \u{301}https://x/a"])
        let line = HTTPFileParser.requestLine("GET \u{301}https://x/a")
        #expect(line?.method == "GET" && line?.url == "GET \u{301}https://x/a")
        #expect(HTTPFileParser.requestLine("post  https://x/日本 HTTP/1.1")
                == .init(method: "POST", url: "https://x/日本", version: "HTTP/1.1"))
    }
}
