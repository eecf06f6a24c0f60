import CourierHTTP
import Foundation

/// `/echo`, `/status/{code}`, `/flaky`, `/rate-limited` and `/slow`: the endpoints that exercise a
/// client's plumbing (request building, status handling, retries, timeouts).
enum DemoBasicRoutes {
    static let routes: [DemoRoute] = [
        DemoRoute([DemoRoute.anyMethod], "/echo", "The request as JSON: method, path, query, headers, body", echo),
        DemoRoute([DemoRoute.anyMethod], "/status/{code}", "Answers with that status code", status),
        DemoRoute([DemoRoute.anyMethod], "/flaky", "503 + Retry-After: 1 on two of every three calls (?key=)", flaky),
        DemoRoute([DemoRoute.anyMethod], "/rate-limited", "Always 429 + Retry-After (?retry_after=N|none, ?retry_after_date=N)", rateLimited),
        DemoRoute([DemoRoute.anyMethod], "/slow", "Answers after ?ms= milliseconds (default 2000)", slow),
    ]

    /// Statuses `/status/{code}` redirects with, pointing at `/echo`.
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]
    /// Longest `/slow` wait: ten minutes, enough for any timeout test.
    static let slowLimitMilliseconds = 600_000

    private static func echo(_ context: DemoContext) -> DemoResponse {
        let request = context.request
        var headers: [String: String] = [:]
        for field in request.headers {
            let name = field.name.lowercased()
            headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
        }
        var query: [String: String] = [:]
        for item in request.query where query[item.name] == nil { query[item.name] = item.value }
        var object: [String: Any] = [
            "method": request.method, "path": request.path, "target": request.target, "version": request.version,
            "query": query, "query_items": request.query.map { [$0.name, $0.value] },
            "headers": headers, "header_list": request.headers.map { [$0.name, $0.value] },
            "body_length": request.body.count, "connection": context.connection,
        ]
        if let text = String(data: request.body, encoding: .utf8) {
            object["body"] = text
        } else {
            object["body_base64"] = request.body.base64EncodedString()
        }
        if let json = DemoJSON.value(request.body) { object["json"] = json }
        return .json(200, object)
    }

    private static func status(_ context: DemoContext) -> DemoResponse {
        guard let code = Int(context.parameters["code"] ?? ""), (200...599).contains(code) else {
            return .error(400, "the status must be a number from 200 to 599")
        }
        var headers: [(name: String, value: String)] = []
        if redirectStatuses.contains(code) { headers.append(("Location", "/echo")) }
        if code == 401 { headers.append(("WWW-Authenticate", DemoAuthRoutes.realm)) }
        if code == 429 || code == 503 { headers.append(("Retry-After", "1")) }
        if code == 405 { headers.append(("Allow", "GET")) }
        if DemoResponse.isBodiless(code) { return DemoResponse(status: code, headers: headers) }
        return .json(code, ["status": code, "reason": DemoStatus.reason(code)], headers: headers)
    }

    private static func flaky(_ context: DemoContext) -> DemoResponse {
        let key = context.request.queryValue("key") ?? ""
        let call = context.core.increment("flaky:" + key)
        guard call % 3 == 0 else {
            return .error(503, "temporarily unavailable, try again", headers: retryAfter(context, default: "1"),
                          extra: ["attempt": call])
        }
        return .json(200, ["ok": true, "attempt": call, "key": key])
    }

    private static func rateLimited(_ context: DemoContext) -> DemoResponse {
        let call = context.core.increment("rate-limited:" + (context.request.queryValue("key") ?? ""))
        return .error(429, "rate limit exceeded", headers: retryAfter(context, default: "1") + [
            ("X-RateLimit-Limit", "0"), ("X-RateLimit-Remaining", "0"),
        ], extra: ["attempt": call])
    }

    /// `Retry-After` from `?retry_after=` (seconds, or `none` to leave it out) or, with
    /// `?retry_after_date=N`, as an HTTP date N seconds ahead.
    static func retryAfter(_ context: DemoContext, default fallback: String) -> [(name: String, value: String)] {
        if let seconds = context.request.queryValue("retry_after_date").flatMap(Double.init), seconds.isFinite {
            return [("Retry-After", HTTPDate.format(Date().addingTimeInterval(seconds)))]
        }
        let value = context.request.queryValue("retry_after") ?? fallback
        return value == "none" ? [] : [("Retry-After", value)]
    }

    private static func slow(_ context: DemoContext) -> DemoResponse {
        let milliseconds = context.integer("ms", default: 2000, in: 0...slowLimitMilliseconds)
        var response = DemoResponse.json(200, ["slept_ms": milliseconds])
        response.delayMilliseconds = milliseconds
        return response
    }
}
