import Foundation

/// What a body holds, from its Content-Type and its first bytes, so the viewer picks text, JSON, hex or a
/// media summary ("image/png, 1.2 MB").
public struct MediaKind: Sendable, Hashable {
    /// The media type, from the header or, failing that, the magic number.
    public var mimeType: String
    public var category: Category

    /// How the viewer shows a body.
    public enum Category: String, Sendable, Hashable {
        case json, eventStream, ndjson, text, image, document, archive, binary
    }

    /// Magic numbers of common binary formats: prefix bytes and the media type they mean.
    public static let signatures: [(prefix: [UInt8], mimeType: String, category: Category)] = [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "image/png", .image),
        ([0xFF, 0xD8, 0xFF], "image/jpeg", .image),
        (Array("GIF87a".utf8), "image/gif", .image),
        (Array("GIF89a".utf8), "image/gif", .image),
        (Array("%PDF-".utf8), "application/pdf", .document),
        ([0x50, 0x4B, 0x03, 0x04], "application/zip", .archive),
        ([0x1F, 0x8B], "application/gzip", .archive),
    ]

    /// Detects the kind from a Content-Type header value (may be nil) and the body's first bytes.
    public static func detect(contentType: String?, prefix: Data) -> MediaKind {
        let bytes = [UInt8](prefix.prefix(16))
        for signature in signatures where bytes.starts(with: signature.prefix) {
            return MediaKind(mimeType: signature.mimeType, category: signature.category)
        }
        let type = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        if type == "text/event-stream" { return MediaKind(mimeType: type, category: .eventStream) }
        if type == "application/x-ndjson" || type == "application/jsonl" || type == "application/ndjson" {
            return MediaKind(mimeType: type, category: .ndjson)
        }
        if type.hasSuffix("/json") || type.hasSuffix("+json") { return MediaKind(mimeType: type, category: .json) }
        if type.hasPrefix("image/") { return MediaKind(mimeType: type, category: .image) }
        if type.hasPrefix("text/") || type.hasSuffix("xml") || type.hasSuffix("javascript") || type == "application/x-www-form-urlencoded" {
            return MediaKind(mimeType: type, category: .text)
        }
        // No useful header: look at the bytes. JSON starts with `{` or `[`; text has no NUL bytes.
        let sample = [UInt8](prefix.prefix(4_096))
        if startsLikeJSON(sample) {
            return MediaKind(mimeType: type.isEmpty ? "application/json" : type, category: .json)
        }
        if isMostlyControlBytes(sample) {
            return MediaKind(mimeType: type.isEmpty ? "application/octet-stream" : type, category: .binary)
        }
        return MediaKind(mimeType: type.isEmpty ? "text/plain" : type, category: .text)
    }

    /// Whether the first byte after leading whitespace opens a JSON object or array: the one guess from
    /// the bytes alone that a body is JSON.
    public static func startsLikeJSON(_ bytes: some Sequence<UInt8>) -> Bool {
        guard let first = bytes.first(where: { !JSONTokenizer.isWhitespace($0) }) else { return false }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// The same guess for text. Its own function, not the generic one's: called from another module, that one
    /// looks the sequence's iterator type up by name, a scan of every conformance record (1% of a one-shot send).
    public static func startsLikeJSON(_ text: String.UTF8View) -> Bool {
        for byte in text where !JSONTokenizer.isWhitespace(byte) {
            return byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
        }
        return false
    }

    /// Text may carry a few stray control bytes (shown as symbols); many of them mean binary.
    private static func isMostlyControlBytes(_ sample: [UInt8]) -> Bool {
        let control = sample.filter { $0 < 0x09 || ($0 > 0x0D && $0 < 0x20 && $0 != 0x1B) }.count
        return control * 10 > sample.count
    }

    /// Whether the body is shown as hex (with a media summary for images, documents and archives).
    public var isBinary: Bool { [.image, .document, .archive, .binary].contains(category) }

    /// "image/png, 1.2 MB".
    public func summary(byteCount: Int) -> String { "\(mimeType), \(Self.formatSize(byteCount))" }

    /// `1.2 MB, 96.0 KB on the wire` for a body that came compressed, else just the size. `wire` is the
    /// size before the Content-Encoding was decoded; 0 (unknown) or equal to `decoded` prints one size.
    public static func formatTransferSize(decoded: Int, wire: Int) -> String {
        guard wire > 0, wire != decoded else { return formatSize(decoded) }
        return "\(formatSize(decoded)), \(formatSize(wire)) on the wire"
    }

    /// A size in B, KB, MB or GB (powers of 1024, one decimal above bytes).
    public static func formatSize(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024, unit < units.count - 1 { value /= 1024; unit += 1 }
        return String(format: "%.1f %@", value, units[unit])
    }
}
