import Foundation
import Testing
@testable import CourierCollections

/// The byte reader of plain blocks (`### name` over `GET http://…`) must build exactly what the general reader
/// builds: every file below is parsed both ways and the results (requests, layouts, lines, diagnostics)
/// compared whole.
@Suite("Reading plain .http blocks over bytes")
struct HTTPFilePlainBlockTests {
    /// Both readers' results, and how many blocks the byte reader took.
    static func bothWays(_ text: String) -> (plain: HTTPFile, general: HTTPFile, taken: Int) {
        var general = HTTPFileParser(path: "p.http", text: text)
        general.readsPlainBlocks = false
        let probe = HTTPFileParser(path: "p.http", text: text)
        var taken = 0
        for block in probe.blocks() {
            var one = probe
            if one.parsePlainBlock(block) { taken += 1 }
        }
        return (HTTPFileParser(path: "p.http", text: text).parse(), general.parse(), taken)
    }

    /// One block of each shape around a plain request: separators, names, blank lines, line endings,
    /// versions, and the near misses the byte reader must leave alone.
    static let blocks: [String] = [
        "### r1\nGET http://127.0.0.1:8080/data.json\n",
        "### r2\r\nGET http://127.0.0.1:8080/data.json\r\n\r\n",
        "###\nPOST https://example.com/items HTTP/1.1\n\n\n",
        "### Find one ###\nDELETE http://x/1\n",
        "### C#\nPUT http://x/1\n",
        "### ## \nPATCH http://x/1\n",
        "###\t tabbed title \t\nHEAD http://x/1 \t\n",
        "  ### indented   \n\n\n   OPTIONS\thttp://x/1\t HTTP/2   \n  \n",
        "### café\nGET http://x/é\n",
        "### r\nGET http://x/1\u{301}\n",
        "### é name\nGET http://x/1\n",
        "### r\nget http://x/1\n",
        "### r\nGET http://x/{{id}}\n",
        "### r\nGET {{base}}/x\n",
        "### r\nGET /relative\n",
        "### r\nGET ws://x/1\n",
        "### r\nWEBSOCKET ws://x/1\n",
        "### r\nGRAPHQL http://x/graphql\n",
        "### r\nPURGE http://x/1\n",
        "### r\nGET http://x/1 HTTP/1.1 extra\n",
        "### r\nGET http://x/1 (Prior Knowledge)\n",
        "### r\nGET http://x/1 HTTP/2 (Prior Knowledge)\n",
        "### r\nhttp://x/1\n",
        "### r\nGET http://x/1\nAccept: */*\n",
        "### r\nGET http://x/1\n  ?a=1\n",
        "### r\nGET http://x/1\n\n{\"a\": 1}\n",
        "### r\nGET http://x/1\n\n> {% client.test('t', () => {}) %}\n",
        "### r\nGET http://x/1\n\n# a footer note\n",
        "### r\nGET http://x/1\n\n@token = {{response.body.token}}\n",
        "### r\nGET http://x/1\n\nHTTP/1.1 200 OK\n",
        "### r\n# @name named\nGET http://x/1\n",
        "### r\n@local = 1\nGET http://x/1\n",
        "### r\n// comment\nGET http://x/1\n",
        "### r\nGET http://x/1\rtail\n",
        "### r\nGET http://x/1\n\u{00A0}\n",
        "### r\nNOP\n",
        "GET http://x/first\n",
        "\n\nGET http://x/first\n\n",
        "GET http://x/first",
        "### r\nGET http://x/last",
        "### r\n\n",
        "###\n",
    ]

    /// What may stand above a block's `###`: its `# @name` lines name the request below.
    static let above: [String] = [
        "", "# @name above\n", "# @name above\n\n\n", "// @name slashed\n", "# @name\n", "# note\n",
        "@var = 1\n", "# @name  spaced  \n",
    ]

    @Test("Every fixture, collection and tricky file reads the same with and without the byte reader")
    func filesReadTheSameBothWays() throws {
        var texts = HTTPFileOutlineTests.tricky + Self.blocks
        for url in try Fixtures.roundTripFiles() { texts.append(try Fixtures.text("roundtrip/" + url.lastPathComponent)) }
        let collections = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Collections").standardized
        for path in ["demo.http", "examples/graphql.http", "examples/github-rest.http", "examples/form-upload.http"] {
            texts.append(try String(contentsOf: collections.appendingPathComponent(path), encoding: .utf8))
        }
        for text in texts {
            let (plain, general, _) = Self.bothWays(text)
            #expect(plain == general, "\(text.debugDescription)")
        }
    }

    @Test("Every pair of blocks, with each prelude above the second, reads the same both ways")
    func blockPairsReadTheSameBothWays() {
        var compared = 0
        for first in Self.blocks {
            for second in Self.blocks where second.hasPrefix("###") || second.hasPrefix("  ###") {
                for prelude in Self.above {
                    let joint = first.hasSuffix("\n") || first.hasSuffix("\r\n") ? "" : "\n"
                    let text = first + joint + prelude + second
                    let (plain, general, _) = Self.bothWays(text)
                    #expect(plain == general, "\(text.debugDescription)")
                    compared += 1
                }
            }
        }
        #expect(compared > 1000)
    }

    @Test("Plain blocks are taken by the byte reader; a block with anything more is left to the general one")
    func plainBlocksAreTakenAndOthersLeft() {
        // Given a file of plain GETs with names, versions, CRLF and blank lines
        let plain = "### r0\nGET http://x/0\n\n### r1\r\nPOST https://x/1 HTTP/1.1\r\n\r\n### \nHEAD http://x/2\n"
        // When it is read
        let (file, _, taken) = Self.bothWays(plain)
        // Then every block is the byte reader's, with the names and versions the general reader gives
        #expect(taken == 3)
        #expect(file.requests.map(\.name) == ["r0", "r1", nil])
        #expect(file.requests.map(\.method) == [.get, .post, .head])
        #expect(file.requests.map(\.httpVersion) == [nil, "HTTP/1.1", nil])
        #expect(file.requests.map(\.sourceText) == ["### r0\nGET http://x/0\n\n", "### r1\r\nPOST https://x/1 HTTP/1.1\r\n\r\n",
                                                   "### \nHEAD http://x/2\n"])
        // And a header, a variable, a comment or a non-ASCII byte sends a block to the general reader
        for other in ["### r\nGET http://x/1\nAccept: */*\n", "### r\nGET {{base}}/1\n",
                      "### r\n# @name n\nGET http://x/1\n", "### é\nGET http://x/1\n"] {
            #expect(Self.bothWays(other).taken == 0, "\(other.debugDescription)")
        }
    }

    @Test("A `# @name` above the separator names a plain request, as it names any other")
    func nameAboveTheSeparatorNamesAPlainRequest() {
        let file = HTTPFile(path: "n.http", text: "GET http://x/0\n\n# @name login\n###\nPOST http://x/1\n")
        #expect(file.requests.map(\.name) == [nil, "login"])
    }
}
