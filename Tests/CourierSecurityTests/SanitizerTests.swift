import CourierSecurity
import Testing

@Suite struct SanitizerTests {
    @Test func escapeSequencesBecomeVisibleSymbols() {
        // Given a body that tries to move the cursor and set the title
        let hostile = "\u{1B}[2J\u{1B}]0;pwned\u{07}"
        // When it is sanitised
        let safe = Sanitizer.sanitize(hostile)
        // Then no control character is left and the ESC shows as ␛
        #expect(!safe.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(safe.hasPrefix("␛[2J␛]0;pwned"))
    }

    @Test func osc52ClipboardWriteIsDefused() {
        let hostile = "\u{1B}]52;c;ZXZpbA==\u{1B}\\"
        let safe = Sanitizer.sanitize(hostile)
        #expect(safe == "␛]52;c;ZXZpbA==␛\\")
    }

    @Test func eightBitC1ControlsAndBidiOverridesAreReplaced() {
        #expect(Sanitizer.sanitize("a\u{9B}31mb") == "a\u{FFFD}31mb")      // CSI as one byte
        #expect(Sanitizer.sanitize("x\u{202E}y\u{2066}z") == "x\u{FFFD}y\u{FFFD}z")
        #expect(Sanitizer.sanitize("nul\u{0}") == "nul␀")
    }

    @Test func aControlHiddenInAGraphemeClusterIsStillCaught() {
        // A combining mark after ESC makes one Character; the ESC must still be shown.
        let safe = Sanitizer.sanitize("\u{1B}\u{301}[31m")
        #expect(!safe.unicodeScalars.contains { $0.value == 0x1B })
    }
}
