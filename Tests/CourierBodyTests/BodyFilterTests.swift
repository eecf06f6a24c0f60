import CourierTestSupport
import Foundation
import Synchronization
import Testing
@testable import CourierBody

/// The filter as its body job runs it: progress over a body still arriving, the final document, cancel,
/// invalid JSON.
@Suite struct BodyFilterTests {
    static func records(_ range: Range<Int>) -> String {
        range.map { #"{"id":\#($0),"age":\#(20 + $0 % 50)}"# }.joined(separator: ",")
    }

    /// Polls `condition` every 10 ms for at most 30 s (a bound, not a timing assertion).
    static func eventually(_ condition: () -> Bool) async -> Bool {
        let end = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < end {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return condition()
    }

    /// What a filter running on a thread of its own (as the explorer's runner runs it) reported, and its stop switch.
    final class Steps: Sendable {
        let last = Mutex<BodyFilter.Progress?>(nil)
        let stop = Atomic<Bool>(false)
        var progress: BodyFilter.Progress? { last.withLock { $0 } }
    }

    static func start(_ filter: BodyFilter, over body: BodyDocument,
                      _ steps: Steps) -> Task<Result<BodyFilter.Output, BodyError>?, Never> {
        // On a thread of its own: a filter waiting for a body still arriving must not hold the pool's threads.
        Task.detached {
            await OwnThread.run {
                filter.run(over: body, isCancelled: { steps.stop.load(ordering: .relaxed) }) { step in
                    steps.last.withLock { $0 = step }
                }
            }
        }
    }

    static func filter(_ expression: String, _ data: Data) throws -> Result<BodyFilter.Output, BodyError>? {
        BodyFilter(try JSONPath(expression)).run(over: BodyDocument(data: data), isCancelled: { false }) { _ in }
    }

    @Test("Progress and the match count grow with the body, then the result is a pretty array of the matches")
    func progressThenResult() async throws {
        // Given the first half of a body that is still arriving
        let first = "[" + Self.records(0..<100) + ","
        let body = BodyDocument(data: Data(first.utf8), complete: false)
        // When `$..id` is filtered
        let steps = Steps()
        let running = Self.start(BodyFilter(try JSONPath("$..id")), over: body, steps)
        // Then it reports the 100 ids of the first half and waits for the rest
        #expect(await Self.eventually { steps.progress?.matches == 100 })
        #expect(steps.progress == BodyFilter.Progress(scanned: first.utf8.count, total: first.utf8.count, matches: 100))
        // When the rest arrives
        body.append(Data((Self.records(100..<150) + "]").utf8))
        body.finish()
        let outcome = await running.value
        // Then it finishes with every id, in order, as a pretty array
        let output = try #require(try outcome?.get())
        #expect(output.matches == 150)
        #expect(output.document.isComplete)
        #expect(output.document.lineCount == 152)
        #expect(output.document.line(1) == "  0,")
        #expect(output.document.line(150) == "  149")
    }

    @Test("Cancel stops a filter: it returns no result")
    func cancelStops() async throws {
        // Given a filter waiting on a body that never completes
        let body = BodyDocument(data: Data(("[" + Self.records(0..<10)).utf8), complete: false)
        let steps = Steps()
        let running = Self.start(BodyFilter(try JSONPath("$[*].id")), over: body, steps)
        #expect(await Self.eventually { steps.progress?.matches == 10 })
        // When it is cancelled
        steps.stop.store(true, ordering: .relaxed)
        // Then it stops without a result
        #expect(await running.value == nil)
    }

    @Test("A body that is not JSON ends in the error with its byte offset")
    func invalidJSON() throws {
        // Given a body broken after its first record
        let data = Data(#"[{"id":1},{"id":2"#.utf8 + Data(#"x]"#.utf8))
        // When it is filtered
        let outcome = try Self.filter("$..id", data)
        // Then the filter fails where the JSON does (the number at byte 16 runs into a letter)
        guard case .failure(let error)? = outcome else { Issue.record("no error: \(String(describing: outcome))"); return }
        #expect(error == .invalidJSON(offset: 16, reason: "expected a number"))
    }

    @Test("A large body is filtered in steps, with the same matches as the tree evaluator")
    func largeBodyInSteps() throws {
        // Given a body several steps long
        let data = Data(("[" + Self.records(0..<40_000) + "]").utf8)
        #expect(data.count > 3 * BodyFilter.stepBytes)
        // When a filter runs over it
        let path = try JSONPath("$[?(@.age > 60)].id")
        var reports = 0
        let outcome = BodyFilter(path).run(over: BodyDocument(data: data), isCancelled: { false }) { _ in reports += 1 }
        // Then it reported each step and matches what the tree evaluator selects
        #expect(reports > 3)
        let expected = path.evaluate(try JSONValue.parse(data))
        let output = try #require(try outcome?.get())
        #expect(output.matches == expected.count)
        #expect(try JSONValue.parse(output.document.bytes) == .array(expected.map(\.value)))
    }
}
