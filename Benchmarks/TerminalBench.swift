import CourierTerminal
import Foundation

/// Drawing figures: what a frame costs when one line of a 200×60 screen changes, against repainting the
/// whole screen (the reference, measured in the same run): bytes the curses backend writes to a
/// pseudo-terminal, cells it writes, and the time to build, diff and draw a frame.
enum TerminalBench {
    static let size = Size(width: 200, height: 60)

    static func run(frames: Int = 300) {
        print("== terminal: one changed line per frame on a 200x60 screen (ratio = full repaint / diffed)")
        guard let pty = try? PseudoTerminal(size: size),
              let backend = try? CursesBackend(input: pty.replica, output: pty.replica, term: "xterm-256color",
                                               environment: ["TERM": "xterm-256color"], handleSignals: false) else {
            print("terminal: no pseudo-terminal available, skipped")
            return
        }
        defer { backend.restore() }
        let lines = (0..<5_000).map { StyledLine("line \($0): {\"id\": \($0), \"name\": \"user \($0)\", \"ok\": true}") }
        func frame(_ counter: Int) -> Buffer {
            var buffer = Buffer(size: size)
            let parts = buffer.area.split(.vertical, [.fill(1), .length(1)])
            let block = Block(title: "Response", rightTitle: "200 OK", borders: .thick)
            block.render(into: &buffer, area: parts[0])
            TextView(lines: lines, lineNumbers: true).render(into: &buffer, area: block.inner(parts[0]),
                                                             state: TextViewState(top: 100))
            StatusBar(hints: [KeyHint("Enter", "send"), KeyHint("?", "help")], message: StyledLine("frame \(counter)"))
                .render(into: &buffer, area: parts[1])
            return buffer
        }
        // Reference: the first frame is written whole.
        waitForOutput(pty)
        pty.clearWritten()
        let fullStart = ContinuousClock.now
        backend.draw(frame(0), cursor: nil)
        let fullTime = ContinuousClock.now - fullStart
        let fullCells = backend.lastDrawCellCount
        waitForOutput(pty)
        let fullBytes = pty.written.count
        pty.clearWritten()
        var cells = 0
        let start = ContinuousClock.now
        for counter in 1...frames {
            backend.draw(frame(counter), cursor: nil)
            cells += backend.lastDrawCellCount
        }
        let diffedTime = (ContinuousClock.now - start) / frames
        waitForOutput(pty)
        let bytes = Double(pty.written.count) / Double(frames)
        print(String(format: "full repaint: %d cells, %d bytes, %.2f ms", fullCells, fullBytes, ms(fullTime)))
        print(String(format: "changed line: %.1f cells, %.1f bytes, %.3f ms per frame (build + diff + draw)",
                     Double(cells) / Double(frames), bytes, ms(diffedTime)))
        print(String(format: "ratio bytes %.0fx, cells %.0fx", Double(fullBytes) / max(1, bytes),
                     Double(fullCells) / max(1, Double(cells) / Double(frames))))
    }

    /// Lets the pseudo-terminal's reader catch up (bounded).
    static func waitForOutput(_ pty: PseudoTerminal) {
        var last = -1
        for _ in 0..<100 {
            let count = pty.written.count
            if count == last { return }
            last = count
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    static func ms(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
