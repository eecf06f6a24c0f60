import Foundation

/// `/chaos/*`: servers misbehaving on purpose, one fault per endpoint, for the client's fault matrix.
enum DemoChaosRoutes {
    static let routes: [DemoRoute] = [
        DemoRoute([DemoRoute.anyMethod], "/chaos/reset-before", "Reads the request, resets the connection", resetBefore),
        DemoRoute([DemoRoute.anyMethod], "/chaos/reset-mid-body", "Half the promised body, then a reset", resetMidBody),
        DemoRoute([DemoRoute.anyMethod], "/chaos/short-body", "Fewer bytes than Content-Length, then a clean close",
                  shortBody),
        DemoRoute([DemoRoute.anyMethod], "/chaos/stall", "Headers, then silence until the client gives up", stall),
        DemoRoute([DemoRoute.anyMethod], "/chaos/drip", "?bytes= body bytes, one every ?interval_ms= (1000)", drip),
        DemoRoute([DemoRoute.anyMethod], "/chaos/truncated-chunked", "A chunked body cut off mid-chunk", truncatedChunked),
        DemoRoute([DemoRoute.anyMethod], "/chaos/bad-status-line", "A response whose status line is not HTTP",
                  badStatusLine),
        DemoRoute([DemoRoute.anyMethod], "/chaos/huge-headers", "?kb= kilobytes of header fields (default 256)",
                  hugeHeaders),
        DemoRoute([DemoRoute.anyMethod], "/chaos/redirect-loop", "302 to itself, forever", redirectLoop),
        DemoRoute([DemoRoute.anyMethod], "/chaos/401-storm", "401 invalid_token whatever the credentials", unauthorizedStorm),
        DemoRoute([DemoRoute.anyMethod], "/chaos/503-storm", "503 always (?retry_after=N|none)", unavailableStorm),
        DemoRoute(["GET"], "/chaos/escape", "Terminal escapes, C1, NUL, bad UTF-8, bidi in body and headers",
                  DemoHostileContent.response),
        DemoRoute(["GET"], "/chaos/deep-json", "JSON nested ?depth= levels (default 10000; ?kind=object)", deepJSON),
    ]

    /// Longest `/chaos/stall` silence before the server gives up itself.
    static let stallLimitMilliseconds = 600_000

    private static func resetBefore(_ context: DemoContext) -> DemoResponse {
        DemoResponse(status: 0, body: .raw { $0.reset() })
    }

    private static func resetMidBody(_ context: DemoContext) -> DemoResponse {
        DemoResponse(status: 200, body: .raw { writer in
            let body = Array(repeating: "{\"id\":1,\"name\":\"partial\"}", count: 2000).joined(separator: ",")
            try writer.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count + 2)\r\n\r\n")
            try writer.write("[" + body.prefix(body.utf8.count / 2))
            // Give the half a moment to reach the client, so it fails mid-body rather than before it.
            try writer.pause(milliseconds: 100)
            writer.reset()
        })
    }

    private static func shortBody(_ context: DemoContext) -> DemoResponse {
        DemoResponse(status: 200, body: .raw { writer in
            try writer.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\n")
            try writer.write("only forty bytes of a thousand promised\n")
        })
    }

    private static func stall(_ context: DemoContext) -> DemoResponse {
        let limit = context.integer("ms", default: stallLimitMilliseconds, in: 0...stallLimitMilliseconds)
        return DemoResponse(status: 200, body: .raw { writer in
            try writer.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1024\r\n\r\n")
            try writer.pause(milliseconds: limit)
        })
    }

    private static func drip(_ context: DemoContext) -> DemoResponse {
        let count = context.integer("bytes", default: 10, in: 1...100_000)
        let interval = context.integer("interval_ms", default: 1000, in: 0...60_000)
        let text = Array("drip, drip, drip... ".utf8)
        return DemoResponse(status: 200, headers: [("Content-Type", "text/plain")], body: .stream(length: count) { writer in
            for index in 0..<count {
                if index > 0 { try writer.pause(milliseconds: interval) }
                try writer.write([text[index % text.count]])
            }
        })
    }

    private static func truncatedChunked(_ context: DemoContext) -> DemoResponse {
        DemoResponse(status: 200, body: .raw { writer in
            try writer.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
            try writer.write("10\r\n{\"items\":[1,2,3,\r\n")
            try writer.write("100\r\n4,5,6,7,8,")
        })
    }

    private static func badStatusLine(_ context: DemoContext) -> DemoResponse {
        DemoResponse(status: 0, body: .raw { writer in
            try writer.write("HTTP/1.1 banana Not A Status\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nok\n")
        })
    }

    private static func hugeHeaders(_ context: DemoContext) -> DemoResponse {
        let kilobytes = context.integer("kb", default: 256, in: 1...16_384)
        let perLine = context.integer("line_kb", default: kilobytes, in: 1...16_384)
        var headers: [(name: String, value: String)] = [("Content-Type", "text/plain")]
        var left = kilobytes * 1024
        var number = 1
        while left > 0 {
            let size = min(left, perLine * 1024)
            headers.append(("X-Huge-\(number)", String(repeating: "h", count: size)))
            left -= size
            number += 1
        }
        return DemoResponse(status: 200, headers: headers, body: .bytes(Array("small body after huge headers\n".utf8)))
    }

    private static func redirectLoop(_ context: DemoContext) -> DemoResponse {
        let hop = context.integer("hop", default: 0, in: 0...Int(Int32.max))
        return .error(302, "redirecting to myself (hop \(hop + 1))",
                      headers: [("Location", "/chaos/redirect-loop?hop=\(hop + 1)")])
    }

    private static func unauthorizedStorm(_ context: DemoContext) -> DemoResponse {
        let call = context.core.increment("chaos/401-storm")
        return .error(401, "token rejected", headers: [
            ("WWW-Authenticate", "\(DemoAuthRoutes.realm), error=\"invalid_token\", error_description=\"rejected\""),
        ], extra: ["attempt": call])
    }

    private static func unavailableStorm(_ context: DemoContext) -> DemoResponse {
        let call = context.core.increment("chaos/503-storm")
        return .error(503, "down for maintenance", headers: DemoBasicRoutes.retryAfter(context, default: "1"),
                      extra: ["attempt": call])
    }

    private static func deepJSON(_ context: DemoContext) -> DemoResponse {
        let depth = context.integer("depth", default: 10_000, in: 1...10_000_000)
        let objects = context.request.queryValue("kind") == "object"
        let open = objects ? "{\"a\":" : "[", close = objects ? "}" : "]", middle = objects ? "null" : ""
        let length = depth * (open.utf8.count + close.utf8.count) + middle.utf8.count
        return DemoResponse(status: 200, headers: [("Content-Type", "application/json")], body: .stream(length: length) {
            writer in
            let block = 4096
            for piece in stride(from: 0, to: depth, by: block) {
                try writer.write(String(repeating: open, count: min(block, depth - piece)))
            }
            try writer.write(middle)
            for piece in stride(from: 0, to: depth, by: block) {
                try writer.write(String(repeating: close, count: min(block, depth - piece)))
            }
        })
    }
}
