import Testing
import CourierTerminal

@Suite struct DisplayWidthTests {
    @Test func asciiTakesOneColumnAndControlsTakeNone() {
        #expect(DisplayWidth.of("hello") == 5)
        #expect(DisplayWidth.of(Character("\u{1B}")) == 0)
    }

    @Test func cjkAndFullwidthTakeTwoColumns() {
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("ＡＢ") == 4)
        #expect(DisplayWidth.of("ｱｲ") == 2)  // halfwidth katakana stay narrow
    }

    @Test func emojiTakeTwoColumnsIncludingSequencesAndFlags() {
        #expect(DisplayWidth.of(Character("😀")) == 2)
        #expect(DisplayWidth.of(Character("👍🏽")) == 2)           // skin tone
        #expect(DisplayWidth.of(Character("👨‍👩‍👧")) == 2)          // ZWJ family
        #expect(DisplayWidth.of(Character("🇫🇷")) == 2)           // flag
        #expect(DisplayWidth.of(Character("❤️")) == 2)           // text default forced by VS16
        #expect(DisplayWidth.of(Character("❤")) == 1)            // text presentation
    }

    @Test func combiningMarksAndZeroWidthCharactersAddNothing() {
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("a\u{200B}b") == 2)
    }

    @Test func prefixStopsBeforeAWideCharacterThatWouldNotFit() {
        let (prefix, width) = DisplayWidth.prefix(of: "ab日本", fitting: 5)
        #expect(prefix == "ab日")
        #expect(width == 4)
    }

    @Test func bufferKeepsWideCharactersWholeWhenOverwritten() {
        // Given a wide character drawn at column 1
        var buffer = Buffer(size: Size(width: 6, height: 1))
        buffer.write("a日b", x: 0, y: 0)
        #expect(buffer.lines() == ["a日b"])
        // When a narrow character lands on its second half
        buffer.write("x", x: 2, y: 0)
        // Then the first half is blanked rather than left as half a glyph
        #expect(buffer.lines() == ["a xb"])
        #expect(!buffer[1, 0].isContinuation && buffer[1, 0].width == 1)
    }

    @Test func aWideCharacterAtTheRightEdgeIsNotSplit() {
        var buffer = Buffer(size: Size(width: 3, height: 1))
        let used = buffer.write("ab日", x: 0, y: 0)
        #expect(used == 2)
        #expect(buffer.lines() == ["ab"])
    }
}
