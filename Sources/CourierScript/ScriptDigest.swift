import CCrypto

/// The hashes and HMACs behind the scripts' `crypto` helpers, computed by libcrypto.
enum ScriptDigest {
    /// Algorithms scripts may name, as the JetBrains reference lists them, with libcrypto's names.
    static let algorithms: [String: String] = [
        "md5": "MD5", "sha1": "SHA1", "sha224": "SHA224", "sha256": "SHA256", "sha384": "SHA384", "sha512": "SHA512",
    ]

    /// The digest of `data`, or its HMAC under `key`; nil for an unknown algorithm.
    static func digest(_ algorithm: String, key: [UInt8]?, data: [UInt8]) -> [UInt8]? {
        guard let name = algorithms[algorithm] else { return nil }
        var out = [UInt8](repeating: 0, count: 64)
        var length = 0
        let ok: Bool = data.withUnsafeBufferPointer { input in
            if let key {
                return key.withUnsafeBufferPointer { secret in
                    EVP_Q_mac(nil, "HMAC", nil, name, nil, secret.baseAddress, secret.count,
                              input.baseAddress, input.count, &out, out.count, &length) != nil
                }
            }
            return EVP_Q_digest(nil, name, nil, input.baseAddress, input.count, &out, &length) != 0
        }
        return ok ? Array(out.prefix(length)) : nil
    }

    /// `__courierDigest(algorithm, keyHex|null, dataHex)` from the prelude, answered in hex.
    static func hex(_ algorithm: String, keyHex: String?, dataHex: String) -> String? {
        guard let data = bytes(dataHex) else { return nil }
        let key = keyHex.flatMap(bytes)
        if keyHex != nil && key == nil { return nil }
        return digest(algorithm, key: key, data: data)?.map { byte in
            let text = String(byte, radix: 16)
            return text.count == 1 ? "0" + text : text
        }.joined()
    }

    private static func bytes(_ hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            let pair = String(decoding: digits[index..<index + 2], as: UTF8.self)
            guard let byte = UInt8(pair, radix: 16) else { return nil }
            out.append(byte)
            index += 2
        }
        return out
    }
}
