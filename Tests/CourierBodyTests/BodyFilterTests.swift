import Foundation
import Testing
@testable import CourierBody

/// The background filter: progress over a body still arriving, the final document, cancel, invalid JSON.
@Suite struct BodyFilterTests {
    static func records(_ range: Range<Int>) -> String {
        range.map { #"{"id":\#($0),"age":\#(20 + $0 % 50)}"# }.joined(separator: ",")
    }

    /// Polls `condition` every 10 ms for at most 30 s (a bound, not a timing assertion).
    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<3_000 {
            if condition() { return true }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return condition()
    }

    @Test("Progress and the match count grow with the body, then the result is a pretty array of the matches")
    func progressThenResult() async throws {
        // Given the first half of a body that is still arriving
        let first = "[" + Self.records(0..<100) + ","
        let body = BodyDocument(data: Data(first.utf8), complete: false)
        // When `$..id` is filtered
        let filter = BodyFilter(try JSONPath("$..id"), body: body)
        // Then it reports the 100 ids of the first half and waits for the rest
        #expect(await Self.eventually { filter.matchCount == 100 })
        #expect(!filter.isFinished)
        #expect(filter.bytes == (first.utf8.count, first.utf8.count))
        #expect(filter.progress > 0.9)
        // When the rest arrives
        body.append(Data((Self.records(100..<150) + "]").utf8))
        body.finish()
        await filter.wait()
        // Then it finishes with every id, in order, as a pretty array
        #expect(filter.isFinished && filter.progress == 1)
        let output = try #require(filter.output)
        #expect(output.matches == 150)
        output.document.indexAll()
        #expect(output.document.lineCount == 152)
        #expect(output.document.line(1) == "  0,")
        #expect(output.document.line(150) == "  149")
    }

    @Test("Cancel stops a filter: it never finishes and wait returns")
    func cancelStops() async throws {
        // Given a filter waiting on a body that never completes
        let body = BodyDocument(data: Data(("[" + Self.records(0..<10)).utf8), complete: false)
        let filter = BodyFilter(try JSONPath("$[*].id"), body: body)
        #expect(await Self.eventually { filter.matchCount == 10 })
        // When it is cancelled
        filter.cancel()
        await filter.wait()
        // Then it has stopped without a result
        #expect(!filter.isFinished)
        #expect(filter.output == nil && filter.error == nil)
    }

    @Test("Dropping a running filter frees it, which stops its worker")
    func droppingStops() async throws {
        // Given a filter waiting on a body that never completes
        let body = BodyDocument(data: Data(("[" + Self.records(0..<10)).utf8), complete: false)
        weak var dropped: BodyFilter?
        do {
            let filter = BodyFilter(try JSONPath("$[*].id"), body: body)
            dropped = filter
            #expect(await Self.eventually { filter.matchCount == 10 })
        }
        // When nothing holds it any more (a new response replaced the pane)
        // Then it is freed: the worker does not keep it alive
        #expect(await Self.eventually { dropped == nil })
    }

    @Test("A body that is not JSON ends in the error with its byte offset")
    func invalidJSON() async throws {
        // Given a body broken after its first record
        let data = Data(#"[{"id":1},{"id":2"#.utf8 + Data(#"x]"#.utf8))
        // When it is filtered
        let filter = BodyFilter(try JSONPath("$..id"), data: data)
        await filter.wait()
        // Then the filter fails where the JSON does
        #expect(filter.isFinished)
        // (the number at byte 16 runs into a letter)
        #expect(filter.error == .invalidJSON(offset: 16, reason: "expected a number"))
        #expect(filter.output == nil)
    }

    @Test("A large body is filtered in steps, with the same matches as the tree evaluator")
    func largeBodyInSteps() async throws {
        // Given a body several steps long
        let data = Data(("[" + Self.records(0..<40_000) + "]").utf8)
        #expect(data.count > 3 * BodyFilter.stepBytes)
        // When a filter runs over it
        let path = try JSONPath("$[?(@.age > 60)].id")
        let filter = BodyFilter(path, data: data)
        await filter.wait()
        // Then it matches what the tree evaluator selects
        let expected = path.evaluate(try JSONValue.parse(data))
        #expect(filter.output?.matches == expected.count)
        let document = try #require(filter.output?.document)
        #expect(try JSONValue.parse(document.bytes) == .array(expected.map(\.value)))
    }
}
