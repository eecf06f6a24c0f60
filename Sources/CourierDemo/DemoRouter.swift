import Foundation

/// The request being answered, with what the route matched and the server's shared state.
struct DemoContext {
    let request: DemoRequest
    let core: DemoServerCore
    let connection: Int
    /// Values of `{name}` segments of the matched route pattern.
    var parameters: [String: String] = [:]

    /// A whole-number query parameter, clamped to `range`; the default when absent or not a number.
    func integer(_ name: String, default fallback: Int, in range: ClosedRange<Int>) -> Int {
        guard let text = request.queryValue(name), let value = Int(text) else { return fallback }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// A decimal query parameter, clamped to `range`; the default when absent or not a number.
    func decimal(_ name: String, default fallback: Double, in range: ClosedRange<Double>) -> Double {
        guard let text = request.queryValue(name), let value = Double(text), value.isFinite else { return fallback }
        return min(max(value, range.lowerBound), range.upperBound)
    }
}

/// One endpoint: the methods it answers, a path pattern with `{name}` segments, and its handler.
struct DemoRoute: Sendable {
    let methods: [String]
    let pattern: String
    let summary: String
    let handler: @Sendable (DemoContext) -> DemoResponse

    /// Methods matching any request method.
    static let anyMethod = "*"

    init(_ methods: [String], _ pattern: String, _ summary: String,
         _ handler: @escaping @Sendable (DemoContext) -> DemoResponse) {
        self.methods = methods
        self.pattern = pattern
        self.summary = summary
        self.handler = handler
    }

    /// The `{name}` values when `path` matches the pattern, nil otherwise.
    func match(_ path: String) -> [String: String]? {
        let patternParts = pattern.split(separator: "/", omittingEmptySubsequences: false)
        let pathParts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard patternParts.count == pathParts.count else { return nil }
        var values: [String: String] = [:]
        for (expected, actual) in zip(patternParts, pathParts) {
            if expected.hasPrefix("{") && expected.hasSuffix("}") {
                guard !actual.isEmpty else { return nil }
                values[String(expected.dropFirst().dropLast())] = String(actual)
            } else if expected != actual {
                return nil
            }
        }
        return values
    }

    /// Whether the route answers `method` (HEAD is answered wherever GET is).
    func allows(_ method: String) -> Bool {
        methods.contains(Self.anyMethod) || methods.contains(method) || (method == "HEAD" && methods.contains("GET"))
    }
}

/// Finds the route for a request: 404 for an unknown path, 405 with `Allow` for a known path asked
/// with the wrong method.
enum DemoRouter {
    /// Every endpoint, in the order the index lists them.
    static let routes: [DemoRoute] = [
        DemoRoute(["GET"], "/", "This index of endpoints", index),
    ] + DemoUserRoutes.routes + DemoAuthRoutes.routes + DemoOAuthRoutes.routes + DemoBasicRoutes.routes + DemoCacheRoutes.routes
        + DemoStreamRoutes.routes + DemoChaosRoutes.routes + DemoSessionRoutes.routes

    /// The WebSocket endpoints, served by `DemoWebSocketRoutes`, listed in the index.
    static let webSocketEndpoints: [(path: String, summary: String)] = [
        ("/ws/echo", "WebSocket: echoes every message"),
        ("/ws/ticker", "WebSocket: sends a tick every interval"),
        ("/ws/chaos", "WebSocket: misbehaving peer for fault tests"),
    ]

    /// Answers a request with the matching route's response.
    static func route(_ context: DemoContext) -> DemoResponse {
        let request = context.request
        let candidates = routes.compactMap { route in route.match(request.path).map { (route, $0) } }
        guard !candidates.isEmpty else {
            return .error(404, "no endpoint at \(request.path)", extra: ["hint": "GET / lists the endpoints"])
        }
        guard let (route, parameters) = candidates.first(where: { $0.0.allows(request.method) }) else {
            let allowed = Set(candidates.flatMap(\.0.methods) + (candidates.contains { $0.0.allows("HEAD") } ? ["HEAD"] : []))
            return .error(405, "\(request.method) is not allowed on \(request.path)",
                          headers: [("Allow", allowed.sorted().joined(separator: ", "))])
        }
        var matched = context
        matched.parameters = parameters
        return route.handler(matched)
    }

    private static func index(_ context: DemoContext) -> DemoResponse {
        let endpoints = routes.map { route -> [String: Any] in
            ["methods": route.methods == [DemoRoute.anyMethod] ? ["ANY"] : route.methods,
             "path": route.pattern, "summary": route.summary]
        } + webSocketEndpoints.map { ["methods": ["GET"], "path": $0.path, "summary": $0.summary] }
        return .json(200, ["name": "Courier demo API", "base_url": "http://\(context.request.header("Host") ?? "")",
                           "endpoints": endpoints])
    }
}
