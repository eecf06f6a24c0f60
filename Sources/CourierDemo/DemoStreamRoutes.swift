import Foundation

/// `/large`, `/events` and `/ndjson`: bodies that are big or arrive over time.
enum DemoStreamRoutes {
    static let routes: [DemoRoute] = [
        DemoRoute(["GET"], "/large", "?mb= megabytes of JSON (or ?kind=binary), streamed; ?bytes= exact", large),
        DemoRoute(["GET"], "/events", "Server-sent events: ?count= events every ?interval_ms=", events),
        DemoRoute(["GET"], "/ndjson", "Newline-delimited JSON: ?count= lines every ?interval_ms=", ndjson),
    ]

    /// Largest `/large` body: 2 GiB is more than any test needs and bounds a typo.
    static let largeLimitBytes = 2 << 30

    private static func large(_ context: DemoContext) -> DemoResponse {
        let megabytes = context.decimal("mb", default: 1, in: 0...2048)
        var total = context.request.queryValue("bytes").flatMap(Int.init) ?? Int(megabytes * 1_048_576)
        total = min(max(total, 0), largeLimitBytes)
        let chunked = context.request.queryValue("transfer") == "chunked"
        if context.request.queryValue("kind") == "binary" {
            let size = total
            return DemoResponse(status: 200, headers: [("Content-Type", "application/octet-stream")],
                                body: .stream(length: chunked ? nil : size) { try DemoLargeBody.writeBinary(size, to: $0) })
        }
        let size = max(total, DemoLargeBody.minimumJSONBytes)
        return DemoResponse(status: 200, headers: [("Content-Type", "application/json")],
                            body: .stream(length: chunked ? nil : size) { try DemoLargeBody.writeJSON(size, to: $0) })
    }

    private static func events(_ context: DemoContext) -> DemoResponse {
        let count = context.integer("count", default: 10, in: 0...100_000)
        let interval = context.integer("interval_ms", default: 500, in: 0...60_000)
        let after = context.request.header("Last-Event-ID").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        return DemoResponse(status: 200, headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")],
                            body: .stream(length: nil) { writer in
            try writer.write("retry: 2000\n: courier demo event stream\n\n")
            guard after < count else { return }
            for number in (after + 1)...count {
                if number > after + 1 { try writer.pause(milliseconds: interval) }
                try writer.write(event(number))
            }
        })
    }

    /// One SSE event; every fifth is a `notice` with a two-line data field.
    static func event(_ number: Int) -> String {
        let time = ISO8601DateFormatter().string(from: Date())
        if number % 5 == 0 {
            return "id: \(number)\nevent: notice\ndata: notice \(number)\ndata: {\"n\":\(number),\"time\":\"\(time)\"}\n\n"
        }
        return "id: \(number)\nevent: tick\ndata: " + DemoJSON.line(["n": number, "time": time]) + "\n\n"
    }

    private static func ndjson(_ context: DemoContext) -> DemoResponse {
        let count = context.integer("count", default: 10, in: 0...100_000)
        let interval = context.integer("interval_ms", default: 500, in: 0...60_000)
        let levels = ["info", "debug", "warn", "info", "error"]
        return DemoResponse(status: 200, headers: [("Content-Type", "application/x-ndjson")],
                            body: .stream(length: nil) { writer in
            for number in stride(from: 1, through: count, by: 1) {
                if number > 1 { try writer.pause(milliseconds: interval) }
                let line: [String: Any] = ["seq": number, "level": levels[number % levels.count],
                                           "time": ISO8601DateFormatter().string(from: Date()),
                                           "message": "event \(number) of \(count)"]
                try writer.write(DemoJSON.line(line) + "\n")
            }
        })
    }
}
