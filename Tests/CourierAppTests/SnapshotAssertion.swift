import CourierApp
import CourierTerminal
import Foundation
import Testing

/// Golden screens stored as text under `Snapshots/`. A missing golden is written from the current
/// screen (commit it after reading it); `COURIER_RECORD_SNAPSHOTS=1` rewrites them all.
enum Snapshot {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")

    /// Draws `state` through the test backend, the way the run loop does, and returns the screen's lines.
    static func screen(_ state: AppState) -> [String] {
        let backend = TestBackend(size: state.size)
        let (buffer, cursor) = Screen.render(state)
        backend.draw(buffer, cursor: cursor)
        return backend.lines
    }

    static func assert(_ state: AppState, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = screen(state)
        let text = lines.joined(separator: "\n") + "\n"
        let file = folder.appendingPathComponent(name + ".txt")
        let record = ProcessInfo.processInfo.environment["COURIER_RECORD_SNAPSHOTS"] == "1"
        guard !record, let golden = try? String(contentsOf: file, encoding: .utf8) else {
            try? text.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        if golden != text {
            let expected = golden.split(separator: "\n", omittingEmptySubsequences: false)
            let firstDifference = zip(expected, lines).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(expected.count, lines.count)
            Issue.record("""
                Screen differs from \(name).txt at row \(firstDifference):
                \(text)
                """, sourceLocation: sourceLocation)
        }
    }

    /// Compares one pane's drawing with its golden; a missing golden is written and reported, so a new
    /// pane snapshot is read before it is trusted.
    static func assert(_ buffer: Buffer, named name: String, pane: String,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let file = folder.appendingPathComponent(name + ".txt")
        let text = buffer.lines().joined(separator: "\n") + "\n"
        let record = ProcessInfo.processInfo.environment["COURIER_RECORD_SNAPSHOTS"] == "1"
        guard !record, let golden = try? String(contentsOf: file, encoding: .utf8) else {
            try? text.write(to: file, atomically: true, encoding: .utf8)
            Issue.record("Recorded \(name).txt; read it and run again", sourceLocation: sourceLocation)
            return
        }
        #expect(golden == text, "\(pane) differs from \(name).txt:\n\(text)", sourceLocation: sourceLocation)
    }
}
