import CCrypto
import Foundation

/// Proof Key for Code Exchange (RFC 7636) with S256, and the other random values of a sign-in.
enum PKCE {
    /// A code verifier: 32 random bytes, base64url (43 characters, within section 4.1's 43 to 128).
    static func verifier() -> String { randomText(bytes: 32) }

    /// `BASE64URL(SHA256(verifier))`, the S256 challenge (section 4.2).
    static func challenge(for verifier: String) -> String {
        base64URL(SHA256Digest.digest(Data(verifier.utf8)))
    }

    /// `bytes` random bytes from libcrypto as base64url text: a state or a verifier.
    static func randomText(bytes: Int) -> String {
        var data = Data(count: bytes)
        let ok = data.withUnsafeMutableBytes { buffer in
            RAND_bytes(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(bytes)) == 1
        }
        // RAND_bytes fails only without entropy; the system generator is the fallback.
        if !ok { data = Data((0..<bytes).map { _ in UInt8.random(in: 0...255) }) }
        return base64URL(data)
    }

    /// Base64url without padding (RFC 4648 section 5).
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

/// SHA-256 and HMAC-SHA256 through libcrypto: PKCE challenges and AWS signatures.
enum SHA256Digest {
    static func digest(_ data: Data) -> Data {
        var output = Data(count: Int(SHA256_DIGEST_LENGTH))
        data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                _ = CCrypto.SHA256(input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count,
                                   out.baseAddress!.assumingMemoryBound(to: UInt8.self))
            }
        }
        return output
    }

    static func hmac(key: Data, _ data: Data) -> Data {
        var output = Data(count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        key.withUnsafeBytes { keyBytes in
            data.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { out in
                    _ = HMAC(EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count),
                             input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count,
                             out.baseAddress!.assumingMemoryBound(to: UInt8.self), &length)
                }
            }
        }
        return output.prefix(Int(length))
    }

    /// Lower-case hexadecimal of `data`.
    static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count * 2)
        for byte in data {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
