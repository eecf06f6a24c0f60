extension HTTPFileParser {
    /// The words of a line, split at spaces and tabs. An ASCII line (nearly every request line) is split over
    /// its bytes, each byte being a Character there; any other by Character, where a combining mark after a
    /// space makes it no separator. Every block's request line passes here, some twice.
    static func words(_ line: String) -> [String] {
        var text = line
        let ascii: [String]? = text.withUTF8 { bytes in
            var words: [String] = []
            var start: Int?
            for index in 0..<bytes.count {
                let byte = bytes[index]
                if byte >= 0x80 { return nil }
                if byte == 0x20 || byte == 0x09 {
                    if let from = start {
                        words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<index]), as: UTF8.self))
                        start = nil
                    }
                } else if start == nil {
                    start = index
                }
            }
            if let from = start {
                words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[from...]), as: UTF8.self))
            }
            return words
        }
        return ascii ?? line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    }
}
