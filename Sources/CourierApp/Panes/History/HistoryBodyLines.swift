import CourierBody
import Foundation

/// A stored body as the lines a person reads: JSON pretty-printed by the streaming tokenizer, other
/// text split at newlines, binary summarised. Bounded, so a large body cannot stall a keypress.
enum HistoryBodyLines {
    /// At most this many lines are taken from a body (the rest is summarised in one line).
    static let maxLines = 20_000

    /// The lines of `data`, and whether they were cut at `limit`.
    static func lines(_ data: Data, limit: Int = maxLines) -> (lines: [String], truncated: Bool) {
        guard !data.isEmpty else { return ([], false) }
        if MediaKind.startsLikeJSON(data) {
            let document = PrettyJSONDocument(data: data)
            while !document.isComplete && document.lineCount <= limit { document.indexMore() }
            if document.failure == nil {
                let count = min(document.lineCount, limit)
                return ((0..<count).map { document.line($0) }, document.lineCount > limit || !document.isComplete)
            }
        }
        if data.prefix(4096).contains(0) { return (["binary body, \(MediaKind.formatSize(data.count))"], false) }
        // Invalid UTF-8 becomes replacement marks rather than being dropped.
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            .map { String($0.hasSuffix("\r") ? $0.dropLast() : $0) }
        if lines.last == "" { lines.removeLast() }
        return (Array(lines.prefix(limit)), lines.count > limit)
    }
}
