import Foundation

/// Text to find in a kept body without turning the body into a `String`: an ASCII needle, matched byte by byte
/// with ASCII letters compared without case. Decoding and lowercasing a body took twice its size in memory and
/// about 14 ms a megabyte (2.8 s for a full history of 200 MB); this reads the bytes where they are, skipping to
/// each place the needle's first byte (in either case) occurs with `memchr`.
struct FoldedNeedle {
    /// The needle, ASCII letters lowercased.
    let bytes: [UInt8]

    /// Nil when `text` is empty or not all ASCII: such a needle is matched on decoded text, where case folding
    /// is Unicode's (`lowercased`).
    init?(_ text: String) {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        bytes = text.utf8.map(Self.folded)
    }

    /// A needle of any text, for text already lowercased as `lowercased` does: its UTF-8 bytes.
    init(lowercased text: String) {
        bytes = Array(text.utf8)
    }

    static func folded(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// Whether `data` holds the needle, ASCII letters in any case.
    func occurs(in data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
            return occurs(in: base, count: raw.count)
        }
    }

    /// Whether `text` holds the needle: its UTF-8 bytes compared as they are, not character by character (a
    /// search for "ü" in 2 MB of text took seconds that way).
    func occurs(in text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return false }
            return occurs(in: base, count: utf8.count)
        }
    }

    private func occurs(in base: UnsafePointer<UInt8>, count: Int) -> Bool {
        let length = bytes.count
        guard length > 0, length <= count else { return false }
        let lower = bytes[0]
        let upper = lower >= 0x61 && lower <= 0x7A ? lower - 0x20 : lower
        // The last place a match can start; `memchr` looks no further.
        let lastStart = count - length
        return bytes.withUnsafeBufferPointer { needle in
            var nextLower = find(lower, in: base, from: 0, through: lastStart)
            var nextUpper = upper == lower ? nil : find(upper, in: base, from: 0, through: lastStart)
            while true {
                let start: Int
                switch (nextLower, nextUpper) {
                case (nil, nil): return false
                case (let l?, nil): start = l
                case (nil, let u?): start = u
                case (let l?, let u?): start = min(l, u)
                }
                if matches(needle, at: base + start) { return true }
                if start == nextLower { nextLower = find(lower, in: base, from: start + 1, through: lastStart) }
                if start == nextUpper { nextUpper = find(upper, in: base, from: start + 1, through: lastStart) }
            }
        }
    }

    /// The first index from `start` through `end` holding `byte`.
    private func find(_ byte: UInt8, in base: UnsafePointer<UInt8>, from start: Int, through end: Int) -> Int? {
        guard start <= end, let found = memchr(base + start, Int32(byte), end - start + 1) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    private func matches(_ needle: UnsafeBufferPointer<UInt8>, at place: UnsafePointer<UInt8>) -> Bool {
        var index = 1
        while index < needle.count {
            guard Self.folded(place[index]) == needle[index] else { return false }
            index += 1
        }
        return true
    }
}
