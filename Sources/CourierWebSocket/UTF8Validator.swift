/// Validates UTF-8 incrementally, so a text message can be checked fragment by fragment and a bad
/// sequence is caught as soon as it arrives (RFC 6455 section 8.1), not after the whole message.
public struct UTF8Validator: Sendable, Hashable {
    /// Continuation bytes still expected for the current code point.
    private var needed = 0
    /// The allowed range of the next continuation byte; narrower right after E0, ED, F0 and F4,
    /// which is how overlong forms, surrogates and code points above U+10FFFF are refused.
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF

    public init() {}

    /// Whether the bytes so far end on a code point boundary.
    public var isComplete: Bool { needed == 0 }

    /// Feeds more bytes; false as soon as they cannot be part of valid UTF-8.
    public mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var index = 0
        while index < count {
            if needed == 0 {
                // ASCII fast path: eight bytes at a time while none has its top bit set.
                while index + 8 <= count,
                      UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                    index += 8
                }
                guard index < count else { break }
            }
            let byte = base[index]
            index += 1
            if needed == 0 {
                if byte < 0x80 { continue }
                switch byte {
                case 0xC2...0xDF: needed = 1
                case 0xE0: needed = 2; lower = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF: needed = 2
                case 0xED: needed = 2; upper = 0x9F
                case 0xF0: needed = 3; lower = 0x90
                case 0xF1...0xF3: needed = 3
                case 0xF4: needed = 3; upper = 0x8F
                default: return false
                }
            } else {
                guard byte >= lower && byte <= upper else { return false }
                lower = 0x80
                upper = 0xBF
                needed -= 1
            }
        }
        return true
    }

    /// Feeds an array of bytes.
    public mutating func feed(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { feed($0) }
    }
}
