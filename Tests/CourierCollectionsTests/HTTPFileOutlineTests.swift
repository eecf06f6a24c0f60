import Foundation
import Testing
import CourierTestSupport
@testable import CourierCollections

/// The outline (one boundary scan, templates parsed on demand) must read every file exactly as the full
/// parse does: same requests with the same ordinals and lines, same file variables, same diagnostics.
@Suite("Outlining .http files")
struct HTTPFileOutlineTests {
    /// Blocks that exercise what a block borrows from its neighbours: a `# @name` above its `###`, the
    /// first block's variables, blocks that fail (they take no ordinal), variable-only blocks.
    static let tricky: [String] = [
        "@base = http://x\n\nGET {{base}}/a\n\n### b\nGET {{base}}/b\n",
        "# @name above\n\n###\nGET http://x/1\n\n# @name second\n###\nPOST http://x/2\n\n{\"a\": 1}\n",
        "### broken\nGET http://x/1\nBad Header Line\n\n### fine\nGET http://x/2\n",
        "@only = vars\n\n###\n@more = here\n\n### real\nGET http://x/{{only}}\n",
        "###\n###\n### \n### x\nGET http://x\n",
        "  ### indented\nGET http://x/1\n###\u{301} not a separator\nX-A: b\n",
        "### s\n< {% request.variables.set('a', '1') %}\nGET http://x\n\n> {% client.global.set(\"t\", 1) %}\n\n>> out.json\n",
        "### h\n> {%\n client.test('x', () => {})\n%}\nGET http://x\n\n### ws\nWEBSOCKET ws://x\n\n{\"a\":1}\n===\nhi\n",
        "GET http://x?a=1\n  &b=2\n\n### \u{1F600} emoji name\nGET http://x/é\n",
        "\n\n\n",
        "",
        "### no request here\n# just a comment\n",
        "### tail error\nGET http://x\n\n> ./h.js\nstray text\n\n### next\nGET http://y\n",
        // kulala's NOP placeholder outside a leading shared block: an error at its line, no request, and the
        // requests after it keep their ordinals.
        "NOP\n",
        "### a\nGET http://x/1\n\n###\nNOP\n\n### b\nGET http://x/2\n\n### c\nNOP\n",
        // httpyac block comments: `###` inside one is no separator; an unclosed one is no comment.
        "/*\n#### heading\ntext\n*/\nGET http://x/1\n\n{{\n exports.a = 1;\n}}\n/*\n### next\n*/\n###\nGET http://x/2\n",
        "/*\n### a\nGET http://x/1\n/*\n### b\nGET http://x/2\n  /* one line */\n### c\nGET http://x/3\n",
        "/*\u{301}\n### a\nGET http://x/1\n*/\u{301}\n### b\nGET http://x/2\n",
    ]

    static func corpus() throws -> [(String, String)] {
        var files: [(String, String)] = tricky.enumerated().map { ("tricky-\($0.offset).http", $0.element) }
        for url in try Fixtures.roundTripFiles() {
            files.append((url.lastPathComponent, try Fixtures.text("roundtrip/" + url.lastPathComponent)))
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Collections")
        for name in ["demo.http", "examples/graphql.http", "examples/github-rest.http", "examples/form-upload.http"] {
            if let text = try? String(contentsOf: root.appendingPathComponent(name), encoding: .utf8) {
                files.append((name, text))
            }
        }
        // Each file again with CRLF endings, and all of them joined into one file.
        files += files.map { ($0.0 + "-crlf", $0.1.replacingOccurrences(of: "\n", with: "\r\n")) }
        files.append(("joined.http", files.map(\.1).joined(separator: "\n")))
        return files
    }

    /// Requests, variables and diagnostics of the full parse and of the outline, line numbers included
    /// (which `==` on variables and directives leaves out).
    static func compare(_ path: String, _ text: String) throws {
        let full = HTTPFile(path: path, text: text)
        let outline = try HTTPFileOutline(path: path, data: Data(text.utf8))
        let lazy = try outline.entries.indices.map { try outline.template(at: $0) }
        #expect(lazy == full.requests, "\(path)")
        #expect(lazy.map(lineNumbers) == full.requests.map(lineNumbers), "\(path)")
        #expect(outline.entries.map(\.name) == full.requests.map(\.name), "\(path)")
        #expect(outline.fileVariables == full.fileVariables, "\(path)")
        #expect(outline.fileVariables.map(\.line) == full.fileVariables.map(\.line), "\(path)")
        #expect(outline.diagnostics == full.diagnostics, "\(path)")
    }

    @Test func aLeadingSharedPlaceholderBlockIsNoRequestInTheOutlineEither() throws {
        // Given a file opening with kulala's shared NOP block, then two requests and a misplaced NOP
        let text = "### Shared\nNOP\nX-Team: a\n\n### one\nGET http://x/1\n\n### two\nGET http://x/2\n\n###\nNOP\n"
        // When it is outlined and parsed whole
        let full = HTTPFile(path: "s.http", text: text)
        let outline = try HTTPFileOutline(path: "s.http", data: Data(text.utf8))
        // Then both find the same two requests and the same error, and the outline says to read it whole
        #expect(outline.entries.map(\.name) == ["one", "two"])
        #expect(full.requests.map(\.name) == ["one", "two"])
        #expect(outline.diagnostics == full.diagnostics)
        #expect(full.diagnostics.map(\.line) == [12])
        #expect(outline.startsWithSharedBlock)
    }

    static func lineNumbers(_ request: RequestTemplate) -> [Int] {
        [request.lines.lowerBound, request.lines.upperBound] + request.variables.map(\.line)
            + request.unsupported.map(\.line) + request.scripts.map(\.line)
    }

    @Test func lazilyParsedTemplatesEqualTheFullParseForEveryCorpusFile() throws {
        for (path, text) in try Self.corpus() { try Self.compare(path, text) }
    }

    @Test func shuffledBlocksFromTheCorpusStillParseTheSameWayLazily() throws {
        // Given blocks cut from every corpus file at their `###` lines, recombined in a seeded random order
        let blocks = try Self.corpus().flatMap { $0.1.components(separatedBy: "###") }
        var generator = SeededGenerator(seed: 18)
        for round in 0..<40 {
            let count = Int.random(in: 1...12, using: &generator)
            let text = (0..<count).map { _ in blocks.randomElement(using: &generator) ?? "" }
                .joined(separator: ["###", "### x\n", "\n###", "  ###"].randomElement(using: &generator) ?? "###")
            // Then the outline reads the recombined file as the full parse does
            try Self.compare("shuffled-\(round).http", text)
        }
    }

    @Test func aByteOrderMarkIsReadAsTheFullLoaderReadsIt() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write("bom.http", "\u{FEFF}### first\nGET http://x/1\n\n### second\nGET http://x/2\n")
        let loaded = try CollectionLoader.loadFile(url, displayPath: "bom.http")
        let outline = try HTTPFileOutline.load(url, displayPath: "bom.http")
        let lazy = try outline.entries.indices.map { try outline.template(at: $0) }
        #expect(lazy == loaded.file.requests)
        #expect(lazy.map(Self.lineNumbers) == loaded.file.requests.map(Self.lineNumbers))
    }

    @Test func invalidUTF8IsRejectedWithTheLoadersError() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("bad.http")
        try Data([0x47, 0x45, 0x54, 0x20, 0xFF, 0x0A]).write(to: url)
        #expect(throws: CollectionError.unreadable(path: "bad.http", reason: "not valid UTF-8")) {
            try HTTPFileOutline.load(url, displayPath: "bad.http")
        }
    }

    @Test func selectionOverAnOutlinePicksTheSameRequestsAsOverTheFullParse() throws {
        // Given a file where `me` uses login's response and a variable a script of `setter` sets
        let text = """
            ### login
            POST http://x/login

            > {% client.global.set("token", response.body.token) %}

            ### me
            GET http://x/me?id={{login.response.body.$.id}}
            Authorization: Bearer {{token}}

            ### other
            GET http://x/other
            """
        let full = HTTPFile(path: "a.http", text: text)
        let outline = try HTTPFileOutline(path: "a.http", data: Data(text.utf8))
        let fromFull = try CollectionRunner.selection(of: full, names: ["me"], all: false)
        let fromOutline = try CollectionRunner.selection(of: outline, names: ["me"])
        #expect(fromOutline == fromFull)
        #expect(fromOutline.map(\.name) == ["login", "me"])
        #expect(throws: CollectionError.self) { try CollectionRunner.selection(of: outline, names: ["nope"]) }
    }
}

/// A small deterministic generator (SplitMix64), so a failing shuffled case can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
