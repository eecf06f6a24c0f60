import Foundation
import Testing
import CourierTerminal

/// Compares a buffer's text grid with a golden file under `Snapshots/`. A missing golden is
/// written (and the test fails so a person looks at it); `COURIER_RECORD_SNAPSHOTS=1` rewrites all.
func expectSnapshot(_ buffer: Buffer, named name: String, filePath: String = #filePath,
                    sourceLocation: SourceLocation = #_sourceLocation) {
    let folder = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    let file = folder.appendingPathComponent("\(name).txt")
    let actual = buffer.lines().joined(separator: "\n") + "\n"
    let record = ProcessInfo.processInfo.environment["COURIER_RECORD_SNAPSHOTS"] == "1"
    if record || !FileManager.default.fileExists(atPath: file.path) {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? actual.write(to: file, atomically: true, encoding: .utf8)
        Issue.record("Recorded snapshot \(name); check it and run again", sourceLocation: sourceLocation)
        return
    }
    let expected = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    #expect(actual == expected, "snapshot \(name) differs:\n\(actual)", sourceLocation: sourceLocation)
}
