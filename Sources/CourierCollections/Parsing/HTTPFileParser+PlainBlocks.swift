import CourierHTTP
import CourierMessage

/// The common block of a long generated file, `### name` over `GET https://host/path`, read over its bytes:
/// the general reader asks a dozen questions of every line (comment, tag, variable, script, directive, header,
/// body, footer), each on a trimmed copy of the line, and that was most of the time a file of plain requests
/// took to load. A block this reader does not take whole is left to the general one untouched, and for the
/// blocks it takes it builds what the general reader would, field for field (`HTTPFilePlainBlockTests`
/// compares the two over every `.http` file the tests and collections hold).
extension HTTPFileParser {
    /// Methods a plain block may use: each is sent as written, is no other protocol's word, and has a shared
    /// `HTTPMethod` value (no upper-casing per request).
    private static let plainMethods: [(bytes: [UInt8], method: HTTPMethod)] = [
        HTTPMethod.get, .post, .put, .patch, .delete, .head, .options,
    ].map { (Array($0.rawValue.utf8), $0) }

    /// Parses `block` when it holds an optional `###` line, blank lines, one plain request line and blank lines,
    /// all ASCII: `METHOD http(s)://…` with an optional `HTTP/x.y`. False, with nothing read, for any other block.
    mutating func parsePlainBlock(_ block: Range<Int>) -> Bool {
        var index = block.lowerBound
        var separator: Int?
        var separatorName: String?
        if let title = Self.plainSeparatorTitle(lines[index]) {
            guard let title else { return false }
            (separator, separatorName) = (index, title.isEmpty ? nil : title)
            index += 1
        }
        let preludeStart = index
        while index < block.upperBound, lines[index].isBlank { index += 1 }
        guard index < block.upperBound, let requestLine = Self.plainRequestLine(lines[index]) else { return false }
        let requestStart = index
        index += 1
        let headerStart = index
        while index < block.upperBound {
            guard lines[index].isBlank else { return false }
            index += 1
        }
        // As the general reader lays out a request without headers or body: the blank line after the request
        // line ends its (empty) headers, and the rest is tail.
        let bodyStart = headerStart < block.upperBound ? headerStart + 1 : headerStart
        // Not `separator.flatMap(nameAbove)`: the method reference took a copy of the whole parser per block.
        var name: String?
        if let separator { name = nameAbove(separator: separator) }
        let template = RequestTemplate(
            id: RequestTemplateID(file: path, ordinal: ordinalOffset + requests.count + 1),
            name: name ?? separatorName, method: requestLine.method, url: requestLine.url,
            httpVersion: requestLine.version, lines: fileLine(block.lowerBound)..<fileLine(block.upperBound),
            sourceText: SourceLines.join(lines[block]))
        requests.append(template)
        layouts.append(RequestLayout(
            block: block, separator: separator, nameFromSeparator: name == nil && separatorName != nil,
            prelude: preludeStart..<requestStart, nameLine: nil, variableLines: [], tagLines: [],
            requestLine: requestStart..<headerStart, headers: headerStart..<headerStart,
            body: bodyStart..<bodyStart, tail: bodyStart..<block.upperBound))
        return true
    }

    /// For a `###` line: `.some(title)` when it is all ASCII (the title as `separatorTitle` reads it, "" for
    /// none), `.some(nil)` when it is not (left to the general reader); nil for a line that is no separator.
    static func plainSeparatorTitle(_ line: SourceLine) -> String?? {
        var content = line.content
        return content.withUTF8 { bytes -> String?? in
            var first = 0
            while first < bytes.count, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
            guard bytes.count - first >= 3, bytes[first] == 0x23, bytes[first + 1] == 0x23, bytes[first + 2] == 0x23
            else { return nil }
            guard isPlainText(bytes) else { return .some(nil) }
            // `### Find one` and the boxed `### Find one ###` are both titled `Find one`; a `#` ending a word stays.
            var start = first
            while start < bytes.count, bytes[start] == 0x23 { start += 1 }
            var end = bytes.count
            while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
            var unboxed = end
            while unboxed > start, bytes[unboxed - 1] == 0x23 { unboxed -= 1 }
            if unboxed < end, unboxed > start, bytes[unboxed - 1] == 0x20 || bytes[unboxed - 1] == 0x09 {
                end = unboxed
                while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            }
            return .some(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
        }
    }

    /// `METHOD http(s)://URL [HTTP/x.y]` over an all-ASCII line, with a method of `plainMethods`; nil for any
    /// other line (which may still be a request line the general reader takes).
    static func plainRequestLine(_ line: SourceLine) -> (method: HTTPMethod, url: String, version: String?)? {
        var content = line.content
        return content.withUTF8 { bytes -> (method: HTTPMethod, url: String, version: String?)? in
            guard isPlainText(bytes) else { return nil }
            // Up to three words (method, URL, version), found without an array.
            var index = 0
            func nextWord() -> Range<Int>? {
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
                let start = index
                while index < bytes.count, bytes[index] != 0x20 && bytes[index] != 0x09 { index += 1 }
                return index > start ? start..<index : nil
            }
            guard let methodWord = nextWord(), let urlWord = nextWord(),
                  let method = plainMethods.first(where: { bytes[methodWord].elementsEqual($0.bytes) })?.method,
                  bytes[urlWord].starts(with: "http://".utf8) || bytes[urlWord].starts(with: "https://".utf8)
            else { return nil }
            func text(_ word: Range<Int>) -> String {
                String(decoding: UnsafeBufferPointer(rebasing: bytes[word]), as: UTF8.self)
            }
            var version: String?
            if let versionWord = nextWord() {
                guard bytes[versionWord].starts(with: "HTTP/".utf8), nextWord() == nil else { return nil }
                version = text(versionWord)
            }
            return (method, text(urlWord), version)
        }
    }

    /// Printable ASCII, spaces and tabs only: there a byte is a character, and no byte is a line's end.
    private static func isPlainText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy { ($0 >= 0x20 && $0 < 0x7F) || $0 == 0x09 }
    }
}
