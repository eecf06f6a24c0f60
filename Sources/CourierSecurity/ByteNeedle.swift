import Foundation

/// Text to find in bytes without making a `String` of them or going through Foundation's `NSString` search:
/// exactly, or with ASCII letters compared without case. It skips with `memchr` to each place its first byte
/// occurs (in either case when folding), then compares the rest. Used for the history's body search (decoding
/// and lowercasing a 2 MB body took about 14 ms a megabyte) and for what a script sets (a `String.contains`
/// per name, per script, per request made checking a file of scripted requests quadratic in Foundation).
public struct ByteNeedle: Sendable {
    /// The needle; ASCII letters lowercased when it folds case.
    public let bytes: [UInt8]
    /// Whether ASCII letters of the text match in either case.
    public let foldsCase: Bool

    /// A needle matched with ASCII letters in any case; nil when `text` is empty or not all ASCII (such a needle
    /// is matched on decoded text, where case folding is Unicode's: `lowercased` then `exactly`).
    public init?(foldingCase text: String) {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        bytes = text.utf8.map(Self.folded)
        foldsCase = true
    }

    /// A needle matched byte for byte.
    public init(exactly text: String) {
        bytes = Array(text.utf8)
        foldsCase = false
    }

    static func folded(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// Whether `data` holds the needle.
    public func occurs(in data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return false }
            return occurs(in: base, count: raw.count)
        }
    }

    /// Whether `text` holds the needle: its UTF-8 bytes compared as they are, not character by character.
    public func occurs(in text: String) -> Bool {
        var text = text
        return text.withUTF8 { utf8 in
            guard let base = utf8.baseAddress else { return false }
            return occurs(in: base, count: utf8.count)
        }
    }

    /// Whether the `count` bytes at `base` hold the needle; never for an empty needle.
    public func occurs(in base: UnsafePointer<UInt8>, count: Int) -> Bool {
        let length = bytes.count
        guard length > 0, length <= count else { return false }
        let lower = bytes[0]
        let upper = foldsCase && lower >= 0x61 && lower <= 0x7A ? lower - 0x20 : lower
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

    /// Whether every byte of `data` is ASCII (below 0x80), read eight bytes at a time.
    public static func isASCII(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var index = 0
            let count = raw.count
            while index + 8 <= count {
                if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
                index += 8
            }
            while index < count {
                if raw[index] >= 0x80 { return false }
                index += 1
            }
            return true
        }
    }

    /// The first index from `start` through `end` holding `byte`.
    private func find(_ byte: UInt8, in base: UnsafePointer<UInt8>, from start: Int, through end: Int) -> Int? {
        guard start <= end, let found = memchr(base + start, Int32(byte), end - start + 1) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    private func matches(_ needle: UnsafeBufferPointer<UInt8>, at place: UnsafePointer<UInt8>) -> Bool {
        var index = 1
        if foldsCase {
            while index < needle.count {
                guard Self.folded(place[index]) == needle[index] else { return false }
                index += 1
            }
        } else {
            while index < needle.count {
                guard place[index] == needle[index] else { return false }
                index += 1
            }
        }
        return true
    }
}
