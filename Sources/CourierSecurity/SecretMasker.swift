import Foundation

/// Known secret values ready to be searched for: every spelling of each (`SecretPolicy.encodedForms`),
/// longest first, as text and as bytes. Built once per set of secrets and then applied to many small pieces
/// (the lines a viewer draws, a message, an error), so nothing is re-derived per line.
public struct SecretMasker: Sendable, Hashable {
    /// Every spelling of every secret, longest first, so one containing another is masked whole.
    public let needles: [String]
    @usableFromInline let byteNeedles: [[UInt8]]

    /// A masker for `secrets`; values shorter than `SecretPolicy.minimumSecretLength` are left alone.
    /// Inlinable, so each caller's module specialises it for the sequence it passes: run unspecialised, its
    /// first call in a process looked up at run time how that sequence is iterated, which reads every protocol
    /// conformance the binary holds (a fifth of a millisecond of every `courier send`).
    @inlinable
    public init(secrets: some Sequence<String>) {
        needles = SecretPolicy.searchable(secrets.flatMap(SecretPolicy.encodedForms))
        byteNeedles = needles.map { Array($0.utf8) }
    }

    /// Whether there is nothing to mask.
    public var isEmpty: Bool { needles.isEmpty }

    /// `text` with every known secret replaced by `SecretPolicy.mask`.
    public func mask(_ text: String) -> String {
        guard occurs(in: text) else { return text }
        var result = text
        for needle in needles where result.contains(needle) {
            result = result.replacingOccurrences(of: needle, with: SecretPolicy.mask)
        }
        return result
    }

    /// `text` masked everywhere but in `kept`, a file path the message names: a private value that is also part
    /// of a path (`"/labels"` and `.ci/labelsEndpoint.http`) would otherwise turn the path into
    /// `.ciREDACTEDEndpoint.http`, which names no file. The path is the user's own, not a secret.
    public func mask(_ text: String, sparing kept: String) -> String {
        guard !kept.isEmpty, text.contains(kept) else { return mask(text) }
        return text.components(separatedBy: kept).map(mask).joined(separator: kept)
    }

    /// The places in `text` that hold a secret, in order and not overlapping; the longer secret wins.
    public func ranges(in text: String) -> [Range<String.Index>] {
        guard occurs(in: text) else { return [] }
        var found: [Range<String.Index>] = []
        for needle in needles where text.contains(needle) {
            var start = text.startIndex
            while start < text.endIndex, let hit = text.range(of: needle, range: start..<text.endIndex) {
                if !found.contains(where: { $0.overlaps(hit) }) { found.append(hit) }
                start = hit.upperBound
            }
        }
        return found.sorted { $0.lowerBound < $1.lowerBound }
    }

    /// Whether `text` holds any spelling of a known secret: a byte scan, so the common case (a line
    /// without one) costs no string search.
    public func occurs(in text: String) -> Bool {
        guard !byteNeedles.isEmpty else { return false }
        var text = text
        return text.withUTF8 { occurs(in: UnsafeRawBufferPointer($0)) }
    }

    /// Whether `bytes` hold any spelling of a known secret.
    public func occurs(in bytes: UnsafeRawBufferPointer) -> Bool {
        byteNeedles.contains { Self.find($0, in: bytes, from: 0) != nil }
    }

    /// Whether the file at `url` holds any spelling of a known secret. Read in pieces that overlap by the
    /// longest spelling less one byte, so a secret split between two pieces is found, in constant memory.
    public func occurs(inFileAt url: URL) throws -> Bool {
        guard let longest = byteNeedles.first?.count else { return false }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var window = Data()
        while let piece = try handle.read(upToCount: 1 << 20), !piece.isEmpty {
            window.append(piece)
            if window.withUnsafeBytes({ occurs(in: $0) }) { return true }
            window = Data(window.suffix(longest - 1))
        }
        return false
    }

    /// `bytes` with every known secret replaced by `SecretPolicy.mask`.
    public func masked(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var result = Array(bytes)
        let mask = Array(SecretPolicy.mask.utf8)
        for needle in byteNeedles {
            var output: [UInt8] = []
            var start = 0
            var changed = false
            result.withUnsafeBytes { current in
                while let found = Self.find(needle, in: current, from: start) {
                    changed = true
                    output.append(contentsOf: current[start..<found])
                    output.append(contentsOf: mask)
                    start = found + needle.count
                }
                if changed { output.append(contentsOf: current[start...]) }
            }
            if changed { result = output }
        }
        return result
    }

    /// The offset of the first `needle` in `bytes` at or after `start`.
    private static func find(_ needle: [UInt8], in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let first = needle.first, bytes.count - start >= needle.count else { return nil }
        var index = start
        let last = bytes.count - needle.count
        while index <= last {
            // memchr finds the candidate first byte fast; only there is the rest compared.
            guard let base = bytes.baseAddress,
                  let hit = memchr(base + index, Int32(first), last - index + 1) else { return nil }
            let offset = base.distance(to: UnsafeRawPointer(hit))
            if memcmp(base + offset, needle, needle.count) == 0 { return offset }
            index = offset + 1
        }
        return nil
    }
}
