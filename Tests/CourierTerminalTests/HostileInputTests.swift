import Testing
import CourierTerminal

/// A small deterministic generator, so random inputs are the same on every run.
private struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476C_E5B9_E41D
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Scalars a terminal would act on: C0, DEL, C1 and bidirectional controls.
private func isTerminalControl(_ scalar: Unicode.Scalar) -> Bool {
    let v = scalar.value
    return v < 0x20 || (0x7F...0x9F).contains(v) || v == 0x200E || v == 0x200F
        || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
}

@Suite struct HostileInputTests {
    @Test func randomBytesDrawnIntoABufferNeverLeaveAControlCharacterInAnyCell() {
        // Given 2,000 random strings rich in escape bytes, controls, invalid UTF-8 and wide characters
        var random = SplitMix64(state: 9)
        let pieces: [[UInt8]] = [[0x1B], [0x1B, 0x5D], [0x07], [0x9B], [0xC2, 0x9B], [0xE2, 0x80, 0xAE], [0x00],
                                 [0x0D], [0xFF], [0xE6, 0x97, 0xA5], [0xF0, 0x9F, 0x98, 0x80], [0x41]]
        for _ in 0..<2_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                bytes += Bool.random(using: &random) ? pieces.randomElement(using: &random)!
                    : [UInt8.random(in: 0...255, using: &random)]
            }
            let text = String(decoding: bytes, as: UTF8.self)
            // When it is written into a buffer and drawn
            var buffer = Buffer(size: Size(width: 30, height: 2))
            buffer.write(text, x: 0, y: 0)
            buffer.write(StyledLine(text), x: 0, y: 1, maxWidth: 30, skip: 3)
            let backend = TestBackend(size: buffer.size)
            backend.draw(buffer, cursor: nil)
            // Then nothing that reaches the backend is a control character, and wide characters stay whole
            #expect(!backend.writtenText.unicodeScalars.contains(where: isTerminalControl))
            for y in 0..<2 {
                for x in 0..<30 where buffer[x, y].width == 2 {
                    #expect(x + 1 < 30 && buffer[x + 1, y].isContinuation)
                }
            }
        }
    }

    @Test func randomInputNeverCrashesTheDecoderAndEveryEventIsPrintableOrNamed() {
        var random = SplitMix64(state: 17)
        let decoder = InputDecoder(keyCodes: [:])
        for _ in 0..<2_000 {
            var queue = (0..<Int.random(in: 1...30, using: &random)).map { _ -> RawInput in
                Bool.random(using: &random) ? .character(UInt32.random(in: 0...0x7F, using: &random))
                    : .character([27, 91, 60, 59, 77, 126, 50, 48, 49][Int.random(in: 0...8, using: &random)])
            }[...]
            while let first = queue.popFirst() {
                guard let event = decoder.decode(first, next: { _ in queue.popFirst() }) else { continue }
                if case .key(let key) = event, case .character(let c) = key.code {
                    #expect(!c.unicodeScalars.contains(where: isTerminalControl))
                }
            }
        }
    }
}
