import CourierMessage
import CourierTestSupport
import CourierHTTP
import Foundation
import Testing

/// `courier cache` as a user runs it: the built binary on a cache folder filled through the store.
@Suite struct CacheCommandTests {
    /// A cache folder holding one fresh `/etag` entry and one stale `/users` entry.
    static func filledCache() throws -> (TemporaryFolder, URL) {
        let directory = try TemporaryFolder("cache-tests")
        let store = try HTTPCacheStore(directory: directory.url)
        let now = Date()
        for (path, headers) in [("/etag", ["Cache-Control": "max-age=600", "ETag": "\"e1\""] as HTTPHeaders),
                                ("/users", [:])] {
            let url = URL(string: "http://127.0.0.1:9/\(path.dropFirst())")!
            let response = HTTPResponse(status: 200, reason: "OK", headers: headers, body: .data(Data("body of \(path)".utf8)),
                                        url: url)
            try store.save(HTTPCacheEntry(method: .get, url: url, response: response, selectedRequestHeaders: [:],
                                          requestTime: now, responseTime: now), body: response.body)
        }
        return (directory, directory.url)
    }

    @Test func helpIsPrintedExactly() async throws {
        let result = try await CourierCLI.run(["cache", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("""
        OVERVIEW: List, show or clear the HTTP cache.

        USAGE: courier cache ls [--cache-dir DIR] [--json]
               courier cache show URL [--method METHOD] [--body] [--cache-dir DIR] [--json]
               courier cache clear [--cache-dir DIR]
        """))
        #expect(result.stdout.contains("\n  clear                   Remove every stored response.\n"))
    }

    @Test func lsListsEachEntryWithItsStateAndJSONHasAgeAndTTL() async throws {
        let (directory, folder) = try Self.filledCache()
        let table = try await CourierCLI.run(["cache", "ls", "--cache-dir", folder.path])
        #expect(table.status == 0)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "STATUS STATE  AGE      TTL      SIZE      REQUEST")
        #expect(lines.contains { $0.hasPrefix("200    fresh") && $0.hasSuffix("GET http://127.0.0.1:9/etag") })
        #expect(lines.contains { $0.hasPrefix("200    stale") && $0.hasSuffix("GET http://127.0.0.1:9/users") })
        #expect(lines.last?.hasPrefix("2 stored") == true)

        let json = try await CourierCLI.run(["cache", "ls", "--json", "--cache-dir", folder.path])
        let objects = try json.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let etag = try #require(objects.first { ($0["url"] as? String)?.hasSuffix("/etag") == true })
        #expect(etag["fresh"] as? Bool == true)
        #expect(etag["etag"] as? String == "\"e1\"")
        // The time to live counts down from max-age=600 as the entry ages: however long the two runs took
        // to get a turn on a loaded machine, the two add up to it.
        let ttl = try #require(etag["ttl_s"] as? Double), age = try #require(etag["age_s"] as? Double)
        #expect(ttl > 0 && abs(ttl + age - 600) < 2, "ttl \(ttl) + age \(age)")
        withExtendedLifetime(directory) {}
    }

    @Test func showPrintsTheStoredHeadFreshnessAndOptionallyTheBody() async throws {
        let (directory, folder) = try Self.filledCache()
        let result = try await CourierCLI.run(["cache", "show", "http://127.0.0.1:9/etag", "--body",
                                                   "--cache-dir", folder.path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("HTTP/1.1 200 OK\n"))
        #expect(result.stdout.contains("ETag: \"e1\"\n"))
        #expect(result.stdout.contains("State:      fresh\n"))
        #expect(result.stdout.contains("Validators: ETag \"e1\"\n"))
        #expect(result.stdout.hasSuffix("body of /etag"))
        let missing = try await CourierCLI.run(["cache", "show", "http://127.0.0.1:9/nothing", "--cache-dir", folder.path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nothing stored for GET http://127.0.0.1:9/nothing"))
        withExtendedLifetime(directory) {}
    }

    @Test func clearEmptiesTheFolderAndMistakesAreUsageErrors() async throws {
        let (directory, folder) = try Self.filledCache()
        let cleared = try await CourierCLI.run(["cache", "clear", "--cache-dir", folder.path])
        #expect(cleared.stdout == "Removed 2 stored responses from \(folder.path)\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        let empty = try await CourierCLI.run(["cache", "ls", "--cache-dir", folder.path])
        #expect(empty.stdout == "The cache in \(folder.path) is empty.\n")
        let wrong = try await CourierCLI.run(["cache", "purge", "--cache-dir", folder.path])
        #expect(wrong.status == 2)
        #expect(wrong.stderr == "Error: unknown subcommand 'purge'; use ls, show or clear\nHelp:  courier cache --help\n")
        withExtendedLifetime(directory) {}
    }
}
