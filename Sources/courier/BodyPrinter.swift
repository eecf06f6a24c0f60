import CourierBody
import Foundation

/// Prints a large (spilled) body to standard output chunk by chunk: pretty JSON re-indented as it is
/// read, or sanitised text, so memory stays near one chunk however large the body is. Small bodies
/// keep `ResponseOutput.bodyText`, which checks the JSON whole before indenting it.
enum BodyPrinter {
    /// How much of the file is read at a time.
    static let chunkSize = 256 << 10

    /// Prints the body in `file`; JSON (by Content-Type or first byte) is indented, binary data
    /// gets a one-line note instead.
    static func print(file: URL, size: Int, contentType: String?,
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
        write(indenter.feed(first))
        while let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty {
            write(indenter.feed(chunk))
        }
        write(indenter.finish() + Data([0x0A]))
    }
}

/// `JSONPretty.indent` over bytes, one chunk at a time, with `Terminal.sanitize`'s rule for control
/// characters (C0, DEL and UTF-8-encoded C1 are shown as `\xNN`). Without `indents` it only sanitises.
struct StreamingIndenter {
    private let indents: Bool
    private let width = 2
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var pendingNewline = false
    /// A 0xC2 lead byte held back until the next byte says whether it starts a C1 control.
    private var heldC2 = false
    private var output: [UInt8] = []

    init(indents: Bool) { self.indents = indents }

    /// The printable text for the next chunk.
    mutating func feed(_ chunk: Data) -> Data {
        output = []
        output.reserveCapacity(chunk.count + chunk.count / 2)
        chunk.withUnsafeBytes { bytes in
            for byte in bytes { indents ? indent(byte) : put(byte) }
        }
        return Data(output)
    }

    /// What is still held back at the end of the body.
    mutating func finish() -> Data {
        defer { heldC2 = false }
        return heldC2 ? Data([0xC2]) : Data()
    }

    private mutating func indent(_ byte: UInt8) {
        if inString {
            put(byte)
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            return
        }
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { return }
        let isClose = byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
        if pendingNewline {
            pendingNewline = false
            if isClose {
                depth -= 1
                put(byte)
                return
            }
            newline()
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
            put(byte)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            put(byte)
            depth += 1
            pendingNewline = true
        case _ where isClose:
            depth -= 1
            newline()
            put(byte)
        case UInt8(ascii: ","):
            put(byte)
            newline()
        case UInt8(ascii: ":"):
            output.append(contentsOf: [UInt8(ascii: ":"), 0x20])
        default:
            put(byte)
        }
    }

    private mutating func newline() {
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(0x20), count: max(0, depth) * width))
    }

    /// Appends one byte of server text, showing control characters instead of sending them.
    private mutating func put(_ byte: UInt8) {
        if heldC2 {
            heldC2 = false
            if (0x80...0x9F).contains(byte) {
                escape(byte)
                return
            }
            output.append(0xC2)
        }
        switch byte {
        case 0x0A, 0x09: output.append(byte)
        case 0x00...0x1F, 0x7F: escape(byte)
        case 0xC2: heldC2 = true
        default: output.append(byte)
        }
    }

    private mutating func escape(_ byte: UInt8) {
        output.append(contentsOf: Array(String(format: "\\x%02X", byte).utf8))
    }
}
