import CourierTestSupport
import Foundation
import Testing

/// No collection is ever lost or mixed: `courier import curl … -o FILE` (which saves the collection
/// through the same writer as the explorer) is SIGKILLed at random points while saving, and the file
/// is always exactly the old or the new version; an explorer holding a file that another program
/// changed refuses to save over that change.
@Suite(.serialized, .enabled(if: Reliability.hasCourier, "the courier binary is not built"))
struct DataLossTests {
    /// A collection big enough (about 400 KB) that saving it takes a while, so kills land mid-write.
    static func bigCollection() -> String {
        var text = "# A collection with many requests; every one must survive a crash while saving.\n\n"
        for index in 0..<1_500 {
            text += "### Request \(index)\n# @name r\(index)\nGET https://example.com/items/\(index)?page=\(index % 7)\n"
            text += "Accept: application/json\nX-Trace: \(String(repeating: "t", count: 200))\n\n"
        }
        return text
    }

    static let importedCommand = "curl -X POST https://example.com/orders -H 'Content-Type: application/json' -d '{\"n\":1}'"

    @Test("SIGKILL at random points while saving leaves the collection exactly old or exactly new")
    func killWhileSavingLeavesOldOrNew() async throws {
        // Given a big collection file, and the content a complete save produces
        let folder = try Reliability.temporaryFolder("dataloss")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.http")
        let old = Data(Self.bigCollection().utf8)
        try old.write(to: file)
        let arguments = ["import", "curl", Self.importedCommand, "--name", "order", "-o", file.path]
        let environment = ["XDG_STATE_HOME": folder.appendingPathComponent("state").path,
                           "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path]
        // The shortest of three complete runs, each started directly (not queued behind other tests' children):
        // on a loaded machine one run can take many times another, and kills must land inside a save.
        var fullRun = Duration.seconds(3600)
        for _ in 0..<3 {
            try old.write(to: file)
            let started = ContinuousClock.now
            let child = try ChildProcess(Reliability.courier, arguments, environment: environment, in: folder)
            let status = await child.finish(limit: .seconds(300))
            fullRun = min(fullRun, ContinuousClock.now - started)
            try #require(status == 0, "\(child.stderr.text)")
        }
        let new = try Data(contentsOf: file)
        try #require(new != old && new.count > old.count)

        // When the save is killed with SIGKILL at random moments, many times
        let rounds = Reliability.longTests ? 200 : 30
        var outcomes = (old: 0, new: 0)
        for round in 0..<rounds {
            try old.write(to: file)
            let child = try ChildProcess(Reliability.courier, arguments, environment: environment, in: folder)
            // Killed (its group, which is only itself) at the delay, unless it ends first.
            let delay = fullRun * Double.random(in: 0...1.1)
            _ = await child.finish(limit: delay)

            // Then the file is byte for byte one of the two versions
            let now = try Data(contentsOf: file)
            if now == old { outcomes.old += 1 } else if now == new { outcomes.new += 1 } else {
                Issue.record("round \(round), killed after \(delay): the file is neither old nor new (\(now.count) bytes)")
            }
        }
        // And no temporary file is left in the way of the next save by a finished run
        print("data loss: \(rounds) SIGKILLs while saving: \(outcomes.old) old, \(outcomes.new) new, 0 mixed")
        #expect(outcomes.old + outcomes.new == rounds)
    }

    @Test("The explorer detects a file changed on disk by another program and does not save over it",
          .enabled(if: Reliability.hasTmux, "tmux is not installed (make deps installs it)"))
    func explorerRefusesToOverwriteAnOutsideChange() async throws {
        // Given the explorer on a small collection
        let folder = try Reliability.temporaryFolder("dataloss-tmux")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("api.http")
        try "### Users\n# @name users\nGET https://example.com/users\n\n### Orders\nGET https://example.com/orders\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let session = try await ReliabilityTmux(command: "cd '\(folder.path)' && XDG_STATE_HOME='\(folder.path)/state' "
            + "XDG_CACHE_HOME='\(folder.path)/cache' TERM=tmux-256color '\(Reliability.courier.path)' api.http")
        defer { session.kill() }
        #expect(await session.waitFor("Collection"), "\(session.lastScreen)")

        // When the user opens a request and changes its method, another program edits the file, and the user saves
        #expect(await session.open("users", steps: 0), "\(session.lastScreen)")
        #expect(await session.waitFor("GET https://example.com/users"), "\(session.lastScreen)")
        await session.send("m")
        try await Task.sleep(for: .milliseconds(200))
        let outside = "# edited by another program\n" + (try String(contentsOf: file, encoding: .utf8))
        try outside.write(to: file, atomically: true, encoding: .utf8)
        await session.send("C-s")

        // Then the explorer says the file changed on disk, and the other program's edit is still there
        let warned = await Reliability.eventually(limit: 10) { await session.screen().lowercased().contains("changed on disk") }
        #expect(warned, "\(session.lastScreen)")
        #expect(try String(contentsOf: file, encoding: .utf8) == outside)
    }
}
