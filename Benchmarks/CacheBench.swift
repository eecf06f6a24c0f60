import CourierDemo
import CourierHTTP
import Foundation

/// The HTTP cache's figures, each as a ratio against a reference measured in the same run: a fresh
/// hit and a 304 revalidation against a full fetch of the same resource from the loopback demo server.
func cacheBenchmark() async {
    do {
        let server = try DemoServer.start()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cache-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try HTTPCacheMiddleware(directory: directory)
        let transport = CurlTransport()
        let cached = HTTPClient(configuration: .init(transport: transport, cache: cache, retry: nil))
        let uncached = HTTPClient(configuration: .init(transport: transport, retry: nil))
        let rounds = 200
        func url(_ maxAge: Int) -> URL { URL(string: server.baseURL.absoluteString + "/etag?max_age=\(maxAge)")! }

        func time(_ body: () async throws -> Void) async rethrows -> Double {
            let clock = ContinuousClock()
            let start = clock.now
            for _ in 0..<rounds { try await body() }
            return (clock.now - start).milliseconds / Double(rounds)
        }
        _ = try await cached.send(HTTPRequest(url: url(3600)))
        _ = try await cached.send(HTTPRequest(url: url(0)))
        let full = try await time { _ = try await uncached.send(HTTPRequest(url: url(0))) }
        let fresh = try await time { _ = try await cached.send(HTTPRequest(url: url(3600))) }
        let revalidated = try await time { _ = try await cached.send(HTTPRequest(url: url(0))) }
        let line = { (name: String, ms: Double) in
            print("cache: \(name) \(String(format: "%.3f", ms)) ms/request, \(String(format: "%.2f", ms / full))× a full fetch")
        }
        print("cache: full fetch (reference) \(String(format: "%.3f", full)) ms/request over \(rounds) requests")
        line("fresh hit", fresh)
        line("304 revalidation", revalidated)
    } catch {
        print("cache: benchmark failed: \(error)")
    }
}
