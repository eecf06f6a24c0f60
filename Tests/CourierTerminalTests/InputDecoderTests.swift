import Foundation
import Testing
import CourierTerminal

/// Feeds the decoder a script of raw input, as curses would hand it over.
private func decode(_ script: [RawInput]) -> [InputEvent] {
    let decoder = InputDecoder(keyCodes: [0o403: Key(.up), 0o541: Key(.tab, shift: true)]) { code in
        code == 600 ? "kLFT5" : nil
    }
    var queue = script[...]
    var events: [InputEvent] = []
    while let first = queue.popFirst() {
        if let event = decoder.decode(first, next: { _ in queue.popFirst() }) { events.append(event) }
    }
    return events
}

private func chars(_ text: String) -> [RawInput] { text.unicodeScalars.map { .character($0.value) } }

@Suite struct InputDecoderTests {
    @Test func controlCharactersBecomeCtrlKeysAndEnterTabBackspaceAreNamed() {
        let events = decode([.character(3), .character(19), .character(13), .character(9), .character(127)])
        #expect(events == [.key(.ctrl("c")), .key(.ctrl("s")), .key(Key(.enter)), .key(Key(.tab)),
                           .key(Key(.backspace))])
    }

    @Test func escapeFollowedByACharacterIsAlt() {
        #expect(decode(chars("\u{1B}x")) == [.key(Key(.character("x"), alt: true))])
        #expect(decode([.character(27), .keyCode(0o403)]) == [.key(Key(.up, alt: true))])
    }

    @Test func aLoneEscapeIsTheEscapeKey() {
        #expect(decode([.character(27)]) == [.key(Key(.escape))])
    }

    @Test func bracketedPasteArrivesAsOneEventWithNewlines() {
        // Given a paste of two lines framed by the bracketed-paste markers
        let script = chars("\u{1B}[200~GET /users\r\nAccept: */*\u{1B}[201~q")
        // When it is decoded
        let events = decode(script)
        // Then it is one paste (CR LF folded to one newline), and the key after it is a key
        #expect(events == [.paste("GET /users\nAccept: */*"), .key(.char("q"))])
    }

    @Test func pasteKeepsEscapeBytesThatAreNotTheEndMarker() {
        let events = decode(chars("\u{1B}[200~a\u{1B}[2xb\u{1B}[201~"))
        #expect(events == [.paste("a\u{1B}[2xb")])
    }

    @Test func unknownCsiSequencesAreSwallowedWhole() {
        #expect(decode(chars("\u{1B}[?25$yk")) == [.key(.char("k"))])
    }

    @Test func cursorKeySequencesCursesDidNotKnowAreStillKeys() {
        #expect(decode(chars("\u{1B}[A\u{1B}[1;5C\u{1B}[3~\u{1B}[5;2~\u{1B}OP")) == [
            .key(Key(.up)), .key(Key(.right, ctrl: true)), .key(Key(.delete)), .key(Key(.pageUp, shift: true)),
            .key(Key(.function(1))),
        ])
    }

    @Test func sgrMouseReportsBecomeClicksAndWheel() {
        #expect(decode(chars("\u{1B}[<0;5;3M\u{1B}[<0;5;3m\u{1B}[<64;1;1M\u{1B}[<35;9;9M")) == [
            .mouse(MouseEvent(kind: .press, position: Position(x: 4, y: 2))),
            .mouse(MouseEvent(kind: .release, position: Position(x: 4, y: 2))),
            .mouse(MouseEvent(kind: .scrollUp, position: Position(x: 0, y: 0))),
        ])
    }

    @Test func keyCodesAndExtendedNamesMapToKeys() {
        #expect(decode([.keyCode(0o541), .keyCode(600)]) == [.key(Key(.tab, shift: true)), .key(Key(.left, ctrl: true))])
        #expect(InputDecoder.extendedKey(named: "kUP3") == Key(.up, alt: true))
        #expect(InputDecoder.extendedKey(named: "kRIT2") == Key(.right, shift: true))
        #expect(InputDecoder.extendedKey(named: "kDC6") == Key(.delete, ctrl: true, shift: true))
    }

    @Test func wideAndEmojiCharactersArriveAsThemselves() {
        #expect(decode(chars("日😀")) == [.key(.char("日")), .key(.char("😀"))])
    }
}

@Suite struct ColorMappingTests {
    @Test func noColorTurnsColourOffWhateverTheTerminal() {
        let depth = ColorDepth.detect(colors: 256, hasRGBFlag: true, environment: ["NO_COLOR": "1"])
        #expect(depth == .none)
        #expect(ColorMapping.number(for: .red, depth: depth) == -1)
        #expect(ColorDepth.detect(colors: 256, hasRGBFlag: false, environment: ["NO_COLOR": ""]) == .indexed256)
    }

    @Test func trueColourNeedsADirectColourTerminalDescription() {
        #expect(ColorDepth.detect(colors: 256, hasRGBFlag: false, environment: ["COLORTERM": "truecolor"]) == .indexed256)
        // curses cannot write a 24-bit number through a 256-colour description, whatever COLORTERM says.
        #expect(ColorDepth.detect(colors: 256, hasRGBFlag: true, environment: ["COLORTERM": "24bit"]) == .indexed256)
        #expect(ColorDepth.detect(colors: 0x100_0000, hasRGBFlag: true, environment: [:]) == .trueColor)
        #expect(ColorMapping.number(for: .rgb(0, 0, 0), depth: .trueColor) == 8)
        #expect(ColorDepth.detect(colors: 8, hasRGBFlag: false, environment: [:]) == .indexed8)
    }

    @Test func askingForTrueColourPicksTheDirectColourDescriptionWhenOneIsInstalled() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("terminfo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("x"), withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("x/xterm-direct"))
        let asked = ["COLORTERM": "truecolor", "TERMINFO": folder.path, "HOME": "/nonexistent"]
        #expect(TerminfoDatabase.preferredName(term: "xterm-256color", environment: asked) == "xterm-direct")
        #expect(TerminfoDatabase.preferredName(term: "xterm-256color", environment: ["TERMINFO": folder.path]) == "xterm-256color")
        #expect(TerminfoDatabase.preferredName(term: "screen-256color", environment: asked)
                == (TerminfoDatabase.exists("screen-direct", environment: asked) ? "screen-direct" : "screen-256color"))
        #expect(TerminfoDatabase.preferredName(term: "linux", environment: asked) == "linux")
    }

    @Test func rgbMapsToTheNearestOf256AndOf16() {
        #expect(ColorMapping.number(for: .rgb(255, 0, 0), depth: .indexed256) == 196)
        #expect(ColorMapping.number(for: .rgb(128, 128, 128), depth: .indexed256) == 244)
        #expect(ColorMapping.number(for: .rgb(250, 250, 250), depth: .indexed16) == 15)
        #expect(ColorMapping.number(for: .rgb(1, 2, 3), depth: .trueColor) == 0x010203)
        #expect(ColorMapping.number(for: .indexed(196), depth: .indexed16) == 9)
        #expect(ColorMapping.number(for: .brightRed, depth: .indexed8) == 1)
        #expect(ColorMapping.number(for: .default, depth: .indexed256) == -1)
    }
}
