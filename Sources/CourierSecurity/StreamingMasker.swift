import Foundation

/// Masks known secret values in bytes that arrive in chunks (a large body read from disk, a stream), so a
/// secret split across two chunks is masked all the same. It holds back the last bytes of each chunk
/// that could still be the start of a secret, never more than the longest secret less one byte.
public struct StreamingMasker: Sendable {
    private let masker: SecretMasker
    private let holdBack: Int
    private var carry = Data()

    /// A masker for `secrets`; with none it passes bytes through untouched.
    public init(secrets: some Sequence<String>) {
        masker = SecretMasker(secrets: secrets)
        holdBack = max(0, (masker.needles.map(\.utf8.count).max() ?? 0) - 1)
    }

    /// The bytes of `chunk` (after what was held back) that can be let out, masked.
    public mutating func feed(_ chunk: Data) -> Data {
        guard !masker.isEmpty else { return chunk }
        var buffer = carry
        buffer.append(chunk)
        buffer = buffer.withUnsafeBytes { Data(masker.masked($0)) }
        let cut = buffer.startIndex + max(0, buffer.count - holdBack)
        carry = Data(buffer[cut...])
        return Data(buffer[..<cut])
    }

    /// What was held back at the end of the stream.
    public mutating func finish() -> Data {
        defer { carry = Data() }
        return carry
    }
}
