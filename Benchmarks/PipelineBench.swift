import CourierDemo
import CourierHTTP
import Dispatch
import Foundation
import Synchronization

/// Sequential keep-alive GETs of a small body against the demo server: the full pipeline (logger,
/// auth, cache slot, retry, attempt events) against the bare CurlTransport, and both against one
/// `curl` process fetching the same URLs over one connection, in the same run.
enum PipelineBench {
    static let requests = 2000
    static let warmup = 100

    static func run() {
        let server: DemoServer
        do {
            server = try DemoServer.start()
        } catch {
            print("pipeline: cannot start the demo server: \(error)")
            return
        }
        defer { server.stop() }
        let url = server.baseURL.appendingPathComponent("users/1")

        let transport = CurlTransport()
        let client = fullPipeline(transport: transport, server: server)
        let quiet = fullPipeline(transport: transport, server: server, observed: false)
        // The variants take turns request by request, so a load spike on this shared machine slows
        // them alike and the ratios stay meaningful even when the absolute rates move.
        let variants: [@Sendable () async throws -> Void] = [
            { _ = try await transport.send(HTTPRequest(url: url), context: RequestContext()) },
            { _ = try await client.send(HTTPRequest(url: url)) },
            { _ = try await quiet.send(HTTPRequest(url: url)) },
        ]
        let rates = blocking { await interleaved(variants, count: requests) }
        let (bareRate, pipelineRate, unobserved) = (rates[0], rates[1], rates[2])
        let curl = (0..<2).compactMap { _ in curlProcess(url: url, count: requests / 2) }.max()
        print("pipeline: \(requests) sequential keep-alive GETs of \(url.path) per variant on 127.0.0.1, interleaved")
        print(String(format: "  bare CurlTransport      %8.0f req/s", bareRate))
        print(String(format: "  full pipeline           %8.0f req/s   %.3f× bare (cost %.1f%%)", pipelineRate,
                     pipelineRate / bareRate, (1 - pipelineRate / bareRate) * 100))
        print(String(format: "  pipeline, no observers  %8.0f req/s   %.3f× bare", unobserved, unobserved / bareRate))
        if let curl {
            print(String(format: "  curl, one process       %8.0f req/s   bare is %.2f× curl, pipeline %.2f× curl",
                         curl, bareRate / curl, pipelineRate / curl))
        } else {
            print("  curl, one process       (curl not found)")
        }
    }

    /// Every layer a real client has: logging to a discarding writer, an attempt recorder, auth
    /// with a token, a pass-through middleware in the cache slot, and the standard retry policy.
    static func fullPipeline(transport: CurlTransport, server: DemoServer, observed: Bool = true) -> HTTPClient {
        let lines = Atomic<Int>(0)
        let logger = RedactingLogger { _ in lines.add(1, ordering: .relaxed) }
        let recorder = AttemptRecorder(limit: 100)
        let store = TokenStore(credentials: Credentials(accessToken: "bench-token", refreshToken: "bench-refresh"))
        let auth = AuthMiddleware(store: store, refresher: .json(url: server.baseURL.appendingPathComponent("auth/refresh")),
                                  transport: transport)
        return HTTPClient(configuration: .init(transport: transport, auth: auth, cache: PassThrough(),
                                               events: observed ? logger.sink.merged(with: recorder.sink) : .none))
    }

    /// Requests per second of each variant over `count` calls each, taking turns, after a warm-up.
    static func interleaved(_ variants: [@Sendable () async throws -> Void], count: Int) async -> [Double] {
        var totals = Array(repeating: Duration.zero, count: variants.count)
        do {
            for _ in 0..<warmup { for variant in variants { try await variant() } }
            for _ in 0..<count {
                for (index, variant) in variants.enumerated() {
                    let start = ContinuousClock.now
                    try await variant()
                    totals[index] += ContinuousClock.now - start
                }
            }
        } catch {
            print("pipeline: request failed: \(error)")
            return variants.map { _ in 0 }
        }
        return totals.map { Double(count) / $0.seconds }
    }

    /// One curl process fetching the URL `count` times over its one reused connection.
    static func curlProcess(url: URL, count: Int) -> Double? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["-s"] + Array(repeating: url.absoluteString, count: count)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = ContinuousClock.now
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return Double(count) / (ContinuousClock.now - start).seconds
    }

    static func blocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let result = Mutex<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await work()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0 }!
    }

    /// Stands in the cache slot, so the fold has the same depth as with a cache.
    struct PassThrough: Middleware {
        func intercept(_ request: HTTPRequest, context: RequestContext,
                       next: Next) async throws(APIError) -> HTTPResponse {
            try await next(request, context)
        }
    }
}
