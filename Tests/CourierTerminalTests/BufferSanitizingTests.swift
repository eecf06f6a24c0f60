import CourierTerminal
import Testing

/// The buffer applies the sanitiser (tested in CourierSecurityTests) to everything written into it.
@Suite struct BufferSanitizingTests {
    @Test func bufferWritesNeverStoreControlCharacters() {
        var buffer = Buffer(size: Size(width: 40, height: 1))
        buffer.write("ok\u{1B}]52;c;eA==\u{07}\u{9D}\u{202E}", x: 0, y: 0)
        let all = buffer.cells.map(\.grapheme).joined()
        #expect(!all.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(buffer.lines() == ["ok␛]52;c;eA==␇\u{FFFD}\u{FFFD}"])
    }
}
