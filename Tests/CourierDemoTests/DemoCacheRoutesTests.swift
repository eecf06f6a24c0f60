import CourierHTTP
import Foundation
import Testing
@testable import CourierDemo

@Suite("Demo API: cache resources")
struct DemoCacheRoutesTests {
    @Test func etagGivesMaxAgeAnd304OnAMatchingIfNoneMatch() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let first = try client.fetch("GET", "/etag?max_age=30")
        #expect(first.status == 200)
        #expect(first.header("Cache-Control") == "max-age=30")
        let tag = try #require(first.header("ETag"))
        let second = try client.fetch("GET", "/etag?max_age=30", headers: ["If-None-Match: W/\"x\", \(tag)"])
        #expect(second.status == 304)
        #expect(second.body.isEmpty)
        #expect(second.header("ETag") == tag)
        #expect(try client.fetch("GET", "/etag", headers: ["If-None-Match: \"other\""]).status == 200)
    }

    @Test func lastModifiedGives304WhenNotModifiedSince() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let first = try client.fetch("GET", "/last-modified")
        let modified = try #require(first.header("Last-Modified"))
        #expect(first.header("Cache-Control") == "max-age=60")
        #expect(try client.fetch("GET", "/last-modified", headers: ["If-Modified-Since: \(modified)"]).status == 304)
        #expect(try client.fetch("GET", "/last-modified",
                                 headers: ["If-Modified-Since: Sat, 01 Jan 2000 00:00:00 GMT"]).status == 200)
        #expect(try client.fetch("GET", "/last-modified", headers: ["If-Modified-Since: garbage"]).status == 200)
    }

    @Test func changingResourceHasAVersionedETagThatStillValidates() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let first = try client.fetch("GET", "/cache/changing?every=3600")
        let tag = try #require(first.header("ETag"))
        #expect(first.header("Cache-Control") == "max-age=3600")
        #expect(first.json["every"] as? Int == 3600)
        #expect(try client.fetch("GET", "/cache/changing?every=3600", headers: ["If-None-Match: \(tag)"]).status == 304)
    }

    @Test func changingResourceChangesAfterItsPeriod() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let tag = try #require(try client.fetch("GET", "/cache/changing?every=1").header("ETag"))
        #expect(await eventually {
            (try? client.fetch("GET", "/cache/changing?every=1", headers: ["If-None-Match: \(tag)"]))?.status == 200
        })
    }

    @Test func varyAnswersInTheAskedLanguage() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let french = try client.fetch("GET", "/cache/vary", headers: ["Accept-Language: fr-CH, fr;q=0.9, en;q=0.8"])
        #expect(french.header("Vary") == "Accept-Language")
        #expect(french.json["greeting"] as? String == "Bonjour")
        #expect(french.header("Content-Language") == "fr")
        let weighted = try client.fetch("GET", "/cache/vary", headers: ["Accept-Language: en;q=0.5, de"])
        #expect(weighted.json["greeting"] as? String == "Hallo")
        #expect(try client.fetch("GET", "/cache/vary").json["language"] as? String == "en")
    }

    @Test func noStoreNoCacheAndHeuristicSendTheirHeaders() throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let client = try RawHTTPClient(port: server.port)
        let noStore = try client.fetch("GET", "/cache/no-store")
        #expect(noStore.header("Cache-Control") == "no-store")
        #expect(try client.fetch("GET", "/cache/no-store").json["served"] as? Int == 2)
        let noCache = try client.fetch("GET", "/cache/no-cache")
        #expect(noCache.header("Cache-Control") == "no-cache")
        let tag = try #require(noCache.header("ETag"))
        #expect(try client.fetch("GET", "/cache/no-cache", headers: ["If-None-Match: \(tag)"]).status == 304)
        let heuristic = try client.fetch("GET", "/cache/heuristic")
        #expect(heuristic.header("Cache-Control") == nil)
        #expect(heuristic.header("ETag") == nil)
        let modified = try #require(heuristic.header("Last-Modified"))
        #expect(try client.fetch("GET", "/cache/heuristic", headers: ["If-Modified-Since: \(modified)"]).status == 304)
    }

    @Test func httpDatesRoundTripInEveryFormat() throws {
        let date = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.format(date) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == date)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == date)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == date)
        #expect(HTTPDate.parse("yesterday") == nil)
    }
}
