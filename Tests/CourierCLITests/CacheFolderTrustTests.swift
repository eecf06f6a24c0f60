import CourierTestSupport
import CourierHTTP
import Foundation
import Testing

/// The cache folder as something that can be trusted: modes, files that were tampered with or cut
/// short, `clear` that removes only its own files, and many writers at once leaving no orphans.
@Suite("Cache folder trust")
struct CacheFolderTrustTests {
    static let url = URL(string: "http://127.0.0.1:9/data")!
    static let bodyText = String(repeating: "stored body. ", count: 20)

    /// A store whose bodies past 16 bytes live in files, holding one fresh entry for `url`.
    static func filled(_ directory: TemporaryFolder) throws -> (HTTPCacheStore, HTTPCacheEntry) {
        let store = try HTTPCacheStore(directory: directory.url, inlineLimit: 16)
        let response = HTTPResponse(status: 200, headers: ["Cache-Control": "max-age=600"],
                                    body: .data(Data(bodyText.utf8)), url: url)
        try store.save(HTTPCacheEntry(method: .get, url: url, response: response, selectedRequestHeaders: [:],
                                      requestTime: Date(), responseTime: Date()), body: response.body)
        guard case .hit(let entry) = store.lookup(method: .get, url: url) else { throw CocoaError(.fileNoSuchFile) }
        return (store, entry)
    }

    /// The folder's files but the store's housekeeping marker.
    static func names(_ directory: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
            .filter { $0 != HTTPCacheStore.housekeepingMarker }.sorted()
    }

    static func mode(_ url: URL) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test func theFolderIs0700AndEveryFileInIt0600() async throws {
        // Given the default folder left 0755 by an earlier version
        let directory = try TemporaryFolder("cache-tests")
        let folder = directory.url.appendingPathComponent("courier/http")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let store = try HTTPCacheStore(inlineLimit: 16, environment: ["XDG_CACHE_HOME": directory.url.path])
        #expect(store.directory.path == folder.path)
        let response = HTTPResponse(status: 200, headers: ["Cache-Control": "max-age=600"],
                                    body: .data(Data(Self.bodyText.utf8)), url: Self.url)
        try store.save(HTTPCacheEntry(method: .get, url: Self.url, response: response, selectedRequestHeaders: [:],
                                      requestTime: Date(), responseTime: Date()), body: response.body)
        #expect(try Self.mode(folder) == 0o700)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.filter { $0 != HTTPCacheStore.housekeepingMarker }.count == 2)
        for name in names { #expect(try Self.mode(folder.appendingPathComponent(name)) == 0o600, "\(name)") }
        // And a folder the cache creates where it is told is 0700 too, while one that existed keeps its mode
        let created = directory.url.appendingPathComponent("made/by/courier")
        _ = try HTTPCacheStore(directory: created)
        #expect(try Self.mode(created) == 0o700)
        let shared = directory.url.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        _ = try HTTPCacheStore(directory: shared)
        #expect(try Self.mode(shared) == 0o755)
    }

    @Test func aBodyReplacedByASymbolicLinkIsAMissAndTheEntryIsRemoved() async throws {
        let directory = try TemporaryFolder("cache-tests")
        let (store, entry) = try Self.filled(directory)
        let victim = directory.url.deletingLastPathComponent().appendingPathComponent("victim-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: victim) }
        try Data(String(repeating: "V", count: Self.bodyText.utf8.count).utf8).write(to: victim)
        let body = directory.url.appendingPathComponent(try #require(entry.bodyFile))
        try FileManager.default.removeItem(at: body)
        try FileManager.default.createSymbolicLink(at: body, withDestinationURL: victim)

        guard case .unreadable(let reason) = store.lookup(method: .get, url: Self.url) else {
            Issue.record("a linked body was served")
            return
        }
        #expect(reason.contains("symbolic link"))
        #expect(try Self.names(directory).isEmpty)
        #expect(FileManager.default.fileExists(atPath: victim.path))
    }

    @Test func aBodyFileNameOutsideTheFolderIsAMissAndNothingOutsideIsTouched() async throws {
        let directory = try TemporaryFolder("cache-tests")
        let (store, entry) = try Self.filled(directory)
        let outside = directory.url.deletingLastPathComponent().appendingPathComponent("victim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: outside) }
        let victim = outside.appendingPathComponent("out.txt")
        try Data(Self.bodyText.utf8).write(to: victim)
        // Given an entry whose bodyFile climbs out of the folder to a file of the right size and content
        let entryFile = try #require(try Self.names(directory).first { $0.hasSuffix(".entry") })
        var json = try #require(JSONSerialization.jsonObject(
            with: Data(contentsOf: directory.url.appendingPathComponent(entryFile))) as? [String: Any])
        json["bodyFile"] = "../\(outside.lastPathComponent)/out.txt"
        try JSONSerialization.data(withJSONObject: json).write(to: directory.url.appendingPathComponent(entryFile))
        _ = entry

        guard case .unreadable(let reason) = store.lookup(method: .get, url: Self.url) else {
            Issue.record("a body outside the folder was served")
            return
        }
        #expect(reason.contains("not one the cache writes"))
        #expect(store.remove(method: .get, url: Self.url) == false)
        #expect(try Data(contentsOf: victim) == Data(Self.bodyText.utf8))
    }

    @Test(arguments: ["truncated", "same length, other bytes"])
    func aDamagedBodyIsAMissNeverServedWithTheWrongContent(_ damage: String) async throws {
        let directory = try TemporaryFolder("cache-tests")
        let (store, entry) = try Self.filled(directory)
        let body = directory.url.appendingPathComponent(try #require(entry.bodyFile))
        let replacement = damage == "truncated" ? Data(Self.bodyText.utf8.prefix(10))
            : Data(Self.bodyText.uppercased().utf8)
        let handle = try FileHandle(forWritingTo: body)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: replacement)
        try handle.close()

        guard case .unreadable = store.lookup(method: .get, url: Self.url) else {
            Issue.record("a \(damage) body was served")
            return
        }
        #expect(try Self.names(directory).isEmpty)
    }

    @Test func clearRemovesOnlyTheFilesTheCacheWrote() async throws {
        let directory = try TemporaryFolder("cache-tests")
        let (store, _) = try Self.filled(directory)
        for name in ["notes.body", "results.entry", "keep.txt"] {
            try Data("mine".utf8).write(to: directory.url.appendingPathComponent(name))
        }
        #expect(try store.clear() == 1)
        #expect(try Self.names(directory) == ["keep.txt", "notes.body", "results.entry"])
        #expect(store.totalBytes == 0)
    }

    @Test func manyWritersAtOnceLeaveNoOrphanedBodiesOnceCollected() async throws {
        // Given 100 writers, each with a store of its own as separate processes have, on 5 URLs
        let directory = try TemporaryFolder("cache-tests")
        let folder = directory.url
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<100 {
                group.addTask {
                    let store = try HTTPCacheStore(directory: folder, inlineLimit: 16)
                    let url = URL(string: "http://127.0.0.1:9/item/\(writer % 5)")!
                    let response = HTTPResponse(status: 200, headers: ["Cache-Control": "max-age=600"],
                                                body: .data(Data("writer \(writer) ".utf8) + Data(Self.bodyText.utf8)),
                                                url: url)
                    try store.save(HTTPCacheEntry(method: .get, url: url, response: response, selectedRequestHeaders: [:],
                                                  requestTime: Date(), responseTime: Date()), body: response.body)
                }
            }
            try await group.waitForAll()
        }
        // When the folder is opened once the writers are done and its leftovers collected (grace period over)
        let store = try HTTPCacheStore(directory: folder, inlineLimit: 16, orphanGrace: 0)
        store.collectLeftovers()
        // Then every body left is named by an entry, and every entry serves its own body
        let names = try Self.names(directory)
        #expect(names.filter { $0.hasSuffix(".entry") }.count == 5)
        #expect(names.filter { $0.hasSuffix(".body") }.count == 5)
        #expect(!names.contains { $0.hasPrefix(".tmp-") })
        for item in 0..<5 {
            guard case .hit(let entry) = store.lookup(method: .get, url: URL(string: "http://127.0.0.1:9/item/\(item)")!)
            else { Issue.record("item \(item) is missing"); continue }
            let text = String(decoding: try store.body(of: entry).readAll(), as: UTF8.self)
            #expect(text.hasPrefix("writer ") && text.hasSuffix(Self.bodyText))
        }
    }

    @Test func a100ParallelSendsIntoOneFolderLeaveEveryBodyNamedByAnEntry() async throws {
        // Given a server whose five URLs answer with bodies too large to live inside an entry
        let server = try LoopbackServer { request in
            LoopbackServer.Reply(headers: [("Cache-Control", "max-age=600")],
                                 body: Data(String(repeating: request.path, count: 20_000).utf8))
        }
        defer { server.stop() }
        let directory = try TemporaryFolder("cache-tests")
        // When 100 `courier send --cache-dir` processes write into the folder at once
        let failures = try await withThrowingTaskGroup(of: String?.self) { group in
            for writer in 0..<100 {
                group.addTask {
                    let result = try await CourierCLI.run(["send", server.url("/item\(writer % 5)").absoluteString,
                                                               "--cache-dir", directory.url.path])
                    return result.status == 0 ? nil : result.stderr + result.stdout
                }
            }
            return try await group.reduce(into: [String]()) { if let failure = $1 { $0.append(failure) } }
        }
        #expect(failures.isEmpty, "\(failures.count) failed; first: \(failures.first ?? "")")
        // Then, once leftovers are collected, five entries each name their own body and nothing else is left
        let store = try HTTPCacheStore(directory: directory.url, orphanGrace: 0)
        store.collectLeftovers()
        let names = try Self.names(directory)
        #expect(names.filter { $0.hasSuffix(".entry") }.count == 5)
        #expect(names.filter { $0.hasSuffix(".body") }.count == 5)
        #expect(store.summaries().count == 5)
        #expect(store.totalBytes < 5 * 140_000)
    }

    @Test func aSendCollectsLeftoversOnlyWhenAnHourHasPassedSinceTheLast() async throws {
        // Given a cache folder whose leftovers were collected a moment ago, and a body left behind since
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply(headers: [("Cache-Control", "max-age=600")], body: Data("fresh".utf8))
        }
        defer { server.stop() }
        let directory = try TemporaryFolder("cache-tests")
        _ = try HTTPCacheStore(directory: directory.url)
        let orphan = directory.url.appendingPathComponent(String(repeating: "ef", count: 16) + ".0badf00d.body")
        try Data("left behind".utf8).write(to: orphan)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-600)], ofItemAtPath: orphan.path)
        // When `courier send` stores a response there, then the folder is not collected again
        let first = try await CourierCLI.run(["send", server.url("/a").absoluteString, "--cache-dir", directory.url.path])
        #expect(first.status == 0)
        #expect(FileManager.default.fileExists(atPath: orphan.path))
        // And once the last collection is over an hour old, the next send collects it
        let marker = directory.url.appendingPathComponent(HTTPCacheStore.housekeepingMarker)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-2 * 3600)], ofItemAtPath: marker.path)
        let second = try await CourierCLI.run(["send", server.url("/b").absoluteString, "--cache-dir", directory.url.path])
        #expect(second.status == 0)
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
    }
}
