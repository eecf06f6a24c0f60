import CourierBody
import Foundation

/// Reads the JSON an importer starts from (a HAR file, an Insomnia export) so that a syntax error names
/// its line and column, and names places in the document as JSON paths (`log.entries[3].request`).
enum ImportJSON {
    /// The document, or an error naming the source, the line and the column of the first mistake.
    static func parse(_ data: Data, source: String) throws(CollectionError) -> JSONValue {
        do { return try JSONValue.parse(data) } catch {
            guard case .invalidJSON(let offset, let reason) = error else {
                throw .importFailed(source: source, reason: "not valid JSON")
            }
            let (line, column) = position(of: offset, in: data)
            throw .importFailed(source: source, reason: "line \(line), column \(column): not valid JSON (\(reason))")
        }
    }

    /// The 1-based line and column of a byte offset.
    static func position(of offset: Int, in data: Data) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for (index, byte) in data.prefix(max(0, offset)).enumerated() where byte == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return (line, max(0, offset) - lineStart + 1)
    }
}
