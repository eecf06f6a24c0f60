import CourierBody
import CourierScript
import Foundation

/// One iteration of `courier run --data`: its row's values, which number it is and of how many.
public struct IterationRow: Sendable, Hashable {
    /// The row's values by column (CSV) or member (JSON) name.
    public var values: [String: String] = [:]
    /// 0-based, as `pm.info.iteration`.
    public var index = 0
    public var count = 1

    public init(values: [String: String] = [:], index: Int = 0, count: Int = 1) {
        self.values = values
        self.index = index
        self.count = count
    }

    /// Gives a script this row (`pm.iterationData`, `data`) and its place in the run.
    func apply(to input: inout ScriptInput) {
        input.iterationData = values
        input.iteration = index
        input.iterationCount = count
    }
}

/// A data file for `courier run --data`, as newman reads one: a CSV file whose first record names the
/// columns (RFC 4180: quoted fields, `""` inside them, line breaks in quotes, CRLF or LF, a UTF-8 BOM), or a
/// JSON array of objects. Each row is one iteration.
public enum IterationData {
    /// The rows of `data`, read as JSON when it starts with `[` (or `{`, which is then an error), else as CSV;
    /// `file` names it in errors.
    public static func rows(_ data: Data, file: String) throws(CollectionError) -> [[String: String]] {
        var bytes = data
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let first = bytes.first { !" \t\r\n".utf8.contains($0) }
        let isJSON = first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
        let rows = isJSON ? try json(Data(bytes), file: file)
                          : try csv(String(decoding: bytes, as: UTF8.self), file: file)
        guard !rows.isEmpty else { throw .unreadable(path: file, reason: "the data file has no rows") }
        return rows
    }

    /// A JSON array of objects; a member that is not a string is its JSON text (numbers as written).
    static func json(_ data: Data, file: String) throws(CollectionError) -> [[String: String]] {
        guard let value = try? JSONValue.parse(data), case .array(let items) = value else {
            throw .unreadable(path: file, reason: "not a JSON array of objects")
        }
        var rows: [[String: String]] = []
        for (index, item) in items.enumerated() {
            guard case .object(let members) = item else {
                throw .unreadable(path: file, reason: "item \(index + 1) of the array is not an object")
            }
            var row: [String: String] = [:]
            for member in members { row[member.key] = member.value.text }
            rows.append(row)
        }
        return rows
    }

    /// CSV after RFC 4180; the first record holds the column names. A record with more fields than there
    /// are columns is an error naming its line; one with fewer leaves the rest empty.
    static func csv(_ text: String, file: String) throws(CollectionError) -> [[String: String]] {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field = ""
        var quoted = false
        var afterQuote = false
        var line = 1
        var recordLine = 1
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func endRecord() {
            fields.append(field)
            // A blank line between records is not a record.
            if !(fields.count == 1 && fields[0].isEmpty) { records.append((recordLine, fields)) }
            fields = []
            field = ""
            afterQuote = false
        }
        while let scalar = pending ?? scalars.next() {
            pending = nil
            if quoted {
                if scalar == "\"" {
                    let next = scalars.next()
                    if next == "\"" { field.unicodeScalars.append("\"") } else {
                        quoted = false
                        afterQuote = true
                        pending = next
                    }
                } else {
                    if scalar == "\n" { line += 1 }
                    field.unicodeScalars.append(scalar)
                }
                continue
            }
            switch scalar {
            case ",":
                fields.append(field)
                field = ""
                afterQuote = false
            case "\r", "\n":
                if scalar == "\r" {
                    let next = scalars.next()
                    if next != "\n" { pending = next }
                }
                endRecord()
                line += 1
                recordLine = line
            case "\"" where field.isEmpty && !afterQuote:
                quoted = true
            default:
                if afterQuote {
                    throw .unreadable(path: "\(file):\(line)",
                                      reason: "text after a closing quote (write \"\" for a quote)")
                }
                field.unicodeScalars.append(scalar)
            }
        }
        if quoted { throw .unreadable(path: "\(file):\(recordLine)", reason: "a quoted field is not closed") }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        guard let header = records.first else { return [] }
        let columns = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        return try records.dropFirst().map { record throws(CollectionError) in
            guard record.fields.count <= columns.count else {
                throw .unreadable(path: "\(file):\(record.line)",
                                  reason: "\(record.fields.count) fields, but the first line names "
                                      + "\(columns.count) columns")
            }
            var row: [String: String] = [:]
            for (index, column) in columns.enumerated() {
                row[column] = index < record.fields.count ? record.fields[index] : ""
            }
            return row
        }
    }
}
