import Foundation

/// A binary body as hex dump lines (`00000010  48 65 6c 6c …  |Hello…|`), produced on demand.
public final class HexDump: LineSource, @unchecked Sendable {
    // @unchecked Sendable: `data` is immutable after init; nothing else is stored.
    private let data: Data
    /// Bytes per line.
    public static let bytesPerLine = 16

    /// A dump of `data`, 16 bytes a line.
    public init(data: Data) { self.data = data }

    public var lineCount: Int { (data.count + Self.bytesPerLine - 1) / Self.bytesPerLine }
    public var isComplete: Bool { true }
    /// See `LineSource`.
    public func indexMore() -> Bool { true }

    /// See `LineSource`.
    public func line(_ index: Int) -> String {
        let start = index * Self.bytesPerLine
        guard index >= 0, start < data.count else { return "" }
        let end = min(data.count, start + Self.bytesPerLine)
        return data.withUnsafeBytes { raw in
            var hex = ""
            var ascii = ""
            for position in start..<start + Self.bytesPerLine {
                if position == start + 8 { hex += " " }
                if position < end {
                    let byte = raw[position]
                    hex += Self.hexByte(byte) + " "
                    ascii.append(byte >= 0x20 && byte < 0x7F ? Character(Unicode.Scalar(byte)) : ".")
                } else {
                    hex += "   "
                }
            }
            return Self.offset(start) + "  " + hex + " |" + ascii + "|"
        }
    }

    /// See `LineSource`.
    public func coloredLine(_ index: Int) -> ColoredLine {
        let text = line(index)
        guard text.count > 10 else { return ColoredLine(text: text) }
        let asciiStart = 10 + Self.bytesPerLine * 3 + 2
        return ColoredLine(text: text, spans: [
            ColoredLine.Span(0..<8, .muted), ColoredLine.Span(8..<asciiStart, .number),
            ColoredLine.Span(asciiStart..<text.count, .string),
        ])
    }

    /// Lower-case hex pairs separated by spaces (`00 01 ff`), as a dump line shows them.
    public static func pairs(_ bytes: some Collection<UInt8>) -> String {
        bytes.map(hexByte).joined(separator: " ")
    }

    private static let digits = Array("0123456789abcdef")

    private static func hexByte(_ byte: UInt8) -> String {
        String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }

    private static func offset(_ value: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 8 - text.count)) + text
    }
}
