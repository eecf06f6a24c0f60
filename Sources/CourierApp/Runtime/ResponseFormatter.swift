import CourierBody
import CourierHTTP
import Foundation

/// Turns a response into what the response view draws: pretty JSON, text, or a hex dump. Runs off the
/// main thread; only the first `byteLimit` bytes are laid out here (the large-body viewer pages the rest).
public enum ResponseFormatter {
    /// The most body bytes read for display.
    public static let byteLimit = 8 << 20
    /// The most lines kept for display.
    public static let lineLimit = 100_000

    /// Bytes read to tell JSON from text when the body itself is not laid out.
    static let sniffBytes = 4_096

    /// The summary of `response` that the explorer shows. `layingOutBody: false` leaves the body lines
    /// empty: the viewer (`pane`) shows the body, and laying out up to `byteLimit` here would cost a
    /// pretty-print of 8 MB (over half a second) before a large response appears.
    public static func summary(_ response: HTTPResponse, layingOutBody: Bool = true) -> ResponseSummary {
        let data = prefix(of: response.body, limit: layingOutBody ? byteLimit : sniffBytes)
        let contentType = response.headers["Content-Type"]?.lowercased() ?? ""
        let firstByte = data.first { !" \t\r\n".utf8.contains($0) }
        let looksJSON = contentType.contains("json") || firstByte == UInt8(ascii: "{") || firstByte == UInt8(ascii: "[")
        guard layingOutBody else {
            return ResponseSummary(status: response.status, reason: response.reason, headers: response.headers,
                                   bodyLines: [], isJSON: looksJSON && !contentType.contains("ndjson"),
                                   size: response.body.size, duration: response.timing.total,
                                   cache: response.cache.decision, url: response.url.absoluteString)
        }
        var lines: [String]
        var isJSON = false
        if let text = String(data: data, encoding: .utf8) {
            if looksJSON && !contentType.contains("ndjson") {
                lines = JSONPretty.lines(text)
                isJSON = true
            } else {
                lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.trimmingSuffix("\r")) }
                if lines.last == "" { lines.removeLast() }
            }
        } else {
            lines = hexDump(data.prefix(64 << 10))
        }
        var note: String?
        if lines.count > lineLimit {
            lines.removeLast(lines.count - lineLimit)
            note = "… showing the first \(lineLimit) lines"
        }
        if response.body.size > data.count { note = "… showing the first \(data.count) of \(response.body.size) bytes" }
        return ResponseSummary(status: response.status, reason: response.reason, headers: response.headers,
                               bodyLines: lines, isJSON: isJSON, size: response.body.size,
                               duration: response.timing.total, cache: response.cache.decision,
                               url: response.url.absoluteString, truncatedNote: note)
    }

    /// The response viewer's state over the whole body (a file-backed body is read through its index).
    public static func pane(_ response: HTTPResponse) -> ResponsePaneState? {
        let document: BodyDocument
        switch response.body {
        case .data(let data): document = BodyDocument(data: data)
        case .file(let url, _):
            guard let file = try? BodyDocument(contentsOf: url) else { return nil }
            document = file
        }
        let info = ResponsePaneInfo(
            status: response.status, reason: response.reason, duration: response.timing.total.milliseconds / 1000,
            cacheDecision: response.cache.decision.rawValue,
            headers: response.headers.map { HistoryEntry.Header($0.name, $0.value) },
            wireBytes: response.timing.bytesOnWire)
        return ResponsePaneState(info: info, body: document)
    }

    static func prefix(of body: ResponseBody, limit: Int = byteLimit) -> Data {
        switch body {
        case .data(let data): return data.count > limit ? data.prefix(limit) : data
        case .file(let url, _):
            guard let handle = try? FileHandle(forReadingFrom: url) else { return Data() }
            defer { try? handle.close() }
            return (try? handle.read(upToCount: limit)) ?? Data()
        }
    }

    /// Sixteen bytes a line: offset, hex, and the printable ASCII.
    static func hexDump(_ data: Data) -> [String] {
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count, by: 16).map { offset in
            let row = bytes[offset..<min(offset + 16, bytes.count)]
            let hex = row.map { String(format: "%02x", $0) }.joined(separator: " ")
            let ascii = String(row.map { (0x20..<0x7F).contains($0) ? Character(UnicodeScalar($0)) : "." })
            return String(format: "%08x  ", offset) + hex.padding(toLength: 48, withPad: " ", startingAt: 0) + " " + ascii
        }
    }
}

/// Re-indents JSON text without building a tree, so key order is kept and big bodies stay cheap.
/// Text that is not JSON comes out re-indented as well as it can be, never dropped.
enum JSONPretty {
    static func lines(_ text: String, indent: Int = 2) -> [String] {
        var lines: [String] = []
        var current = ""
        var depth = 0
        var inString = false
        var escaped = false
        func newline() {
            if !current.isEmpty { lines.append(current) }
            current = String(repeating: " ", count: depth * indent)
        }
        for character in text {
            if inString {
                current.append(character)
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"":
                inString = true
                current.append(character)
            case "{", "[":
                current.append(character)
                depth += 1
                newline()
            case "}", "]":
                depth = max(0, depth - 1)
                if current.trimmingCharacters(in: .whitespaces).isEmpty {
                    // An empty object or array closes on the line that opened it.
                    if let last = lines.last, last.hasSuffix("{") || last.hasSuffix("[") {
                        lines.removeLast()
                        current = last
                    } else {
                        current = String(repeating: " ", count: depth * indent)
                    }
                } else {
                    newline()
                }
                current.append(character)
            case ",":
                current.append(character)
                newline()
            case ":":
                current.append(": ")
            case " ", "\t", "\n", "\r":
                continue
            default:
                current.append(character)
            }
        }
        if !current.trimmingCharacters(in: .whitespaces).isEmpty { lines.append(current) }
        return lines
    }
}

extension Substring {
    func trimmingSuffix(_ suffix: String) -> Substring { hasSuffix(suffix) ? dropLast(suffix.count) : self }
}
