import CourierTestSupport
import Foundation
import Testing
@testable import CourierHistory
@testable import CourierSecurity

/// Finding text in kept bodies: ASCII text byte by byte without case, any other text in decoded bodies.
@Suite struct HistorySearchTests {
    static func occurs(_ needle: String, in body: [UInt8]) -> Bool {
        ByteNeedle(foldingCase: needle)?.occurs(in: Data(body)) ?? false
    }

    @Test("An ASCII needle is found in any case, at the start, the end and between other bytes")
    func asciiNeedlesAreFoundInAnyCase() throws {
        let body = Array("Token: AbC-123 and the END".utf8)
        #expect(Self.occurs("token", in: body))
        #expect(Self.occurs("abc-123", in: body))
        #expect(Self.occurs("ABC-123", in: body))
        #expect(Self.occurs("end", in: body))
        #expect(Self.occurs("-123 AND", in: body))
        #expect(!Self.occurs("abc-124", in: body))
        #expect(!Self.occurs("the ENDS", in: body))
        // A needle that starts with a byte that is not a letter, or is a letter only in one case
        #expect(Self.occurs("-1", in: body))
        #expect(Self.occurs("123", in: body))
        #expect(!Self.occurs("1234", in: body))
    }

    @Test("A partial match does not hide the real one after it, and a needle longer than the body is not found")
    func partialMatchesAndShortBodies() {
        #expect(Self.occurs("aab", in: Array("aaaab".utf8)))
        #expect(Self.occurs("Aab", in: Array("aAaAB".utf8)))
        #expect(Self.occurs("abab", in: Array("ababaabab".utf8)))
        #expect(!Self.occurs("abc", in: Array("ab".utf8)))
        #expect(!Self.occurs("a", in: []))
        #expect(Self.occurs("a", in: Array("A".utf8)))
        // Letters are folded, other bytes are not: '[' is '{' less 0x20 and must not match it
        #expect(!Self.occurs("{", in: Array("[".utf8)))
        #expect(!Self.occurs("@", in: Array("`".utf8)))
    }

    @Test("Bytes that are not UTF-8 and bytes above ASCII neither match nor stop the search")
    func binaryBodiesAreSearchedToo() {
        var body: [UInt8] = [0xFF, 0xFE, 0x00, 0xC3, 0x28, 0xE9]
        body += Array("needle".utf8)
        body += [0x80, 0x00]
        #expect(Self.occurs("NEEDLE", in: body))
        #expect(!Self.occurs("needles", in: body))
    }

    @Test("An empty needle or one that is not ASCII is not a case-folding needle: those go through decoded text")
    func onlyAsciiNeedlesAreFolded() {
        #expect(ByteNeedle(foldingCase: "") == nil)
        #expect(ByteNeedle(foldingCase: "Ünïcode") == nil)
        #expect(ByteNeedle(foldingCase: "plain text 42")?.bytes == Array("plain text 42".utf8))
        #expect(ByteNeedle(foldingCase: "MiXeD")?.bytes == Array("mixed".utf8))
    }

    /// A store in a new folder holding one entry per body, a second apart in the order given.
    static func store(_ bodies: [(name: String, body: Data)]) throws -> (TemporaryFolder, HistoryStore) {
        let folder = try TemporaryFolder()
        let store = HistoryStore(directory: folder.url)
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for (index, entry) in bodies.enumerated() {
            try store.record(HistorySample.entry(entry.name, date: start + Double(index)), body: entry.body)
        }
        return (folder, store)
    }

    @Test("The store finds ASCII and non-ASCII text in kept bodies, in any case, and only there")
    func theStoreSearchesBodies() throws {
        var binary = Data([0xFF, 0x00, 0xFE])
        binary.append(Data("xLONDONx".utf8))
        let (folder, store) = try Self.store([("plain", Data("{\"city\": \"London\"}".utf8)),
                                              ("accented", Data("{\"city\": \"Zürich\"}".utf8)),
                                              ("binary", binary)])
        defer { withExtendedLifetime(folder) {} }
        #expect(try store.search("london").map(\.request.name) == ["binary", "plain"])
        #expect(try store.search("ZÜRICH").map(\.request.name) == ["accented"])
        #expect(try store.search("zurich").isEmpty)
        #expect(try store.search("Paris").isEmpty)
    }
}

@Suite struct HistoryASCIIBodySearchTests {
    @Test("A body of ASCII alone is told apart from one with any byte above it, wherever that byte is")
    func asciiBodiesAreToldApart() {
        let text = Array("{\"city\": \"London\", \"n\": 42}\n".utf8)
        #expect(ByteNeedle.isASCII(Data(text)))
        #expect(ByteNeedle.isASCII(Data()))
        for place in 0..<text.count {
            var odd = text
            odd[place] = 0xC3
            #expect(!ByteNeedle.isASCII(Data(odd)), "byte \(place)")
        }
    }

    @Test("Text that is not ASCII is found in bodies of ASCII only when it lowercases to ASCII, as before")
    func nonASCIITextInASCIIBodies() throws {
        let (folder, store) = try HistorySearchTests.store([
            ("ascii", Data("{\"unit\": \"KELVIN\", \"city\": \"Zurich\"}".utf8)),
            ("kelvin", Data("{\"unit\": \"\u{212A}elvin\"}".utf8)),
            ("accented", Data("{\"city\": \"ZÜRICH\"}".utf8)),
        ])
        defer { withExtendedLifetime(folder) {} }
        // The Kelvin sign lowercases to an ASCII k: found in either kind of body, as decoding found it
        #expect(try store.search("\u{212A}ELVIN").map(\.request.name) == ["kelvin", "ascii"])
        #expect(try store.search("zürich").map(\.request.name) == ["accented"])
        #expect(try store.search("Ü").map(\.request.name) == ["accented"])
    }
}

@Suite struct HistoryUnicodeSearchTests {
    @Test("Lowercased text is searched by its UTF-8 bytes: a match at the start, the end, and none across a character")
    func lowercasedTextIsSearchedByBytes() {
        let needle = ByteNeedle(exactly: "zürich")
        #expect(needle.occurs(in: "zürich"))
        #expect(needle.occurs(in: "{\"city\": \"zürich\"}"))
        #expect(needle.occurs(in: "in zürich"))
        #expect(!needle.occurs(in: "zurich"))
        #expect(!needle.occurs(in: "zürič"))
        #expect(!ByteNeedle(exactly: "").occurs(in: "anything"))
        #expect(ByteNeedle(exactly: "日本").occurs(in: "東京は日本の首都"))
    }
}
