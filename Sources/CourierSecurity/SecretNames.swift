/// The secret policy's names as lowercase ASCII bytes, and the byte-level test of a name against them: no
/// String is made and nothing is case-folded through Foundation, since a run asks it of every header.
enum SecretNames {
    static let headers = SecretPolicy.secretHeaderNames.map { Array($0.utf8) }
    static let parameters = SecretPolicy.secretQueryNames.map { Array($0.utf8) }
    static let fragments = SecretPolicy.secretNameFragments.map { Array($0.utf8) }
    static let urlHeaders = SecretPolicy.urlHeaderNames.map { Array($0.utf8) }

    /// Whether `name`, ASCII letters compared without case, is one of `exact` or holds one of the fragments.
    static func matches(_ name: some StringProtocol, exact: [[UInt8]], fragments: [[UInt8]] = fragments) -> Bool {
        withLowercased(name) { lower in
            exact.contains { $0.elementsEqual(lower) } || fragments.contains { contains(lower, $0) }
        }
    }

    /// Hands `body` the UTF-8 of `name` with ASCII capitals lowered, in a buffer on the stack.
    static func withLowercased<T>(_ name: some StringProtocol, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
        var text = String(name)
        return text.withUTF8 { bytes in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, bytes.count)) { buffer in
                for index in 0..<bytes.count {
                    let byte = bytes[index]
                    buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                }
                return body(UnsafeBufferPointer(rebasing: buffer[0..<bytes.count]))
            }
        }
    }

    /// Whether `needle` occurs in `haystack`: names are short, so a plain scan.
    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var start = 0
        while start + needle.count <= haystack.count {
            if haystack[start] == first {
                var offset = 1
                while offset < needle.count && haystack[start + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            start += 1
        }
        return false
    }
}
