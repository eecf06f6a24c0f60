import CourierSecurity
import CourierBody
import Foundation

/// Prints a large (spilled) body to standard output chunk by chunk: pretty JSON re-indented as it is
/// read, or sanitised text, so memory stays near one chunk however large the body is. Small bodies
/// keep `ResponseOutput.bodyText`, which checks the JSON whole before indenting it.
enum BodyPrinter {
    /// How much of the file is read at a time.
    static let chunkSize = 256 << 10

    /// Prints the body in `file`; JSON (by Content-Type or first byte) is indented, binary data
    /// gets a one-line note instead. `secrets` (values the request sent) are masked wherever the body
    /// repeats them, also across the chunks it is read in.
    static func print(file: URL, size: Int, contentType: String?, secrets: Set<String> = [],
                      write: (Data) -> Void = { FileHandle.standardOutput.write($0) }) throws {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        guard let first = try handle.read(upToCount: chunkSize), !first.isEmpty else { return }
        let kind = MediaKind.detect(contentType: contentType, prefix: first)
        if kind.isBinary {
            write(Data("(binary body, \(size) bytes; use -o FILE to save it)\n".utf8))
            return
        }
        let prefix = String(decoding: first.prefix(64), as: UTF8.self)
        var indenter = StreamingIndenter(indents: JSONPretty.looksLikeJSON(prefix, contentType: contentType))
        var masker = StreamingMasker(secrets: secrets)
        write(indenter.feed(masker.feed(first)))
        while let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty {
            write(indenter.feed(masker.feed(chunk)))
        }
        write(indenter.feed(masker.finish()) + indenter.finish() + Data([0x0A]))
        if indenter.flattened { Console.error(StreamingIndenter.flattenedNote) }
    }
}

/// Re-indents JSON over bytes, one chunk at a time, with `Sanitizer.escaped`'s rule for invisible
/// characters (C0, DEL and C1 shown as `\xNN`, bidi controls as `\uXXXX`) unless `sanitizes` is off.
/// Without `indents` it only sanitises. Indentation stops growing past `LineLimits.maxIndentLevels`, as
/// in the explorer, so the output stays linear in the input however deep the nesting (100,000 nested
/// `[` would otherwise print gigabytes of spaces).
struct StreamingIndenter {
    private let indents: Bool
    private let sanitizes: Bool
    private let width = 2
    private var depth = 0
    /// Whether some nesting went past the indentation cap (the caller prints `flattenedNote`).
    private(set) var flattened = false
    private var inString = false
    private var escaped = false
    private var pendingNewline = false
    private var filter = InvisibleFilter()

    init(indents: Bool, sanitizes: Bool = true) {
        self.indents = indents
        self.sanitizes = sanitizes
    }

    /// Said once after a body whose nesting went deeper than the indentation cap.
    static let flattenedNote = "note: nesting deeper than \(LineLimits.maxIndentLevels) levels is shown without further indentation"

    /// The printable text for the next chunk.
    mutating func feed(_ chunk: Data) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(chunk.count + chunk.count / 2)
        var filter = self.filter
        chunk.withUnsafeBytes { bytes in
            for byte in bytes {
                if indents { indent(byte, into: &output, filter: &filter) } else { put(byte, into: &output, filter: &filter) }
            }
        }
        self.filter = filter
        return Data(output)
    }

    /// What is still held back at the end of the body.
    mutating func finish() -> Data {
        var output: [UInt8] = []
        filter.finish { output.append($0) }
        return Data(output)
    }

    private mutating func indent(_ byte: UInt8, into output: inout [UInt8], filter: inout InvisibleFilter) {
        if inString {
            put(byte, into: &output, filter: &filter)
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
            return
        }
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { return }
        let isClose = byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
        if pendingNewline {
            pendingNewline = false
            if isClose {
                depth -= 1
                put(byte, into: &output, filter: &filter)
                return
            }
            newline(into: &output)
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
            put(byte, into: &output, filter: &filter)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            put(byte, into: &output, filter: &filter)
            depth += 1
            pendingNewline = true
        case _ where isClose:
            depth -= 1
            newline(into: &output)
            put(byte, into: &output, filter: &filter)
        case UInt8(ascii: ","):
            put(byte, into: &output, filter: &filter)
            newline(into: &output)
        case UInt8(ascii: ":"):
            output.append(contentsOf: [UInt8(ascii: ":"), 0x20])
        default:
            put(byte, into: &output, filter: &filter)
        }
    }

    private mutating func newline(into output: inout [UInt8]) {
        output.append(0x0A)
        if depth > LineLimits.maxIndentLevels { flattened = true }
        output.append(contentsOf: repeatElement(UInt8(0x20), count: min(max(0, depth), LineLimits.maxIndentLevels) * width))
    }

    /// Appends one byte of server text, showing control characters instead of sending them.
    private func put(_ byte: UInt8, into output: inout [UInt8], filter: inout InvisibleFilter) {
        guard sanitizes else {
            output.append(byte)
            return
        }
        filter.feed(byte, plain: { output.append($0) }, control: { scalar in
            let text = scalar <= 0xFF ? String(format: "\\x%02X", scalar) : String(format: "\\u%04X", scalar)
            output.append(contentsOf: Array(text.utf8))
        })
    }
}
