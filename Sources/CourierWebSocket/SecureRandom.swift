import CCrypto
import Foundation

/// Random bytes and SHA-1 from libcrypto: masks and handshake keys must be unpredictable
/// (RFC 6455 section 10.3), and the toolchain has no SHA-1 of its own.
enum SecureRandom {
    /// `count` bytes from RAND_bytes; falls back to the system generator if libcrypto refuses.
    static func bytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let ok = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
        if ok != 1 {
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
        }
        return bytes
    }

    /// The SHA-1 digest of `bytes`.
    static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        bytes.withUnsafeBufferPointer { input in
            digest.withUnsafeMutableBufferPointer { output in
                _ = SHA1(input.baseAddress, input.count, output.baseAddress)
            }
        }
        return digest
    }
}
