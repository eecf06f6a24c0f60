import CourierHTTP
import Foundation

/// `/etag`, `/last-modified` and `/cache/*`: resources whose headers exercise an HTTP cache
/// (validators, max-age, Vary, no-store, no-cache, heuristic freshness).
enum DemoCacheRoutes {
    static let routes: [DemoRoute] = [
        DemoRoute(["GET"], "/etag", "ETag + max-age (?max_age=, default 60); 304 on If-None-Match", etag),
        DemoRoute(["GET"], "/last-modified", "Last-Modified + max-age; 304 on If-Modified-Since", lastModified),
        DemoRoute(["GET"], "/cache/changing", "Content and ETag change every ?every= seconds (default 5)", changing),
        DemoRoute(["GET"], "/cache/vary", "Vary: Accept-Language, body in that language", vary),
        DemoRoute(["GET"], "/cache/no-store", "Cache-Control: no-store", noStore),
        DemoRoute(["GET"], "/cache/no-cache", "Cache-Control: no-cache with an ETag (always revalidate)", noCache),
        DemoRoute(["GET"], "/cache/heuristic", "Last-Modified only, for heuristic freshness", heuristic),
    ]

    /// Greetings by language tag for `/cache/vary`; the first is the default.
    static let greetings: [(language: String, text: String)] = [
        ("en", "Hello"), ("fr", "Bonjour"), ("de", "Hallo"), ("es", "Hola"), ("ja", "こんにちは"),
    ]
    /// How old `/cache/heuristic` claims to be: ten days, so 10 % of it is a day of heuristic freshness.
    static let heuristicAge: TimeInterval = 10 * 86_400

    private static func maxAge(_ context: DemoContext, default fallback: Int) -> (name: String, value: String) {
        ("Cache-Control", "max-age=\(context.integer("max_age", default: fallback, in: 0...31_536_000))")
    }

    private static func etag(_ context: DemoContext) -> DemoResponse {
        let body: [String: Any] = ["resource": "etag", "version": 1,
                                   "message": "This representation never changes; revalidate with If-None-Match."]
        let tag = "\"etag-v1\""
        return validated(context, status: 200, body: body, headers: [("ETag", tag), maxAge(context, default: 60)],
                         etag: tag, lastModified: nil)
    }

    private static func lastModified(_ context: DemoContext) -> DemoResponse {
        let modified = context.core.startedAt
        let body: [String: Any] = ["resource": "last-modified", "modified": HTTPDate.format(modified),
                                   "message": "Revalidate with If-Modified-Since."]
        return validated(context, status: 200, body: body,
                         headers: [("Last-Modified", HTTPDate.format(modified)), maxAge(context, default: 60)],
                         etag: nil, lastModified: modified)
    }

    private static func changing(_ context: DemoContext) -> DemoResponse {
        let every = context.integer("every", default: 5, in: 1...86_400)
        let now = Date().timeIntervalSince1970
        let version = Int(now) / every
        let since = Date(timeIntervalSince1970: TimeInterval(version * every))
        let tag = "\"changing-\(every)-\(version)\""
        let body: [String: Any] = ["resource": "changing", "every": every, "version": version,
                                   "since": HTTPDate.format(since),
                                   "next_change_in": TimeInterval((version + 1) * every) - now.rounded(.down)]
        return validated(context, status: 200, body: body,
                         headers: [("ETag", tag), ("Last-Modified", HTTPDate.format(since)),
                                   maxAge(context, default: every)],
                         etag: tag, lastModified: since)
    }

    private static func vary(_ context: DemoContext) -> DemoResponse {
        let greeting = preferredGreeting(context.request.header("Accept-Language") ?? "")
        let tag = "\"vary-\(greeting.language)\""
        return validated(context, status: 200, body: ["language": greeting.language, "greeting": greeting.text],
                         headers: [("Vary", "Accept-Language"), ("Content-Language", greeting.language),
                                   ("ETag", tag), maxAge(context, default: 60)],
                         etag: tag, lastModified: nil)
    }

    private static func noStore(_ context: DemoContext) -> DemoResponse {
        let served = context.core.increment("cache/no-store")
        return .json(200, ["resource": "no-store", "served": served, "message": "Never store this response."],
                     headers: [("Cache-Control", "no-store")])
    }

    private static func noCache(_ context: DemoContext) -> DemoResponse {
        let served = context.core.increment("cache/no-cache")
        let tag = "\"no-cache-v1\""
        return validated(context, status: 200, body: ["resource": "no-cache", "served": served],
                         headers: [("Cache-Control", "no-cache"), ("ETag", tag)], etag: tag, lastModified: nil)
    }

    private static func heuristic(_ context: DemoContext) -> DemoResponse {
        let modified = context.core.startedAt.addingTimeInterval(-heuristicAge)
        return validated(context, status: 200,
                         body: ["resource": "heuristic", "modified": HTTPDate.format(modified)],
                         headers: [("Last-Modified", HTTPDate.format(modified))], etag: nil, lastModified: modified)
    }

    /// 304 with the same validators and caching headers when the request's conditions match,
    /// the full JSON body otherwise (RFC 9110 section 13.2.2: If-None-Match wins over If-Modified-Since).
    private static func validated(_ context: DemoContext, status: Int, body: [String: Any],
                                  headers: [(name: String, value: String)], etag: String?, lastModified: Date?)
        -> DemoResponse {
        let request = context.request
        let notModified: Bool
        if let condition = request.header("If-None-Match") {
            notModified = etag.map { matches(condition, $0) } ?? false
        } else if let condition = request.header("If-Modified-Since"), let since = HTTPDate.parse(condition),
                  let lastModified {
            notModified = lastModified <= since
        } else {
            notModified = false
        }
        if notModified { return DemoResponse(status: 304, headers: headers) }
        return .json(status, body, headers: headers)
    }

    /// Weak comparison of an If-None-Match list against an entity tag.
    static func matches(_ condition: String, _ tag: String) -> Bool {
        let strip = { (value: String) in value.hasPrefix("W/") ? String(value.dropFirst(2)) : value }
        return condition.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .contains { $0 == "*" || strip($0) == strip(tag) }
    }

    /// The first supported language in the Accept-Language list, skipping those with q=0.
    static func preferredGreeting(_ acceptLanguage: String) -> (language: String, text: String) {
        let ranges = acceptLanguage.split(separator: ",").compactMap { item -> (String, Double)? in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let tag = parts.first, !tag.isEmpty else { return nil }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return (tag, quality)
        }.filter { $0.1 > 0 }.enumerated().sorted { ($0.element.1, -$0.offset) > ($1.element.1, -$1.offset) }
        for (_, range) in ranges {
            let primary = range.0.split(separator: "-").first.map(String.init) ?? range.0
            if let greeting = greetings.first(where: { $0.language == primary }) { return greeting }
        }
        return greetings[0]
    }
}
