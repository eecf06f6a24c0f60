import Foundation
import Synchronization
import Testing
@testable import CourierCollections

/// Script threads are kept for the next script, but each call still gets a thread to itself while it runs.
@Suite struct KeptThreadsTests {
    /// The kernel's id of the calling thread (`/proc/thread-self` links to `PID/task/TID`).
    static func threadID() -> Int32 {
        let link = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? ""
        return Int32(link.split(separator: "/").last ?? "") ?? -1
    }

    static func comm() -> String {
        ((try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func oneCallAfterAnotherRunsOnAThreadKeptFromTheFirst() async {
        var seen = Set<Int32>()
        for _ in 0..<20 {
            let id = await OwnThread.run(named: "courier.test") { _ in Self.threadID() }
            seen.insert(id)
        }
        // Other suites running meanwhile may take a kept thread, so not always one: far fewer than twenty
        #expect(seen.count < 10, "\(seen.count) threads for 20 calls in a row")
    }

    @Test func eachCallIsNamedAsAskedOnWhateverThreadItRuns() async {
        let first = await OwnThread.run(named: "courier.one") { _ in Self.comm() }
        let second = await OwnThread.run(named: "courier.two") { _ in Self.comm() }
        #expect(first == "courier.one")
        #expect(second == "courier.two")
    }

    final class Started: Sendable {
        let count = Mutex(0)
    }

    @Test func callsThatRunTogetherEachHaveAThreadAndNoneWaitsBehindAnother() async {
        // Given eight calls that each wait until all eight have started
        let started = Started()
        let ids = await withTaskGroup(of: Int32.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await OwnThread.run(named: "courier.test") { _ in
                        started.count.withLock { $0 += 1 }
                        let deadline = Date().addingTimeInterval(30)
                        while started.count.withLock({ $0 }) < 8 && Date() < deadline { usleep(1_000) }
                        return Self.threadID()
                    }
                }
            }
            return await group.reduce(into: Set<Int32>()) { $0.insert($1) }
        }
        // Then they all ran at once, on eight threads
        #expect(started.count.withLock { $0 } == 8)
        #expect(ids.count == 8)
    }
}
