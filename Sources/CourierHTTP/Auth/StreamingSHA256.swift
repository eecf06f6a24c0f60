import CCrypto
import Foundation

/// SHA-256 over data fed in pieces (a file body read from disk), through libcrypto's EVP interface.
struct StreamingSHA256: ~Copyable {
    private let context: OpaquePointer?

    init() {
        context = EVP_MD_CTX_new()
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    mutating func update(_ data: Data) {
        data.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
    }

    /// Feeds the file at `url` in 1 MB pieces.
    mutating func update(file url: URL) throws(APIError) {
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw .protocolError(underlying: "cannot read \(url.path) to sign it")
        }
        defer { try? handle.close() }
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty { update(chunk) }
    }

    consuming func finish() -> Data {
        var output = Data(count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        output.withUnsafeMutableBytes { _ = EVP_DigestFinal_ex(context, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), &length) }
        return output.prefix(Int(length))
    }
}
