import CourierMessage

/// libcurl's header callback hands over one raw line at a time; most are `Name: value` fields, read
/// here from the bytes without first building the whole line as a String.
extension ResponseHead {
    /// Whether the raw line, without its line end, is empty: the end of one head.
    static func isBlankLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.allSatisfy { $0 == 0x0D || $0 == 0x0A }
    }

    /// Parses one raw header line as `consume(line:)` does. A field is split at its first colon and
    /// trimmed in place, a status line read from its bytes; obs-fold continuations and unusual status lines,
    /// which are rare, take the String path.
    mutating func consume(rawLine bytes: UnsafeRawBufferPointer) {
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0D || bytes[end - 1] == 0x0A { end -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: bytes[..<end])
        if line.starts(with: "HTTP/".utf8), consume(statusLine: line) { return }
        guard let first = line.first, first != UInt8(ascii: " "), first != UInt8(ascii: "\t"),
              !line.starts(with: "HTTP/".utf8), let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            consume(line: String(decoding: line, as: UTF8.self))
            return
        }
        let name = Self.trimmed(UnsafeRawBufferPointer(rebasing: line[..<colon]))
        guard !name.isEmpty else { return }
        let value = Self.trimmed(UnsafeRawBufferPointer(rebasing: line[(colon + 1)...]))
        headers.add(String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// Starts a new head from a status line in its usual form, `HTTP/1.1 200 OK` (one space apart, three
    /// digits), as `consume(line:)` would; false leaves any other form to it.
    private mutating func consume(statusLine line: UnsafeRawBufferPointer) -> Bool {
        let space = UInt8(ascii: " ")
        guard let gap = line.firstIndex(of: space), line.count >= gap + 4 else { return false }
        var status = 0
        for index in gap + 1...gap + 3 {
            let digit = line[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return false }
            status = status * 10 + Int(digit)
        }
        let rest = gap + 4
        guard rest == line.count || line[rest] == space else { return false }
        let reason = UnsafeRawBufferPointer(rebasing: line[min(rest + 1, line.count)...])
        guard reason.first != space, reason.last != space else { return false }
        let version = UnsafeRawBufferPointer(rebasing: line[..<gap])
        self = ResponseHead(version: String(decoding: version, as: UTF8.self), status: status,
                            reason: String(decoding: reason, as: UTF8.self))
        return true
    }

    /// Without leading and trailing spaces and tabs (HTTP's optional whitespace).
    private static func trimmed(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var start = 0
        var end = bytes.count
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: bytes[start..<end])
    }
}
