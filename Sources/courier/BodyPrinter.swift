import CourierSecurity
import CourierBody
import Foundation

/// Prints a large (spilled) body to standard output chunk by chunk: pretty JSON laid out as it is read
/// (`PrettyJSONStream`, the explorer's layout), or sanitised text, so memory stays near one chunk however
/// large the body is. Small bodies keep `ResponseOutput.bodyText`, which checks the JSON whole first.
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
        let indents = ResponseOutput.looksLikeJSON(prefix, contentType: contentType)
        var layout = PrettyJSONStream()
        var masker = StreamingMasker(secrets: secrets)
        var filter = InvisibleFilter()
        func show(_ text: Data) { write(filter.escaped(indents ? layout.feed(text) : text)) }
        show(masker.feed(first))
        while let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty {
            show(masker.feed(chunk))
        }
        show(masker.finish())
        write(filter.escaped(indents ? layout.finish() : Data()) + filter.finishEscaped() + Data([0x0A]))
        if layout.flattened { Console.error(PrettyJSONStream.flattenedNote) }
    }
}
