import Foundation
import Testing
import CourierTerminal

/// Waits up to `limit` for `condition`, checking every 20 ms and sleeping asynchronously in between. A
/// bound for a loaded machine, not a speed requirement.
func eventually(_ limit: Duration = .seconds(60), _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + limit
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return await condition()
}

/// The curses backend on a real pseudo-terminal. Serialized: curses has one screen per process.
@Suite(.serialized) struct CursesBackendTests {
    private func makeBackend(_ pty: PseudoTerminal, signals: Bool = false) throws -> CursesBackend {
        try CursesBackend(input: pty.replica, output: pty.replica, term: "xterm-256color",
                          environment: ["TERM": "xterm-256color"], handleSignals: signals)
    }

    @Test func drawsTextAndWritesOnlyChangedCellsOnTheSecondFrame() async throws {
        // Given a backend on an 80×24 pseudo-terminal that has drawn a first frame
        let pty = try PseudoTerminal(size: Size(width: 80, height: 24))
        let backend = try makeBackend(pty)
        defer { backend.restore() }
        #expect(backend.size == Size(width: 80, height: 24))
        var frame = Buffer(size: backend.size)
        frame.write("HTTP/1.1 200 OK", x: 2, y: 1, style: Style(foreground: .green, attributes: .bold))
        frame.write("日本語 😀", x: 2, y: 2)
        backend.draw(frame, cursor: nil)
        #expect(backend.lastDrawCellCount == 80 * 24 - 4)  // minus the halves of 4 wide characters
        #expect(await eventually { pty.writtenText.contains("HTTP/1.1 200 OK") && pty.writtenText.contains("日本語") })
        // When one word changes
        pty.clearWritten()
        frame.write("404", x: 11, y: 1)
        backend.draw(frame, cursor: Position(x: 0, y: 0))
        // Then only those cells were written
        #expect(backend.lastDrawCellCount == 3)
        #expect(await eventually { pty.writtenText.contains("404") })
        #expect(!pty.writtenText.contains("HTTP"))
    }

    @Test func theFirstFrameClearsTheScreenAndDrawsEveryRowThroughTheFrameFile() async throws {
        // Given a backend on a 120×40 pseudo-terminal that has drawn nothing yet
        let pty = try PseudoTerminal(size: Size(width: 120, height: 40))
        let backend = try makeBackend(pty)
        defer { backend.restore() }
        // When it draws a first frame with text on every row, in two colours
        var frame = Buffer(size: backend.size)
        for row in 0..<40 {
            frame.write("row \(row) " + String(repeating: "=", count: 100), x: 1, y: row,
                        style: Style(foreground: row % 2 == 0 ? .green : .cyan))
        }
        backend.draw(frame, cursor: nil)
        // Then the terminal got the clear and every row (the frame is collected in memory, then written)
        #expect(await eventually { pty.writtenText.contains("row 0 ") && pty.writtenText.contains("row 39 ") })
        #expect(pty.writtenText.contains("\u{1B}[H\u{1B}[2J"))  // xterm-256color's clear
        // And a later frame that changes two rows far apart reaches it too
        pty.clearWritten()
        frame.write("top", x: 110, y: 0)
        frame.write("end", x: 110, y: 39)
        backend.draw(frame, cursor: Position(x: 0, y: 20))
        #expect(await eventually { pty.writtenText.contains("top") && pty.writtenText.contains("end") })
        #expect(!pty.writtenText.contains("row 5 "))
    }

    @Test func hostileTextNeverReachesTheTerminalAsEscapeSequences() async throws {
        let pty = try PseudoTerminal()
        let backend = try makeBackend(pty)
        defer { backend.restore() }
        // Given cells set directly with control characters (bypassing the buffer's own sanitising)
        var frame = Buffer(size: backend.size)
        frame.write("title:", x: 0, y: 0)
        for (index, scalar) in "\u{1B}]0;pwned\u{07}\u{1B}]52;c;aGk=\u{9B}".unicodeScalars.enumerated() {
            frame[10 + index, 0] = Cell(String(scalar))
        }
        pty.clearWritten()
        backend.draw(frame, cursor: nil)
        #expect(await eventually { pty.writtenText.contains("pwned") })
        // Then no OSC (title, clipboard), BEL or C1 byte was written
        let bytes = pty.written
        #expect(!pty.writtenText.contains("\u{1B}]"))
        #expect(!bytes.contains(0x07))
        #expect(!pty.writtenText.unicodeScalars.contains { $0.value == 0x9B })
        #expect(pty.writtenText.contains("␛]0;pwned␇"))
    }

    @Test func keysPasteAndMouseArriveAsEvents() async throws {
        let pty = try PseudoTerminal()
        let backend = try makeBackend(pty)
        defer { backend.restore() }
        #expect(await eventually { pty.writtenText.contains("\u{1B}[?2004h") })  // bracketed paste requested
        pty.send("a\u{03}\u{1B}x\u{1B}[A\u{1B}[Z")
        var events: [InputEvent] = []
        for _ in 0..<5 { if let event = backend.nextEvent(timeout: .seconds(60)) { events.append(event) } }
        #expect(events == [.key(.char("a")), .key(.ctrl("c")), .key(Key(.character("x"), alt: true)),
                           .key(Key(.up)), .key(Key(.tab, shift: true))])
        pty.send("\u{1B}[200~line 1\rline 2\u{1B}[201~")
        #expect(backend.nextEvent(timeout: .seconds(60)) == .paste("line 1\nline 2"))
        // An SGR mouse click at column 5, row 3 (1-based on the wire) and a wheel-down.
        pty.send("\u{1B}[<0;5;3M\u{1B}[<0;5;3m\u{1B}[<65;1;1M")
        var mouse: [InputEvent] = []
        for _ in 0..<3 { if let event = backend.nextEvent(timeout: .seconds(60)) { mouse.append(event) } }
        #expect(mouse.first == .mouse(MouseEvent(kind: .press, position: Position(x: 4, y: 2))))
        #expect(mouse.contains(.mouse(MouseEvent(kind: .scrollDown, position: Position(x: 0, y: 0)))))
    }

    @Test func wakeFromAnotherThreadEndsTheWaitWithoutInput() async throws {
        let pty = try PseudoTerminal()
        let backend = try makeBackend(pty)
        defer { backend.restore() }
        // Given a loop waiting with a long timeout, when another thread wakes it
        let started = ContinuousClock.now
        Task.detached { backend.wake() }
        let event = backend.nextEvent(timeout: .seconds(60))
        // Then the wait ends with no event, well before its timeout
        #expect(event == nil)
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test func aResizeStormBecomesResizeEventsWithTheFinalSize() throws {
        // Given the backend with its signal handlers (SIGWINCH goes to the self-pipe)
        let pty = try PseudoTerminal(size: Size(width: 80, height: 24))
        let backend = try makeBackend(pty, signals: true)
        defer { backend.restore() }
        // When the terminal is resized two hundred times in a row
        for step in 0..<200 {
            pty.resize(to: Size(width: 40 + step % 60, height: 10 + step % 20))
            kill(getpid(), SIGWINCH)
        }
        pty.resize(to: Size(width: 100, height: 30))
        kill(getpid(), SIGWINCH)
        // Then the burst is coalesced and the last event carries the final size
        var sizes: [Size] = []
        while let event = backend.nextEvent(timeout: .milliseconds(500)) {
            if case .resize(let size) = event { sizes.append(size) }
        }
        #expect(!sizes.isEmpty && sizes.count < 200)
        #expect(sizes.last == Size(width: 100, height: 30))
        #expect(backend.size == Size(width: 100, height: 30))
        // And a frame of the new size is drawn whole
        backend.draw(Buffer(size: backend.size), cursor: nil)
        #expect(backend.lastDrawCellCount == 3000)
    }

    @Test func aTinyTerminalStillDraws() async throws {
        let pty = try PseudoTerminal(size: Size(width: 3, height: 1))
        let backend = try makeBackend(pty)
        defer { backend.restore() }
        var frame = Buffer(size: backend.size)
        frame.write("terminal too small", x: 0, y: 0)
        backend.draw(frame, cursor: nil)
        #expect(await eventually { pty.writtenText.contains("te") })
    }

    @Test func restoreLeavesTheTerminalAsFoundAndASecondBackendCanStart() async throws {
        let pty = try PseudoTerminal()
        let backend = try makeBackend(pty, signals: true)
        #expect(throws: TerminalError.alreadyActive) { _ = try makeBackend(pty) }
        pty.clearWritten()
        backend.restore()
        backend.restore()  // idempotent
        #expect(await eventually { pty.writtenText.contains("\u{1B}[?2004l") })
        #expect(pty.writtenText.contains("\u{1B}[?1049l"))  // left the alternate screen
        #expect(pty.writtenText.contains("\u{1B}[?25h"))    // cursor visible again
        let second = try makeBackend(pty)
        second.restore()
    }

    /// The bytes a backend on `term` writes for one frame holding a green word on a grey bar.
    private func colouredFrameBytes(term: String, environment: [String: String] = [:]) async throws -> (String, ColorDepth) {
        let pty = try PseudoTerminal(size: Size(width: 40, height: 4))
        let backend = try CursesBackend(input: pty.replica, output: pty.replica, term: term,
                                        environment: environment.merging(["TERM": term]) { a, _ in a },
                                        handleSignals: false)
        defer { backend.restore() }
        var frame = Buffer(size: backend.size)
        frame.write("200 OK", x: 1, y: 1, style: Style(foreground: .rgb(135, 215, 95), background: .rgb(48, 48, 48)))
        pty.clearWritten()
        backend.draw(frame, cursor: nil)
        #expect(await eventually { pty.writtenText.contains("200 OK") })
        return (pty.writtenText, backend.colorDepth)
    }

    @Test func a256ColourTerminalGetsTheNearestPaletteColours() async throws {
        // Given xterm-256color, when a theme colour is drawn
        let (bytes, depth) = try await colouredFrameBytes(term: "xterm-256color")
        // Then the nearest of the 256 palette is written as a colour sequence (#87d75f is 113, #303030 is 236)
        #expect(depth == .indexed256)
        #expect(bytes.contains("38;5;113"), "no 256-colour foreground in \(bytes.debugDescription)")
        #expect(bytes.contains("48;5;236"), "no 256-colour background in \(bytes.debugDescription)")
    }

    @Test func an8ColourTerminalGetsTheNearestBasicColour() async throws {
        let (bytes, depth) = try await colouredFrameBytes(term: "xterm")
        #expect(depth == .indexed8)
        let green = ColorMapping.number(for: .rgb(135, 215, 95), depth: .indexed8)
        #expect(bytes.contains("\u{1B}[3\(green)"), "no basic foreground colour in \(bytes.debugDescription)")
        #expect(!bytes.contains("38;5;"))
    }

    @Test func noColorLeavesOnlyAttributes() async throws {
        let (bytes, depth) = try await colouredFrameBytes(term: "xterm-256color", environment: ["NO_COLOR": "1"])
        #expect(depth == .none)
        #expect(!bytes.contains("38;5;") && !bytes.contains("\u{1B}[3"))
    }

    @Test func aPipeIsNotATerminal() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        #expect(throws: TerminalError.notATerminal(fileDescriptor: fds[0])) {
            _ = try CursesBackend(input: fds[0], output: fds[1], handleSignals: false)
        }
    }
}
