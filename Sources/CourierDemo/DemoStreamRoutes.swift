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
    /// Smallest JSON `/large` body: room for the array brackets and one padding object.
    static let largeMinimumJSONBytes = 128
    /// Bytes handed to the socket per write.
    static let writeBlock = 64 * 1024
    static let cities = ["Lisbon", "Osaka", "Nairobi", "Toronto", "Helsinki", "Recife", "Wellington", "Pune"]

    private static func large(_ context: DemoContext) -> DemoResponse {
        let megabytes = context.decimal("mb", default: 1, in: 0...2048)
        var total = context.request.queryValue("bytes").flatMap(Int.init) ?? Int(megabytes * 1_048_576)
        total = min(max(total, 0), largeLimitBytes)
        let chunked = context.request.queryValue("transfer") == "chunked"
        if context.request.queryValue("kind") == "binary" {
            let size = total
            return DemoResponse(status: 200, headers: [("Content-Type", "application/octet-stream")],
                                body: .stream(length: chunked ? nil : size) { try writeBinary(size, to: $0) })
        }
        let size = max(total, largeMinimumJSONBytes)
        return DemoResponse(status: 200, headers: [("Content-Type", "application/json")],
                            body: .stream(length: chunked ? nil : size) { try writeJSON(size, to: $0) })
    }

    /// Pseudo-random bytes (xorshift), the same for every request of the same size.
    private static func writeBinary(_ total: Int, to writer: DemoStreamWriter) throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var block = [UInt8](repeating: 0, count: writeBlock)
        for index in block.indices {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            block[index] = UInt8(truncatingIfNeeded: state)
        }
        var left = total
        while left > 0 {
            let count = min(left, block.count)
            try writer.write(count == block.count ? block : Array(block[0..<count]))
            left -= count
        }
    }

    /// A JSON array of user-like records, exactly `total` bytes: the last record is padded to fit.
    private static func writeJSON(_ total: Int, to writer: DemoStreamWriter) throws {
        let closing = Array("\n]\n".utf8)
        // Room kept for the padding record (`,\n{"id":N,"padding":""}`) so the size always comes out exact.
        let reserve = 64
        var pending: [UInt8] = Array("[\n".utf8)
        pending.reserveCapacity(writeBlock + 1024)
        var written = 0
        var id = 1
        while true {
            let separator = id == 1 ? "" : ",\n"
            let record = Array((separator + self.record(id)).utf8)
            if written + pending.count + record.count + reserve > total - closing.count { break }
            pending += record
            id += 1
            if pending.count >= writeBlock {
                try writer.write(pending)
                written += pending.count
                pending.removeAll(keepingCapacity: true)
            }
        }
        let head = Array(((id == 1 ? "" : ",\n") + "{\"id\":\(id),\"padding\":\"").utf8)
        let tail = Array("\"}".utf8)
        let padding = total - closing.count - written - pending.count - head.count - tail.count
        pending += head + [UInt8](repeating: UInt8(ascii: "x"), count: max(padding, 0)) + tail + closing
        try writer.write(pending)
    }

    private static func record(_ id: Int) -> String {
        let city = cities[id % cities.count]
        let score = Double((id * 7919) % 10_000) / 100
        return "{\"id\":\(id),\"name\":\"User \(id)\",\"email\":\"user\(id)@example.com\",\"active\":\(id % 3 != 0),"
            + "\"score\":\(score),\"tags\":[\"t\(id % 7)\",\"group-\(id % 13)\"],"
            + "\"address\":{\"city\":\"\(city)\",\"zip\":\"\(10_000 + id % 90_000)\"}}"
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
