import CourierSecurity
import Foundation

/// Finds, in UTF-8 bytes arriving a chunk at a time, the characters `Sanitizer.escaped` and
/// `Sanitizer.escapedJSON` will not pass raw: C0 controls, DEL, C1 controls and bidirectional
/// controls. A multi-byte sequence cut by a chunk's end is held until the next chunk completes it.
struct InvisibleFilter {
    /// The UTF-8 encodings of the multi-byte controls (C1 and bidi), with their scalar values.
    static let sequences: [(bytes: [UInt8], scalar: UInt32)] = {
        let scalars = Array(0x80...0x9F) + Sanitizer.bidiControls.sorted()
        return scalars.compactMap { value in
            Unicode.Scalar(value).map { (Array(String(Character($0)).utf8), value) }
        }
    }()

    /// Lead bytes that may start one of `sequences`.
    static let leads = Set(sequences.map { $0.bytes[0] })

    /// Bytes of a possible control sequence not yet complete.
    private var pending: [UInt8] = []
    /// A carriage return `escaped` holds until the next byte says whether it ends a line (CRLF, passed as it is)
    /// or stands alone (escaped).
    private var carriageReturn = false

    /// Passes the byte to `plain`, or a control character it completes (its scalar value) to `control`.
    mutating func feed(_ byte: UInt8, plain: (UInt8) -> Void, control: (UInt32) -> Void) {
        // Printable ASCII outside a held sequence is by far the common case.
        if pending.isEmpty, byte >= 0x20, byte < 0x7F {
            plain(byte)
            return
        }
        if !pending.isEmpty {
            pending.append(byte)
            if let match = Self.sequences.first(where: { $0.bytes == pending }) {
                pending = []
                control(match.scalar)
                return
            }
            if Self.sequences.contains(where: { $0.bytes.starts(with: pending) }) { return }
            // Not a control after all: the held bytes are plain, and the last one is looked at afresh.
            let held = pending.dropLast()
            pending = []
            held.forEach(plain)
        }
        switch byte {
        case 0x0A, 0x09: plain(byte)
        case 0x00...0x1F, 0x7F: control(UInt32(byte))
        case _ where Self.leads.contains(byte): pending = [byte]
        default: plain(byte)
        }
    }

    /// Releases what is held at the end of the body (an incomplete sequence is plain bytes).
    mutating func finish(plain: (UInt8) -> Void) {
        pending.forEach(plain)
        pending = []
    }

    /// The chunk for the terminal with `Sanitizer.escaped`'s rule: C0, DEL and C1 controls as `\xNN`,
    /// bidi controls as `\uXXXX`. A sequence cut by the chunk's end is held for the next call.
    mutating func escaped(_ chunk: Data) -> Data {
        // Most text holds nothing to show differently: one pass to find out, no copy.
        if pending.isEmpty, !carriageReturn, !chunk.withUnsafeBytes({ $0.contains(where: Self.needsLook) }) {
            return chunk
        }
        var output: [UInt8] = []
        output.reserveCapacity(chunk.count)
        let control = { (scalar: UInt32) in
            let text = scalar <= 0xFF ? String(format: "\\x%02X", scalar) : String(format: "\\u%04X", scalar)
            output.append(contentsOf: Array(text.utf8))
        }
        for byte in chunk {
            // A carriage return before a newline ends a line (CRLF): harmless, passed as it is, as
            // `Sanitizer.escaped` does. It cannot continue a held sequence, so what is held is plain.
            if carriageReturn {
                carriageReturn = false
                if byte == 0x0A {
                    output.append(contentsOf: [0x0D, 0x0A])
                    continue
                }
                control(0x0D)
            }
            if byte == 0x0D {
                finish { output.append($0) }
                carriageReturn = true
                continue
            }
            feed(byte, plain: { output.append($0) }, control: control)
        }
        return Data(output)
    }

    /// Whether `feed` may do more with the byte than pass it on: a control, or the lead of a C1 or bidi one.
    private static func needsLook(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x0A && byte != 0x09) || byte == 0x7F || byte >= 0xC2 && leads.contains(byte)
    }

    /// What `escaped` still holds at the end of the body (a carriage return there stands alone: escaped).
    mutating func finishEscaped() -> Data {
        var output: [UInt8] = []
        finish { output.append($0) }
        if carriageReturn {
            carriageReturn = false
            output.append(contentsOf: Array("\\x0D".utf8))
        }
        return Data(output)
    }
}
