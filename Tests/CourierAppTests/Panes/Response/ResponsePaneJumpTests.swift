import CourierBody
import Foundation
import Testing
@testable import CourierApp

/// Jumps to a line the index has not reached yet: the pane never waits for the whole body; it moves as
/// far as it knows and finishes the jump when the background index gets there.
@Suite("Response pane: jumps ahead of the index")
struct ResponsePaneJumpTests {
    /// A pretty-printed JSON array of `count` small records: about 6 pretty lines each.
    static func records(_ count: Int) -> String {
        "[" + (0..<count).map { #"{"id":\#($0),"name":"user \#($0)","tags":["a"]}"# }.joined(separator: ",") + "]"
    }

    @Test("go to line far past the index finishes once the background index reaches it")
    func goToLinePastTheIndexFinishesLater() {
        // Given a large JSON body whose pretty index has not been built
        var fixture = ResponsePaneFixture(Self.records(200_000))
        let target = 1_000_000
        // When the user asks for a line near the end
        _ = fixture.press(.beginGoToLine)
        fixture.type("\(target)")
        _ = fixture.press(.submit)
        let pretty = try! #require(fixture.pane.pretty)
        if let pending = fixture.pane.pendingLine {
            // Then either it is waiting for the index, showing how far it got, and says where it is going
            #expect(pending == target - 1)
            #expect(fixture.pane.cursor < target - 1)
            #expect(fixture.pane.message?.contains("line \(target)") == true)
            // And once the index is complete, the next tick finishes the jump
            pretty.indexAll()
            fixture.pane.advance()
        }
        #expect(fixture.pane.pendingLine == nil)
        #expect(fixture.pane.cursor == target - 1)
        #expect(fixture.pane.message == nil)
    }

    @Test("a key pressed while a jump waits cancels the jump")
    func aKeyCancelsAPendingJump() {
        // Given a jump to the end of a large unindexed body
        var fixture = ResponsePaneFixture(Self.records(200_000))
        _ = fixture.press(.end)
        // When the user moves before the index is done, then the index completes
        _ = fixture.press(.top)
        fixture.pane.pretty?.indexAll()
        fixture.pane.advance()
        // Then the view stays where the user went
        #expect(fixture.pane.cursor == 0)
        #expect(fixture.pane.pendingLine == nil)
    }
}

/// The pretty index built on a background thread while frames read lines ahead of it gives the same lines
/// as an index built alone.
@Suite("Pretty index built concurrently")
struct PrettyIndexConcurrencyTests {
    @Test("lines read while the background index runs equal those of a sequential index")
    func concurrentIndexMatchesSequential() async {
        // Given the same body in two documents, one indexed alone
        let data = Data(ResponsePaneJumpTests.records(30_000).utf8)
        let reference = PrettyJSONDocument(data: data)
        reference.indexAll()
        let document = PrettyJSONDocument(data: data)
        // When one task indexes while this one reads lines far ahead and behind the frontier
        let indexer = Task.detached { document.indexAll() }
        var seen: [Int: String] = [:]
        var probe = 7
        for _ in 0..<400 {
            probe = (probe * 7_919 + 13) % reference.lineCount
            seen[probe] = document.line(probe)
        }
        await indexer.value
        // Then the line count and every line read match the sequential index
        #expect(document.isComplete)
        #expect(document.lineCount == reference.lineCount)
        for (index, text) in seen { #expect(text == reference.line(index), "line \(index)") }
        for index in stride(from: 0, to: reference.lineCount, by: 997) { #expect(document.line(index) == reference.line(index)) }
    }
}
