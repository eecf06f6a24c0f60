import Foundation

/// Reading a script's JavaScript as text, without running it.
enum ScriptCode {
    /// `code` without its `//` and `/* */` comments (string literals kept whole, so `"http://x"` stays), for
    /// guesses made from the text: a `client.global.set(…)` written in a comment sets nothing.
    static func withoutComments(_ code: String) -> String {
        let bytes = Array(code.utf8)
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var index = 0
        var quote: UInt8?
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if let open = quote {
                kept.append(byte)
                if byte == 0x5C, index + 1 < bytes.count {
                    kept.append(next)
                    index += 2
                    continue
                }
                if byte == open || (byte == 0x0A && open != 0x60) { quote = nil }
                index += 1
            } else if byte == 0x2F && next == 0x2F {
                while index < bytes.count && bytes[index] != 0x0A { index += 1 }
            } else if byte == 0x2F && next == 0x2A {
                index += 2
                while index + 1 < bytes.count && !(bytes[index] == 0x2A && bytes[index + 1] == 0x2F) { index += 1 }
                index += 2
                kept.append(0x20)
            } else {
                if byte == 0x22 || byte == 0x27 || byte == 0x60 { quote = byte }
                kept.append(byte)
                index += 1
            }
        }
        return String(decoding: kept, as: UTF8.self)
    }
}
