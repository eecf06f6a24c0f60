/// The secret policy's names as lowercase ASCII bytes, and the byte-level test of a name against them: no
/// String is made and nothing is case-folded through Foundation, since a run asks it of every header.
enum SecretNames {
    static let headers = SecretPolicy.secretHeaderNames.map { Array($0.utf8) }
    static let parameters = SecretPolicy.secretQueryNames.map { Array($0.utf8) }
    static let fragments = SecretPolicy.secretNameFragments.map { Array($0.utf8) }
    static let urlHeaders = SecretPolicy.urlHeaderNames.map { Array($0.utf8) }

    /// The fragments by their first byte: a name is read once, not once per fragment.
    static let fragmentsByFirstByte: [[[UInt8]]] = (0..<256).map { byte in fragments.filter { $0.first == UInt8(byte) } }
    /// Whether any fragment starts with the byte: most bytes of a name start none, and are passed over here.
    static let fragmentStarts: [Bool] = fragmentsByFirstByte.map { !$0.isEmpty }

    /// Whether `name`, ASCII letters compared without case, is one of `exact` or holds one of the fragments
    /// (`fragmentsByFirstByte`'s, unless `withFragments` is false).
    static func matches(_ name: some StringProtocol, exact: [[UInt8]], withFragments: Bool = true) -> Bool {
        matches(String(name), exact: exact, withFragments: withFragments)
    }

    /// `matches` for a String: compiled for it, so asking it of every header runs no generic code.
    static func matches(_ name: String, exact: [[UInt8]], withFragments: Bool = true) -> Bool {
        withLowercased(name) { matches(lowered: $0, exact: exact, withFragments: withFragments) }
    }

    /// What a header's name makes of its value, as `SecretPolicy.maskedHeaderValue` shows it.
    enum HeaderKind {
        /// A credential (`isSecretHeader`): masked after its scheme.
        case secret
        /// A URL (`isURLHeader`): its password and secret query values masked.
        case url
        /// Neither: only known secret values are masked in it.
        case plain
    }

    /// `isSecretHeader`, then `isURLHeader`, from one lowering of the name: every header of every response a
    /// run prints is asked both.
    static func headerKind(_ name: String) -> HeaderKind {
        withLowercased(name) { lower in
            if matches(lowered: lower, exact: headers, withFragments: true) { return .secret }
            return matches(lowered: lower, exact: urlHeaders, withFragments: false) ? .url : .plain
        }
    }

    /// `matches` for a name already lowered.
    private static func matches(lowered lower: UnsafeBufferPointer<UInt8>, exact: [[UInt8]],
                                withFragments: Bool) -> Bool {
        if exact.contains(where: { $0.count == lower.count && $0.elementsEqual(lower) }) { return true }
        guard withFragments else { return false }
        for start in lower.indices where fragmentStarts[Int(lower[start])] {
            for fragment in fragmentsByFirstByte[Int(lower[start])] where start + fragment.count <= lower.count {
                var offset = 1
                while offset < fragment.count && lower[start + offset] == fragment[offset] { offset += 1 }
                if offset == fragment.count { return true }
            }
        }
        return false
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
}
