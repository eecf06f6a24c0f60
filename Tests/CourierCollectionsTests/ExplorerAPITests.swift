import CourierTestSupport
import CourierHTTP
import Foundation
import Testing
@testable import CourierCollections

@Suite("The editing API the explorer uses")
struct ExplorerAPITests {
    @Test func editAndSaveRewritesOnlyTheEditedRequestOnDisk() throws {
        // Given a file on disk with comments and two requests
        let folder = try TemporaryFolder()
        let original = "# top comment\r\n@base = https://x\r\n\r\n### one\r\nGET {{base}}/1\r\n\r\n### two  \r\n// keep me\r\nGET {{base}}/2"
        let url = try folder.write("a.http", original)
        let loaded = try CollectionLoader.loadFile(url, displayPath: "a.http")
        // When the second request's URL is edited and saved
        var edited = loaded.file.requests[1]
        edited.url = "{{base}}/2?page=3"
        let saved = try loaded.saving(edited, replacing: loaded.file.requests[1])
        // Then only that request's URL line changed on disk
        #expect(try folder.read("a.http") == original.replacingOccurrences(of: "GET {{base}}/2", with: "GET {{base}}/2?page=3"))
        #expect(saved.file.requests[1].url == "{{base}}/2?page=3")
        #expect(saved.isUnchangedOnDisk)
        // And new, duplicate, rename and delete each save
        let added = try saved.adding(RequestTemplate(id: RequestTemplateID(file: "a.http", ordinal: 0), name: "three",
                                                     method: .post, url: "{{base}}/3"))
        let duplicated = try added.duplicating(added.file.requests[0], as: "one again")
        let renamed = try duplicated.renaming(duplicated.file.requests[0], to: "first")
        let deleted = try renamed.deleting(renamed.file.requests[1])
        #expect(deleted.file.requests.map(\.name) == ["first", "two", "three"])
        #expect(try CollectionLoader.loadFile(url, displayPath: "a.http").file.requests.map(\.name) == ["first", "two", "three"])
        #expect(try folder.read("a.http").hasPrefix("# top comment\r\n@base = https://x\r\n\r\n### first\r\n"))
    }

    @Test func savingAfterAnotherProgramEditedTheFileIsRefused() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write("a.http", "GET https://x/1\n")
        let loaded = try CollectionLoader.loadFile(url, displayPath: "a.http")
        try folder.write("a.http", "GET https://x/other\n")
        #expect(!loaded.isUnchangedOnDisk)
        #expect(throws: CollectionError.changedOnDisk(path: "a.http")) {
            try loaded.renaming(loaded.file.requests[0], to: "x")
        }
    }

    @Test func creatingAFileRefusesToReplaceOne() throws {
        let folder = try TemporaryFolder()
        let url = folder.url.appendingPathComponent("new.http")
        let created = try LoadedFile.create(at: url, displayPath: "new.http", text: "GET https://x\n")
        #expect(created.file.requests.count == 1)
        #expect(throws: CollectionError.self) { try LoadedFile.create(at: url, displayPath: "new.http") }
    }

    @Test func unresolvedVariablesAreListedForHighlighting() {
        let file = HTTPFile(path: "a.http", text: "@base = https://x\nGET {{base}}/{{id}}?t={{ $timestamp }}\nAuthorization: Bearer {{login.response.body.$.token}}\n")
        let resolver = Resolver(file: file, baseFolder: URL(fileURLWithPath: "/"), context: VariableContext(processEnvironment: [:]))
        let unresolved = resolver.unresolved(in: file.requests[0])
        #expect(unresolved.map(\.reference) == ["id", "login.response.body.$.token"])
        #expect(VariableReference.scan("a {{x}} b {{ y }}") == [VariableReference(expression: "x", range: 2..<7),
                                                               VariableReference(expression: "y", range: 10..<17)])
    }
}
