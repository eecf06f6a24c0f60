import CourierMessage
import CourierTestSupport
import CourierHTTP
import Foundation
import Testing
@testable import CourierCollections

@Suite("Lossless round trips and edits")
struct RoundTripTests {
    @Test func everyCorpusFileSurvivesReplacingEachRequestWithItselfByteForByte() throws {
        for url in try Fixtures.roundTripFiles() {
            // Given a file from the corpus
            let original = try Data(contentsOf: url)
            let file = HTTPFile(path: url.lastPathComponent, text: String(decoding: original, as: UTF8.self))
            // Then its text is kept exactly, and rewriting any unchanged request changes nothing
            #expect(Data(file.text.utf8) == original, "\(url.lastPathComponent)")
            #expect(Data(SourceLines.join(file.lines).utf8) == original, "\(url.lastPathComponent)")
            for request in file.requests {
                let rewritten = try file.replacing(request: request, with: request)
                #expect(Data(rewritten.utf8) == original, "\(url.lastPathComponent) \(request.id)")
            }
        }
    }

    @Test func corpusFilesSurviveALoadSaveCycleOnDisk() throws {
        let folder = try TemporaryFolder()
        for url in try Fixtures.roundTripFiles() {
            let original = try Data(contentsOf: url)
            let copy = folder.url.appendingPathComponent(url.lastPathComponent)
            try original.write(to: copy)
            let loaded = try CollectionLoader.loadFile(copy, displayPath: url.lastPathComponent)
            try CollectionWriter.save(loaded.file.text, over: loaded)
            #expect(try Data(contentsOf: copy) == original, "\(url.lastPathComponent)")
        }
    }

    @Test func editingOneRequestChangesOnlyItsLinesInEveryCorpusFile() throws {
        for url in try Fixtures.roundTripFiles() {
            let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            let file = HTTPFile(path: url.lastPathComponent, text: text)
            for (position, request) in file.requests.enumerated() {
                // When the URL of one request is edited
                var edited = request
                edited.url = request.url + "/edited"
                let result = HTTPFile(path: file.path, text: try file.replacing(request: request, with: edited))
                // Then that request has the new URL, and every other request's text is unchanged
                #expect(result.requests.count == file.requests.count, "\(url.lastPathComponent)")
                guard result.requests.count == file.requests.count else { continue }
                #expect(result.requests[position].url == edited.url)
                for other in file.requests.indices where other != position {
                    #expect(result.requests[other].sourceText == file.requests[other].sourceText)
                }
                // And the lines before the request are byte-identical
                let prefix = SourceLines.join(file.lines[..<file.layouts[position].block.lowerBound])
                #expect(result.text.hasPrefix(prefix))
            }
        }
    }

    @Test func editingAHeaderKeepsCommentsInsideTheRequestAndCRLFEndings() throws {
        // Given a CRLF file
        let file = HTTPFile(path: "crlf.http", text: try Fixtures.text("roundtrip/crlf.http"))
        var edited = try #require(file.named("second"))
        // When a header is added
        edited.headers.add("X-New", "1")
        let text = try file.replacing(request: try #require(file.named("second")), with: edited)
        // Then the new header line uses CRLF and the first request is untouched
        #expect(text == "### First\r\nGET https://example.com/a\r\nAccept: */*\r\n\r\n### Second\r\n# @name second\r\n"
                + "POST https://example.com/b\r\nContent-Type: text/plain\r\nX-New: 1\r\n\r\nhello\r\nworld\r\n")
    }

    @Test func editingTheLastRequestOfAFileWithoutFinalNewlineKeepsItWithout() throws {
        let file = HTTPFile(path: "n.http", text: try Fixtures.text("roundtrip/no-final-newline.http"))
        var edited = file.requests[1]
        edited.body = .text("{\"x\": 1}")
        edited.headers.add("Content-Type", "application/json")
        let text = try file.replacing(request: file.requests[1], with: edited)
        #expect(text == "GET https://example.com/x\nX-Trace: 1\n\n###\nDELETE https://example.com/y\n"
                + "Content-Type: application/json\n\n{\"x\": 1}")
    }

    @Test func editingTheBodyKeepsResponseHandlersAfterIt() throws {
        let file = HTTPFile(path: "s.http", text: try Fixtures.text("roundtrip/scripts.http"))
        var edited = file.requests[1]
        edited.body = .text("payload")
        let result = HTTPFile(path: "s.http", text: try file.replacing(request: file.requests[1], with: edited))
        #expect(result.requests[1].body == .text("payload"))
        #expect(result.requests[1].unsupported == file.requests[1].unsupported)
    }

    @Test func editingVariablesAndTagsRewritesOnlyThoseLines() throws {
        let file = HTTPFile(path: "v.http", text: try Fixtures.text("roundtrip/variables-only.http"))
        var edited = file.requests[0]
        edited.variables = [VariableDefinition(name: "path", value: "other")]
        edited.tags = ["timeout": "3"]
        let result = HTTPFile(path: "v.http", text: try file.replacing(request: file.requests[0], with: edited))
        #expect(result.requests[0].variables == edited.variables)
        #expect(result.requests[0].tags == ["timeout": "3"])
        #expect(result.requests[0].name == "withLocal")
        #expect(result.text.hasPrefix("@host = example.com\n\n###\n@token = abc\n\n###\n# @name withLocal\n# @timeout 3\n"))
    }

    @Test func editingWebSocketMessagesRendersSeparatorsAndSubscriptions() throws {
        let file = HTTPFile(path: "w.http", text: try Fixtures.text("roundtrip/websocket.http"))
        var edited = file.requests[0]
        edited.messages.append(WebSocketMessage(text: "{\"op\":\"bye\"}", subscribe: true))
        let result = HTTPFile(path: "w.http", text: try file.replacing(request: file.requests[0], with: edited))
        #expect(result.requests[0].messages == edited.messages)
    }

    @Test func renamingUpdatesTheNameWhereItWasWritten() throws {
        let file = HTTPFile(path: "b.http", text: try Fixtures.text("roundtrip/basic.http"))
        // A name from `# @name` is changed there; a name from the separator is changed on the separator
        let renamed = HTTPFile(path: "b.http", text: try file.renaming(try #require(file.named("createUser")), to: "newUser"))
        #expect(renamed.requests.map(\.name) == ["List users", "newUser", nil])
        #expect(renamed.text.contains("# @name newUser\n"))
        let again = HTTPFile(path: "b.http", text: try renamed.renaming(renamed.requests[0], to: "All users"))
        #expect(again.text.contains("### All users\nGET"))
        // An unnamed request gets a `# @name` line
        let third = HTTPFile(path: "b.http", text: try again.renaming(again.requests[2], to: "third"))
        #expect(third.requests.map(\.name) == ["All users", "newUser", "third"])
    }

    @Test func newDuplicateAndDeleteTouchOnlyTheirBlocks() throws {
        let original = try Fixtures.text("roundtrip/basic.http")
        let file = HTTPFile(path: "b.http", text: original)
        // When a new request is appended
        let added = HTTPFile(path: "b.http", text: file.appending(RequestTemplate(
            id: RequestTemplateID(file: "b.http", ordinal: 0), name: "ping", method: .head, url: "{{base}}/ping",
            headers: HTTPHeaders([("Accept", "*/*")]))))
        #expect(added.text.hasPrefix(original))
        #expect(added.requests.last?.name == "ping")
        #expect(added.requests.last?.method == .head)
        // When one is duplicated
        let copyName = added.copyName(for: added.requests[1])
        #expect(copyName == "createUser-copy")
        let duplicated = HTTPFile(path: "b.http", text: try added.duplicating(added.requests[1], as: copyName))
        #expect(duplicated.requests.map(\.name) == ["List users", "createUser", "createUser-copy", nil, "ping"])
        // The copy's name is one word, and the blank line before the next `###` stays
        #expect(duplicated.text.contains("# @name createUser-copy\n"))
        #expect(duplicated.text.contains("}\n\n###\nhttps://example.com/no-method"), "\(duplicated.text)")
        #expect(duplicated.copyName(for: duplicated.requests[1]) == "createUser-copy-2")
        #expect(duplicated.requests[2].body == added.requests[1].body)
        // When one is deleted
        let deleted = HTTPFile(path: "b.http", text: try duplicated.deleting(duplicated.requests[2]))
        #expect(deleted.text == added.text, "\(deleted.text)")
    }

    @Test func deletingTheFirstRequestKeepsFileVariables() throws {
        let file = HTTPFile(path: "a.http", text: "@base = https://x\n# @name first\nGET {{base}}/1\n\n###\nGET {{base}}/2\n")
        let result = HTTPFile(path: "a.http", text: try file.deleting(file.requests[0]))
        #expect(result.text == "@base = https://x\n###\nGET {{base}}/2\n")
        #expect(result.fileVariables.map(\.name) == ["base"])
    }

    @Test func editingARequestThatIsNoLongerThereIsATypedError() {
        let file = HTTPFile(path: "a.http", text: "GET https://x\n")
        let stranger = RequestTemplate(id: RequestTemplateID(file: "other.http", ordinal: 1), url: "https://y")
        #expect(throws: CollectionError.requestNotFound(id: "other.http#1")) {
            try file.replacing(request: stranger, with: stranger)
        }
    }
}
