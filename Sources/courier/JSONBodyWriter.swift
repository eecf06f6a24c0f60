import CourierSecurity
import CourierHTTP
import Foundation

/// `courier send --json` for a spilled body: the response object is written around the body, whose
/// text (or base64) is escaped from the file chunk by chunk, so the object is the same as
/// `ResponseOutput.json` would print but memory stays near one chunk.
enum JSONBodyWriter {
    /// A multiple of 3, so each chunk's base64 joins the next without padding in between.
    static let chunkSize = 3 * 87_381
    /// Stands in for the body while the rest of the object is serialised.
    private static let marker = "courier-body-\(UUID().uuidString)"

    /// Prints the object for `response`, whose body is in `file`. `secrets` (values the request sent) are
    /// masked wherever the response repeats them, in a text body also across the chunks it is read in.
    static func print(response: HTTPResponse, file: URL, error: APIError?, attempts: [AttemptRecord],
                      options: ResponseOutput.Options, secrets: Set<String> = [],
                      write: (Data) -> Void = { FileHandle.standardOutput.write($0) }) throws {
        let isText = try isValidUTF8(file)
        let object = SecretPolicy.masking(
            ResponseOutput.json(response: response, error: error, attempts: attempts, options: options,
                                bodyPlaceholder: (marker, isText ? nil : "base64")), secrets: secrets)
        let quoted = "\"\(marker)\""
        guard let range = object.range(of: quoted) else {
            write(Data((object + "\n").utf8))
            return
        }
        write(Data(object[..<range.lowerBound].utf8) + Data([UInt8(ascii: "\"")]))
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var filter = InvisibleFilter()
        var masker = StreamingMasker(secrets: secrets)
        while let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty {
            write(isText ? escape(masker.feed(chunk), filter: &filter) : chunk.base64EncodedData())
        }
        if isText { write(escape(masker.finish(), filter: &filter)) }
        var rest: [UInt8] = []
        filter.finish { rest.append($0) }
        write(Data(rest) + Data([UInt8(ascii: "\"")]) + Data(object[range.upperBound...].utf8) + Data([0x0A]))
    }

    /// Whether the whole file is UTF-8, checked a chunk at a time (a sequence cut by a chunk's end is
    /// carried into the next).
    static func isValidUTF8(_ file: URL) throws -> Bool {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var carry = Data()
        while let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty {
            var bytes = carry + chunk
            carry = Data()
            // Hold back up to three bytes of a multi-byte sequence the chunk cut short.
            var back = 0
            while back < min(3, bytes.count), bytes[bytes.endIndex - 1 - back] & 0xC0 == 0x80 { back += 1 }
            let lead = bytes.count > back ? bytes[bytes.endIndex - 1 - back] : 0
            let needed = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
            if needed > back + 1 {
                carry = bytes.suffix(back + 1)
                bytes.removeLast(back + 1)
            }
            if String(data: bytes, encoding: .utf8) == nil { return false }
        }
        return carry.isEmpty
    }

    /// The chunk as the inside of a JSON string: quote and backslash escaped, and control characters
    /// (C0, DEL, C1, bidi) as `\uXXXX`, as `Sanitizer.escapedJSON` writes them. `filter` carries a
    /// sequence cut by the chunk's end into the next call.
    static func escape(_ chunk: Data, filter: inout InvisibleFilter) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(chunk.count + 64)
        chunk.withUnsafeBytes { bytes in
            for byte in bytes {
                filter.feed(byte, plain: { byte in
                    switch byte {
                    case UInt8(ascii: "\""): output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
                    case UInt8(ascii: "\\"): output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                    case 0x0A: output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                    case 0x09: output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                    default: output.append(byte)
                    }
                }, control: { scalar in
                    output += Array(String(format: "\\u%04X", scalar).utf8)
                })
            }
        }
        return Data(output)
    }
}
