import CourierDemo
import CourierHTTP
import Foundation

/// The HTTP cache's figures as ratios against a full fetch of the same resource from the loopback
/// demo server, measured in the same run with the variants taking turns (PipelineBench.interleaved):
/// a fresh hit (a disk lookup, no request) and a 304 revalidation (lookup, conditional request,
/// entry rewrite). On loopback a full fetch is nearly free, so the 304's ratio is the cache's own
/// overhead; over a real network the 304 saves the body's transfer instead.
enum CacheBench {
    static let requests = 1000

    static func run() {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cache-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server: DemoServer
        let cache: HTTPCacheMiddleware
        do {
            server = try DemoServer.start()
            cache = try HTTPCacheMiddleware(directory: directory)
        } catch {
            print("cache: cannot start: \(error)")
            return
        }
        defer { server.stop() }
        let transport = CurlTransport()
        let cached = HTTPClient(configuration: .init(transport: transport, cache: cache, retry: nil))
        let uncached = HTTPClient(configuration: .init(transport: transport, retry: nil))
        let base = server.baseURL.absoluteString
        let fresh = URL(string: base + "/etag?max_age=3600")!
        let stale = URL(string: base + "/etag?max_age=0")!
        let variants: [@Sendable () async throws -> Void] = [
            { _ = try await uncached.send(HTTPRequest(url: stale)) },
            { _ = try await cached.send(HTTPRequest(url: fresh)) },
            { _ = try await cached.send(HTTPRequest(url: stale)) },
        ]
        let rates = PipelineBench.blocking { await PipelineBench.interleaved(variants, count: requests) }
        let decisions = PipelineBench.blocking {
            (try? await cached.send(HTTPRequest(url: fresh)).cache.decision.rawValue,
             try? await cached.send(HTTPRequest(url: stale)).cache.decision.rawValue)
        }
        print("cache: \(requests) sequential GETs of /etag per variant on 127.0.0.1, interleaved")
        print(String(format: "  full fetch, no cache    %8.0f req/s", rates[0]))
        print(String(format: "  fresh hit               %8.0f req/s   %.2f× a full fetch (decision: %@)", rates[1],
                     rates[1] / rates[0], decisions.0 ?? "?"))
        print(String(format: "  304 revalidation        %8.0f req/s   %.2f× a full fetch (decision: %@)", rates[2],
                     rates[2] / rates[0], decisions.1 ?? "?"))
    }
}
