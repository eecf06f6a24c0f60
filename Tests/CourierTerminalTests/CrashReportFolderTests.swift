import Foundation
import Testing
@testable import CourierTerminal

@Suite("Crash report folder: where reports go, their names and their pruning")
struct CrashReportFolderTests {
    @Test("The folder is under XDG_STATE_HOME when it is absolute, else under HOME, else there is none")
    func folderFollowsTheXDGRules() {
        // Given environments with and without XDG_STATE_HOME and HOME
        let xdg = ["XDG_STATE_HOME": "/tmp/state", "HOME": "/home/ada"]
        let relative = ["XDG_STATE_HOME": "state", "HOME": "/home/ada"]
        let homeOnly = ["HOME": "/home/ada/"]
        // When the folder is resolved
        // Then XDG_STATE_HOME wins when absolute, HOME is the fallback, and nothing is guessed otherwise
        #expect(CrashReportFolder.resolve(environment: xdg)?.path == "/tmp/state/courier/crashes")
        #expect(CrashReportFolder.resolve(environment: relative)?.path == "/home/ada/.local/state/courier/crashes")
        #expect(CrashReportFolder.resolve(environment: homeOnly)?.path == "/home/ada/.local/state/courier/crashes")
        #expect(CrashReportFolder.resolve(environment: [:]) == nil)
    }

    @Test("A report is named by the UTC start time and the pid, so names sort by time")
    func reportNamesCarryTimeAndPid() {
        // Given start times including a leap day and the epoch
        // When names and paths are made
        // Then they hold the compact UTC time and the pid
        #expect(CrashReportFolder.fileName(startedAt: 0, pid: 7) == "courier-19700101T000000Z-7.crash")
        #expect(CrashReportFolder.fileName(startedAt: 1_709_164_800, pid: 42) == "courier-20240229T000000Z-42.crash")
        #expect(CrashReportFolder(path: "/s/crashes").reportPath(startedAt: 1_795_985_069, pid: 9)
            == "/s/crashes/courier-20261129T204429Z-9.crash")
    }

    @Test("The handler creates the folder and each ancestor, outermost first")
    func foldersToCreateListEveryAncestor() {
        #expect(CrashReportFolder(path: "/a/b/c").foldersToCreate == ["/a", "/a/b", "/a/b/c"])
    }

    @Test("Pruning keeps the newest reports, leaves room for one more and never touches other files")
    func pruningKeepsTheNewestReports() throws {
        // Given a folder with 25 reports, a file that is not a report, and a report-like folder name elsewhere
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("crashes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: path) }
        let folder = CrashReportFolder(path: path.path)
        let names = (0..<25).map { CrashReportFolder.fileName(startedAt: 1_700_000_000 + $0 * 60, pid: 100 + Int32($0)) }
        for name in names.shuffled() {
            try Data("report".utf8).write(to: path.appendingPathComponent(name))
        }
        try Data("mine".utf8).write(to: path.appendingPathComponent("notes.txt"))
        // When the folder is pruned at start-up
        let removed = folder.prune()
        // Then the six oldest are gone, the 19 newest stay (20 after the next crash), and notes.txt stays
        #expect(removed == Array(names.prefix(6)))
        #expect(folder.reports() == Array(names.suffix(CrashReportPolicy.keptReports - 1)))
        #expect(FileManager.default.fileExists(atPath: path.appendingPathComponent("notes.txt").path))
        // And pruning again removes nothing
        #expect(folder.prune().isEmpty)
    }

    @Test("Pruning a folder that does not exist does nothing")
    func pruningAMissingFolderIsHarmless() {
        let folder = CrashReportFolder(path: "/nonexistent-\(UUID().uuidString)/crashes")
        #expect(folder.reports().isEmpty)
        #expect(folder.prune().isEmpty)
    }

    @Test("Signal-safe text formats numbers and UTC times without Foundation")
    func signalSafeTextFormats() {
        // Given a small preallocated buffer
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 64)
        defer { bytes.deallocate() }
        var text = SignalSafeText(buffer: bytes, capacity: 64)
        // When numbers and a time before 1970 are appended
        text.append(decimal: 7, width: 3)
        text.append(" ")
        text.append(decimal: -1_234)
        text.append(" ")
        text.append(utc: -1)
        text.append(" ")
        text.append(utc: 951_782_400)
        // Then they read as expected
        #expect(text.string == "007 -1234 1969-12-31T23:59:59Z 2000-02-29T00:00:00Z")
    }

    @Test("Signal-safe text drops what does not fit instead of writing past its buffer")
    func signalSafeTextIsBounded() {
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 4)
        defer { bytes.deallocate() }
        var text = SignalSafeText(buffer: bytes, capacity: 4)
        text.append("crash report")
        #expect(text.string == "cras")
    }
}
