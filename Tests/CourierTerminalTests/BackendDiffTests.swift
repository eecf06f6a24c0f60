import Testing
import CourierTerminal

@Suite struct BackendDiffTests {
    @Test func theSecondFrameWritesOnlyTheCellsThatChanged() {
        // Given a backend that has drawn one frame
        let backend = TestBackend(size: Size(width: 20, height: 3))
        var frame = Buffer(size: backend.size)
        frame.write("status: 200", x: 0, y: 0)
        frame.write("body", x: 0, y: 1)
        backend.draw(frame, cursor: nil)
        #expect(backend.draws[0].count == 60)
        // When only the status changes
        frame.write("404", x: 8, y: 0)
        backend.draw(frame, cursor: Position(x: 1, y: 1))
        // Then the second draw wrote exactly the changed cells
        let second = backend.draws[1]
        #expect(second.map(\.position) == [Position(x: 8, y: 0), Position(x: 10, y: 0)])
        #expect(second.map(\.cell.grapheme) == ["4", "4"])
        #expect(backend.lines[0] == "status: 404")
        #expect(backend.cursor == Position(x: 1, y: 1))
    }

    @Test func anUnchangedFrameWritesNothing() {
        let backend = TestBackend(size: Size(width: 10, height: 2))
        var frame = Buffer(size: backend.size)
        frame.write("same", x: 0, y: 0)
        backend.draw(frame, cursor: nil)
        backend.draw(frame, cursor: nil)
        #expect(backend.draws[1].isEmpty)
    }

    @Test func aResizedFrameIsWrittenWhole() {
        let backend = TestBackend(size: Size(width: 10, height: 2))
        backend.draw(Buffer(size: backend.size), cursor: nil)
        backend.resize(to: Size(width: 5, height: 2))
        #expect(backend.nextEvent(timeout: nil) == .resize(Size(width: 5, height: 2)))
        backend.draw(Buffer(size: backend.size), cursor: nil)
        #expect(backend.draws[1].count == 10)
    }

    @Test func wideCharactersAreWrittenOnceWithoutTheirTrailingHalf() {
        var frame = Buffer(size: Size(width: 6, height: 1))
        frame.write("日本", x: 0, y: 0)
        let changes = frame.changes(since: nil)
        #expect(changes.map(\.position.x) == [0, 2, 4, 5])
    }

    @Test func scriptedInputIsPlayedBackInOrderAndWakeIsCounted() {
        let backend = TestBackend()
        backend.type("ab")
        backend.enqueue(.paste("x"), .key(Key(.tab, shift: true)))
        #expect(backend.nextEvent(timeout: .zero) == .key(.char("a")))
        #expect(backend.nextEvent(timeout: .zero) == .key(.char("b")))
        #expect(backend.nextEvent(timeout: .zero) == .paste("x"))
        #expect(backend.nextEvent(timeout: .zero) == .key(Key(.tab, shift: true)))
        #expect(backend.nextEvent(timeout: .zero) == nil)
        backend.wake()
        backend.restore()
        #expect(backend.wakeCount == 1 && backend.restoreCount == 1)
    }

    @Test func hostileTextDrawnThroughTheBufferNeverReachesTheBackendAsControls() {
        let backend = TestBackend(size: Size(width: 60, height: 2))
        var frame = Buffer(size: backend.size)
        frame.write("\u{1B}]0;title\u{07}\u{1B}]52;c;aGk=\u{1B}\\\u{9B}2J\u{202E}", x: 0, y: 0)
        backend.draw(frame, cursor: nil)
        #expect(!backend.writtenText.unicodeScalars.contains {
            $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E
        })
    }
}
