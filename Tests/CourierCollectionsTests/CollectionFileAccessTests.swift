import CourierHTTP
import CourierTestSupport
import Foundation
import Testing
@testable import CourierCollections

/// The one policy for what a collection may touch, asked directly: the decisions `courier run` and the
/// explorer act on (`CollectionReadAccessTests` and `CollectionWriteAccessTests` run them end to end).
@Suite("CollectionFileAccess")
struct CollectionFileAccessTests {
    @Test func readsStayInTheCollectionsTreeUnlessAllowedAndNeverReachProcSysOrDev() throws {
        let folder = try TemporaryFolder("policy-read")
        try folder.write("api/body.json", "{}")
        try folder.write("shared/fixture.json", "{}")
        try folder.write("elsewhere.txt", "x")
        let api = folder.url.appendingPathComponent("api")
        let fileOnly = CollectionFileAccess()
        let tree = CollectionFileAccess(root: folder.url)
        // Inside the file's folder: allowed, as the real path
        guard case .allowed(let body) = fileOnly.read("./body.json", from: api, streamed: true) else {
            Issue.record("body.json refused"); return
        }
        #expect(body.path.hasSuffix("/api/body.json"))
        // Beside it: asked about when only the file's folder counts, allowed under the collection's root
        guard case .needsConfirmation(let outside, _) = fileOnly.read("../shared/fixture.json", from: api, streamed: true)
        else { Issue.record("not asked"); return }
        #expect(outside.path.hasSuffix("/shared/fixture.json"))
        if case .allowed = tree.read("../shared/fixture.json", from: api, streamed: true) {} else {
            Issue.record("the collection's tree is refused")
        }
        // Allowed by the user, as a file or as a folder
        let byFile = CollectionFileAccess(allowedReads: [folder.url.appendingPathComponent("elsewhere.txt").path])
        let byFolder = CollectionFileAccess(allowedReads: [folder.url.path])
        for access in [byFile, byFolder] {
            if case .allowed = access.read("../elsewhere.txt", from: api, streamed: false) {} else {
                Issue.record("an allowed file is refused")
            }
        }
        // Never /proc, /sys or /dev, even when allowed, nor anything but a regular file
        let everything = CollectionFileAccess(allowedReads: ["/"])
        for path in ["/proc/self/environ", "/sys/kernel/hostname", "/dev/zero", "/dev/stdin"] {
            guard case .refused(let reason) = everything.read(path, from: api, streamed: true) else {
                Issue.record("\(path) is not refused"); continue
            }
            #expect(reason.contains("never reads files under"), "\(path): \(reason)")
        }
        guard case .refused(let notFile) = everything.read(folder.url.path, from: api, streamed: true) else {
            Issue.record("a folder is not refused"); return
        }
        #expect(notFile == "it is not a regular file (a folder, a device or a pipe)")
    }

    @Test func writesStayInTheFilesFolderOutOfHiddenPlacesAndLinks() throws {
        let folder = try TemporaryFolder("policy-write")
        let outside = try TemporaryFolder("policy-outside")
        try folder.write("sub/kept.txt", "x")
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("link").path,
                                                   withDestinationPath: outside.url.path)
        let access = CollectionFileAccess(allowsOverwrite: true)
        func reason(_ path: String) -> String? {
            if case .refused(let reason) = access.write(path, in: folder.url, replacing: true) { return reason }
            return nil
        }
        #expect(reason("../x.txt")?.hasPrefix("it is outside the folder of the .http file") == true)
        #expect(reason(outside.url.appendingPathComponent("x.txt").path)?.hasPrefix("it is outside") == true)
        #expect(reason("./sub/../../x.txt")?.hasPrefix("it is outside") == true)
        #expect(reason("./.git/config")?.hasPrefix("'.git' is hidden") == true)
        #expect(reason("./out/.profile")?.hasPrefix("'.profile' is hidden") == true)
        #expect(reason("./link/x.txt")?.hasPrefix("'link' is a symbolic link") == true)
        #expect(reason("./sub/kept.txt/x")?.hasPrefix("'sub/kept.txt' is not a folder") == true)
        // New files and folders, by a relative or an absolute path inside the folder, are allowed
        #expect(reason("./new/deep/x.json") == nil)
        #expect(reason(folder.url.appendingPathComponent("y.json").path) == nil)
    }

    @Test func bangReplacesWhatTheLedgerRecordsUntilSomeoneElseChangesIt() throws {
        let folder = try TemporaryFolder("policy-ledger")
        let state = try TemporaryFolder("policy-state")
        let ledger = RedirectLedger(file: state.url.appendingPathComponent("courier/redirects.json"))
        let access = CollectionFileAccess(ledger: ledger)
        let file = try folder.write("out.json", "theirs")
        // A file Courier did not write needs the user's word; `>>` (numbered names) does not
        guard case .needsConfirmation(let asked, _) = access.write("./out.json", in: folder.url, replacing: true) else {
            Issue.record("not asked"); return
        }
        #expect(asked.lastPathComponent == "out.json")
        if case .allowed = access.write("./out.json", in: folder.url, replacing: false) {} else { Issue.record(">> refused") }
        // Once a redirect wrote it, it may replace it; after another program's edit, not any more
        let redirect = try #require(ResponseRedirect(directive: UnsupportedDirective(text: ">>! ./out.json", line: 1)))
        var allowing = access
        allowing.allowedOverwrites = [asked.path]
        _ = try redirect.save(.data(Data("ours".utf8)), expandedPath: "./out.json", folder: folder.url, access: allowing)
        #expect(ledger.wrote(file.resolvingSymlinksInPath()))
        if case .allowed = access.write("./out.json", in: folder.url, replacing: true) {} else { Issue.record("refused") }
        try Data("edited".utf8).write(to: file)
        #expect(!ledger.wrote(file.resolvingSymlinksInPath()))
        if case .needsConfirmation = access.write("./out.json", in: folder.url, replacing: true) {} else {
            Issue.record("an edited file is replaced without asking")
        }
    }
}

extension CollectionFileAccessTests {
    @Test func aMultipartBodyEmbeddingFilesExportsAsTheBytesOrAsThePiecesTheShellReads() throws {
        // Given a multipart body whose part is a small file, and one whose part is past what memory holds
        let folder = try TemporaryFolder("export-parts")
        let small = try folder.write("small.txt", "file contents")
        let large = folder.url.appendingPathComponent("large.bin")
        _ = FileManager.default.createFile(atPath: large.path, contents: nil)
        #expect(truncate(large.path, off_t(CollectionFileAccess.inMemoryLimit + 1)) == 0)
        func command(_ file: URL) -> String {
            let body = RequestBody.parts([.data(Data("--B\r\n\r\n".utf8)), .file(file), .data(Data("\r\n--B--".utf8))])
            return CurlExporter.command(for: HTTPRequest(method: .post, url: URL(string: "https://x/up")!, body: body),
                                        secrets: [])
        }
        // Then the small one is sent as its bytes, the large one piece by piece through curl's standard input
        #expect(command(small).contains("--data-raw $'--B\\r\\n\\r\\nfile contents\\r\\n--B--'"), "\(command(small))")
        let piped = command(large)
        #expect(piped.hasPrefix("{ printf %s $'--B\\x0d\\x0a\\x0d\\x0a'; cat \(large.path); printf %s $'\\x0d\\x0a--B--'; } | curl"),
                "\(piped)")
        #expect(piped.contains("--data-binary @-"), "\(piped)")
    }
}
