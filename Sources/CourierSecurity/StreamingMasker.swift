import Foundation

/// Masks known secret values in bytes that arrive in chunks (a large body read from disk, a stream), so a
/// secret split across two chunks is masked all the same. It holds back the last bytes of each chunk
/// that could still be the start of a secret, never more than the longest secret less one byte.
public struct StreamingMasker: Sendable {
    /// Every spelling of every secret, longest first (as `SecretPolicy.masking` searches them).
    private let needles: [Data]
    private let holdBack: Int
    private var carry = Data()
    private let mask = Data(SecretPolicy.mask.utf8)

    /// A masker for `secrets`; with none it passes bytes through untouched.
    public init(secrets: some Sequence<String>) {
        needles = SecretPolicy.searchable(secrets.flatMap(SecretPolicy.encodedForms)).map { Data($0.utf8) }
        holdBack = max(0, (needles.map(\.count).max() ?? 0) - 1)
    }

    /// The bytes of `chunk` (after what was held back) that can be let out, masked.
    public mutating func feed(_ chunk: Data) -> Data {
        guard !needles.isEmpty else { return chunk }
        var buffer = carry
        buffer.append(chunk)
        buffer = masked(buffer)
        let cut = buffer.startIndex + max(0, buffer.count - holdBack)
        carry = Data(buffer[cut...])
        return Data(buffer[..<cut])
    }

    /// What was held back at the end of the stream.
    public mutating func finish() -> Data {
        defer { carry = Data() }
        return carry
    }

    private func masked(_ bytes: Data) -> Data {
        var result = bytes
        for needle in needles where result.range(of: needle) != nil {
            var output = Data()
            var start = result.startIndex
            while let found = result.range(of: needle, in: start..<result.endIndex) {
                output.append(result[start..<found.lowerBound])
                output.append(mask)
                start = found.upperBound
            }
            output.append(result[start...])
            result = output
        }
        return result
    }
}
