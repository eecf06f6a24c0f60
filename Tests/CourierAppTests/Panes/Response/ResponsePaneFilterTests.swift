import CourierBody
import CourierTerminal
import Foundation
import Testing
@testable import CourierApp

extension ResponsePaneFixture {
    /// Waits (a bounded poll, up to 30 s) for the filter's job to report its result, and gives it to the pane
    /// as the run loop does with the action.
    mutating func finishFilter() async { await finishJobs() }
}

/// The Response pane's filter runs in the background: progress on the bottom line, then the result.
@Suite struct ResponsePaneFilterTests {
    static func records(_ range: Range<Int>) -> String {
        range.map { #"{"id":\#($0),"age":\#(20 + $0 % 50)}"# }.joined(separator: ",")
    }

    static func pane(_ body: BodyDocument) -> ResponsePaneFixture {
        var fixture = ResponsePaneFixture("{}")
        fixture.pane = ResponsePaneState(info: ResponsePaneInfo(status: 200, reason: "OK",
                                                                headers: [.init("Content-Type", "application/json")]),
                                         body: body)
        return fixture
    }

    @Test("Submitting a filter shows its progress and match count, then the matches replace the body")
    func progressThenResult() async throws {
        // Given a JSON body of 100 records still arriving, cut inside a long string after them
        let head = "[" + Self.records(0..<100) + ","
        let cut = head + "\"" + String(repeating: "x", count: 2_000)
        let body = BodyDocument(data: Data(cut.utf8), complete: false)
        var fixture = Self.pane(body)
        // When `$..id` is submitted
        _ = fixture.press(.beginFilter)
        fixture.type("..id")
        _ = fixture.press(.submit)
        // Then the bottom line counts the 100 ids read so far and the share of the bytes read
        #expect(fixture.pane.isWorking)
        #expect(await fixture.eventually { $0.filtering?.progress.matches == 100 })
        #expect(await fixture.eventually { $0.filtering?.progress.scanned == head.utf8.count })
        let percent = head.utf8.count * 100 / cut.utf8.count
        #expect(fixture.screen(width: 60)[9].hasPrefix("│filtering \(percent)% · 100 matches · Esc cancels  "))
        #expect(fixture.bodyRows().first == "[")
        // When the rest arrives and the filter finishes
        body.append(Data(("\"," + Self.records(100..<1_500) + "]").utf8))
        body.finish()
        await fixture.finishFilter()
        // Then the ids replace the body, with the count on the tab line
        #expect(fixture.pane.filtering == nil)
        #expect(fixture.bodyRows() == ["[", "  0,", "  1,", "  2,", "  3,", "  4,"])
        #expect(fixture.screen(width: 60)[2].contains("filter $..id · 1,500 matches"))
    }

    @Test("Esc cancels a running filter and returns to the body")
    func escapeCancels() async throws {
        // Given a filter running over a body that has not finished arriving
        let body = BodyDocument(data: Data(("[" + Self.records(0..<10)).utf8), complete: false)
        var fixture = Self.pane(body)
        _ = fixture.press(.beginFilter, .input("$"))
        _ = fixture.press(.submit)
        let running = try #require(fixture.pane.filtering)
        #expect(fixture.pane.runningJobs == [running.generation])
        // When Esc is pressed
        _ = fixture.press(.clear)
        // Then the filter's job is no longer waited for (the fixture cancels it, as the app does), the bottom
        // line no longer shows it, and the body is on screen
        #expect(fixture.pane.runningJobs.isEmpty)
        #expect(fixture.pane.filtering == nil)
        #expect(!fixture.screen()[9].contains("filtering"))
        #expect(fixture.bodyRows().first == "[")
    }

    @Test("A new filter cancels the one still running")
    func aNewFilterCancelsTheOld() async throws {
        // Given a filter running over a body still arriving
        let body = BodyDocument(data: Data(("[" + Self.records(0..<10) + ",").utf8), complete: false)
        var fixture = Self.pane(body)
        _ = fixture.press(.beginFilter)
        fixture.type("..id")
        _ = fixture.press(.submit)
        let first = try #require(fixture.pane.filtering)
        #expect(await fixture.eventually { $0.filtering?.progress.matches == 10 })
        // When another expression is submitted
        _ = fixture.press(.beginFilter)
        fixture.type("[0]")
        _ = fixture.press(.submit)
        // Then the pane waits for the second only; a late report of the first is dropped
        let second = try #require(fixture.pane.filtering)
        #expect(second.generation != first.generation && fixture.pane.runningJobs == [second.generation])
        let applied = fixture.pane.apply(.filtering(generation: first.generation, .init(scanned: 1, total: 1, matches: 99)))
        #expect(!applied)
        #expect(fixture.pane.filtering?.progress.matches != 99)
        // And only the second finishes once the body is complete
        body.append(Data((Self.records(10..<20) + "]").utf8))
        body.finish()
        await fixture.finishFilter()
        #expect(fixture.screen(width: 80)[2].contains("filter $[0] · 1 match"))
        #expect(fixture.bodyRows() == ["[", "  {", #"    "id": 0,"#, #"    "age": 20"#, "  }", "]"])
    }

    @Test("A body that is not JSON ends the filter with the error on the bottom line")
    func invalidBody() async throws {
        // Given a JSON response whose body breaks after a record
        var fixture = ResponsePaneFixture(#"[{"id":1},{"id":2 x]"#)
        // When a filter runs to the end
        _ = fixture.press(.beginFilter)
        fixture.type("..id")
        _ = fixture.press(.submit)
        await fixture.finishFilter()
        // Then the bottom line says where the JSON is broken, and the body stays
        #expect(fixture.pane.message == "invalid JSON at byte 18: expected ',' or '}'")
        #expect(fixture.pane.filter == nil)
    }

    @Test("Match counts are written with thousands separators")
    func grouping() {
        #expect(ResponsePaneState.grouped(0) == "0")
        #expect(ResponsePaneState.grouped(1_204) == "1,204")
        #expect(ResponsePaneState.grouped(12_345_678) == "12,345,678")
    }
}
