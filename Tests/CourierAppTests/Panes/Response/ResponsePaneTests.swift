import CourierBody
import CourierTerminal
import CourierTestSupport
import Foundation
import Synchronization
import Testing
@testable import CourierApp

/// The body jobs a fixture started, each run on a task of its own as the effect runner runs it, and the
/// reports they posted that the pane has not been given yet.
final class FixtureJobs: Sendable {
    private let reports = Mutex<[BodyJobReport]>([])
    private let tasks = Mutex<[Int: Task<Void, Never>]>([:])

    func start(_ job: BodyJob) {
        tasks.withLock { tasks in
            // On a thread of its own, as the explorer's runner runs it: a job waiting for a body still
            // arriving must not hold the pool's threads.
            tasks[job.generation] = Task.detached { [self] in
                await OwnThread.run(cancellable: { isCancelled in
                    job.run(isCancelled: isCancelled) { report in self.reports.withLock { $0.append(report) } }
                })
            }
        }
    }

    func cancel(_ generation: Int) { tasks.withLock { $0.removeValue(forKey: generation) }?.cancel() }

    func drain() -> [BodyJobReport] { reports.withLock { reports in defer { reports = [] }; return reports } }
}

/// Builds a pane over a JSON body and renders it as a text grid.
struct ResponsePaneFixture {
    var pane: ResponsePaneState
    let jobs = FixtureJobs()
    private var generation = 0

    init(_ body: String, contentType: String = "application/json", status: Int = 200) {
        let info = ResponsePaneInfo(status: status, reason: "OK", duration: 0.042, cacheDecision: "miss",
                                    headers: [.init("Content-Type", contentType), .init("ETag", "\"v1\"")])
        pane = ResponsePaneState(info: info, body: BodyDocument(data: Data(body.utf8)))
        pane.pageSize = 6
    }

    init(data: Data, contentType: String) {
        pane = ResponsePaneState(info: ResponsePaneInfo(status: 200, reason: "OK", headers: [.init("Content-Type", contentType)]),
                                 body: BodyDocument(data: data))
        pane.pageSize = 6
    }

    func screen(width: Int = 44, height: Int = 11, focused: Bool = false) -> [String] {
        var buffer = Buffer(size: Size(width: width, height: height))
        let area = Rect(x: 0, y: 0, width: width, height: height)
        ResponsePaneView.draw(ShownResponse(pane), RenderContext(focused: focused, area: area), into: &buffer)
        return buffer.lines()
    }

    /// Body rows only (between the tab line and the bottom line), without the border.
    func bodyRows(width: Int = 44, height: Int = 11) -> [String] {
        screen(width: width, height: height).dropFirst(3).dropLast(2).map { row in
            var text = String(row.dropFirst())
            if text.hasSuffix("│") { text.removeLast() }
            while text.last == " " { text.removeLast() }
            return text
        }.reversed().drop { $0.isEmpty }.reversed()
    }

    /// Applies commands as the app does: a search or filter gets a generation and its job starts; a job the
    /// pane stops waiting for is cancelled.
    mutating func press(_ commands: ResponsePaneCommand...) -> ResponsePaneEffect? {
        var effect: ResponsePaneEffect?
        for command in commands {
            let before = Set(pane.runningJobs)
            let next = pane.handle(command)
            switch next {
            case .search(let search)?: generation += 1; jobs.start(pane.begin(search, generation: generation))
            case .filter(let filter)?: generation += 1; jobs.start(pane.begin(filter, generation: generation))
            default: break
            }
            for gone in before.subtracting(pane.runningJobs) { jobs.cancel(gone) }
            effect = next ?? effect
        }
        return effect
    }

    /// Gives the pane the reports its jobs posted so far, as the run loop does with their actions.
    mutating func applyReports() { for report in jobs.drain() { _ = pane.apply(report) } }

    /// Applies reports every 10 ms until `condition` holds (at most 30 s: a bound, not a timing assertion).
    mutating func eventually(_ condition: (ResponsePaneState) -> Bool) async -> Bool {
        let end = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < end {
            applyReports()
            if condition(pane) { return true }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return condition(pane)
    }

    /// Waits (bounded) until the pane waits for no search or filter job, applying their reports.
    mutating func finishJobs() async {
        _ = await eventually { $0.filtering == nil && $0.search?.isFinished != false }
    }

    mutating func type(_ text: String) { for character in text { _ = pane.handle(.input(character)) } }
}

@Suite struct ResponsePaneTests {
    static let users = #"{"users":[{"id":1,"name":"Ada","age":36},{"id":2,"name":"Brian","age":25}],"total":2}"#

    @Test func aJSONResponseShowsStatusTabsAndPrettyBody() {
        let fixture = ResponsePaneFixture(Self.users)
        #expect(fixture.screen() == [
            "╭─ 3 Response · body ──────────────────────╮",
            "│200 OK · 42 ms · 85 B · miss              │",
            "│ Body   Headers (2)   pretty         L1/15│",
            "│{                                         │",
            #"│  "users": [                              │"#,
            "│    {                                     │",
            #"│      "id": 1,                            │"#,
            #"│      "name": "Ada",                      │"#,
            #"│      "age": 36                           │"#,
            "│                                          │",
            "╰──────────────────────────────────────────╯",
        ])
    }

    @Test func theEndOfALargeMinifiedBodyAndAnyLineAreReachedDirectly() async {
        // Given a one-line JSON array of 100,000 objects, indexed in the background
        var fixture = ResponsePaneFixture("[" + (0..<100_000).map { #"{"id":\#($0)}"# }.joined(separator: ",") + "]")
        if let job = fixture.pane.beginIndexing(generation: 1) { job.run(isCancelled: { false }) { _ in } }
        // When jumping to the end
        _ = fixture.press(.end)
        // Then the last lines are on screen
        #expect(fixture.bodyRows() == ["    \"id\": 99998", "  },", "  {", "    \"id\": 99999", "  }", "]"])
        // When going to a line in the middle
        _ = fixture.press(.beginGoToLine)
        fixture.type("150003")
        _ = fixture.press(.submit)
        #expect(fixture.pane.cursor == 150_002)
        #expect(fixture.bodyRows().first == "    \"id\": 50000")
        #expect(fixture.pane.source.line(150_002) == "    \"id\": 50000")
    }

    @Test func searchHighlightsMatchesAndJumpsBetweenThem() async throws {
        var fixture = ResponsePaneFixture(Self.users)
        _ = fixture.press(.beginSearch)
        fixture.type("name")
        _ = fixture.press(.submit)
        // Wait (bounded) for the search job to finish.
        await fixture.finishJobs()
        #expect(fixture.pane.search?.hits.all.map(\.line) == [4, 9])
        // Enter went to the first match
        #expect(fixture.pane.cursor == 4)
        _ = fixture.press(.nextHit)
        #expect(fixture.pane.cursor == 9)
        _ = fixture.press(.nextHit)
        #expect(fixture.pane.cursor == 4)
        _ = fixture.press(.previousHit)
        _ = fixture.press(.previousHit)
        #expect(fixture.pane.cursor == 4)
        #expect(fixture.screen(width: 70)[2].contains("pretty · 1/2 matches"))
        var buffer = Buffer(size: Size(width: 44, height: 11))
        ResponsePaneView.draw(ShownResponse(fixture.pane),
                              RenderContext(focused: true, area: Rect(x: 0, y: 0, width: 44, height: 11)), into: &buffer)
        let row = (0..<11).first { buffer.lines()[$0].contains("\"name\": \"Ada\"") }!
        #expect(buffer[8, row].style == Theme.dark.searchCurrent)
    }

    @Test func foldingAnObjectShowsOneLineWithTheCountOfHiddenLines() {
        var fixture = ResponsePaneFixture(Self.users)
        _ = fixture.press(.lineDown, .toggleFold)
        #expect(fixture.bodyRows() == ["{", #"  "users": [ … ]  (10 lines folded)"#, #"  "total": 2"#, "}"])
        _ = fixture.press(.lineDown)
        #expect(fixture.pane.cursor == 13)
        _ = fixture.press(.lineUp, .toggleFold)
        #expect(fixture.bodyRows().count == 6)
    }

    @Test func theJSONPathFilterReplacesTheViewUntilCleared() async {
        var fixture = ResponsePaneFixture(Self.users)
        _ = fixture.press(.beginFilter)
        fixture.type(".users[?(@.age > 30)].name")
        _ = fixture.press(.submit)
        await fixture.finishFilter()
        #expect(fixture.bodyRows() == ["[", #"  "Ada""#, "]"])
        #expect(fixture.screen(width: 80)[2].contains("filter $.users[?(@.age > 30)].name · 1 match"))
        _ = fixture.press(.clear)
        #expect(fixture.bodyRows().first == "{")
        _ = fixture.press(.beginFilter)
        fixture.type("[")
        _ = fixture.press(.submit)
        // The whole error, wrapped over the body's last rows rather than cut at the pane's edge
        let bottom = fixture.screen()[7...9].joined(separator: "\n")
        #expect(bottom.contains("JSONPath") && bottom.contains("filter at offset 2"), "\(bottom)")
    }

    @Test func copyPathGivesTheJSONPathOfTheValueUnderTheCursor() {
        var fixture = ResponsePaneFixture(Self.users)
        _ = fixture.press(.lineDown, .lineDown, .lineDown, .lineDown)
        #expect(fixture.press(.copyPath) == .copy("$.users[0].name"))
        #expect(fixture.screen()[9].contains("Copied $.users[0].name"))
    }

    @Test func hostileContentIsDrawnAsVisibleSymbolsNeverAsEscapes() {
        let hostile = "title\u{1B}]0;pwned\u{07} clip\u{1B}]52;c;ZXZpbA==\u{07} move\u{1B}[2J c1\u{9B}31m bidi\u{202E}x\n"
            + String(repeating: "L", count: 10_000)
        var fixture = ResponsePaneFixture(hostile, contentType: "text/plain")
        fixture.pane.wrap = true
        let text = fixture.screen(width: 60, height: 8).joined(separator: "\n")
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B || $0.value == 0x202E })
        #expect(text.contains("␛]0;pwned␇"))
        #expect(text.contains("LLLL"))
    }

    @Test func invalidUTF8AndBinaryBodiesStayVisible() {
        let fixture = ResponsePaneFixture(data: Data([0x61, 0xFF, 0x62]), contentType: "text/plain")
        #expect(fixture.bodyRows().first == "a\u{FFFD}b")
        var png = ResponsePaneFixture(data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]), contentType: "image/png")
        #expect(png.screen(width: 90)[1].contains("image/png, 12 B"))
        #expect(png.bodyRows(width: 90).first == "00000000  89 50 4e 47 0d 0a 1a 0a  00 00 00 0d              |.PNG........|")
        _ = png.press(.toggleHex)
        #expect(png.bodyRows(width: 90).first == "image/png, 12 B: press x for hex, s to save")
        #expect(png.press(.saveBody) == .saveBody)
    }

    @Test func eventStreamsShowOneBlockPerEvent() {
        let fixture = ResponsePaneFixture("event: tick\ndata: 1\n\ndata: two\n\n", contentType: "text/event-stream")
        #expect(fixture.bodyRows() == ["#1 tick", "  1", "#2 message", "  two"])
    }

    @Test func theDiffAgainstThePreviousResponseShowsStatusHeadersAndChangedLines() {
        let previous = ResponsePaneFixture(#"{"id":1,"name":"Ada"}"#, status: 200).pane
        var fixture = ResponsePaneFixture(#"{"id":1,"name":"Ada L."}"#, status: 201)
        #expect(fixture.press(.toggleDiff) == .loadPrevious)
        fixture.pane.compare(with: previous)
        #expect(fixture.bodyRows(width: 50, height: 14) == [
            "status: 200 OK → 201 OK", "headers: unchanged", "@@ -1,4 +1,4 @@", " {", #"   "id": 1,"#,
            #"-  "name": "Ada""#, #"+  "name": "Ada L.""#, " }",
        ])
        _ = fixture.press(.clear)
        #expect(fixture.bodyRows().first == "{")
    }

    @Test func headersTabAndProgressLine() {
        var fixture = ResponsePaneFixture(Self.users)
        _ = fixture.press(.toggleHeaders)
        #expect(fixture.bodyRows() == ["Content-Type: application/json", #"ETag: "v1""#])
        fixture.pane.streaming = ResponseStreamProgress(receivedBytes: 12 << 20, expectedBytes: 50 << 20, bytesPerSecond: Double(8 << 20))
        #expect(fixture.screen()[9] == "│Receiving 12.0 MB of 50.0 MB · 8.0 MB/s ·…│")
    }

    @Test func aStreamingEventBodyGrowsEventByEventWithAProgressLine() {
        // Given an SSE response whose body is still arriving
        let document = BodyDocument(data: Data("data: one\n\n".utf8), complete: false)
        var pane = ResponsePaneState(info: ResponsePaneInfo(status: 200, reason: "OK", headers: [.init("Content-Type", "text/event-stream")]),
                                     body: document)
        pane.streaming = ResponseStreamProgress(receivedBytes: 11)
        #expect(pane.source.lineCount == 2)
        // When another event arrives
        document.append(Data("event: tick\ndata: two\n\n".utf8))
        pane.bodyDidGrow()
        // Then it is shown below the first
        #expect((0..<pane.source.lineCount).map { pane.source.line($0) } == ["#1 message", "  one", "#2 tick", "  two"])
    }

    @Test func jumpingToTheEndBeforeIndexingFinishesGoesToTheLastKnownLineAndSaysSo() {
        var fixture = ResponsePaneFixture("[" + (0..<400_000).map { #"{"id":\#($0)}"# }.joined(separator: ",") + "]")
        _ = fixture.press(.end)
        if fixture.pane.source.isComplete {
            #expect(fixture.pane.cursor == fixture.pane.source.lineCount - 1)
        } else {
            #expect(fixture.pane.message?.hasPrefix("Indexing") == true)
            #expect(fixture.pane.cursor == max(0, fixture.pane.source.lineCount - 1))
            // and once the index is complete, the next tick finishes the jump
            fixture.pane.source.indexAll()
            fixture.pane.advance()
            #expect(fixture.pane.cursor == fixture.pane.source.lineCount - 1)
            #expect(fixture.pane.message == nil)
        }
    }

    @Test func whileAPromptIsOpenKeysEditItInsteadOfRunningCommands() {
        var fixture = ResponsePaneFixture(Self.users)
        _ = fixture.press(.beginSearch)
        #expect(fixture.pane.command(for: .char("n")) == .input("n"))
        #expect(fixture.pane.command(for: Key(.enter)) == .submit)
        _ = fixture.press(.clear)
        #expect(fixture.pane.command(for: .char("n")) == .nextHit)
        #expect(ResponsePaneState.keymap.contains { $0.command == .beginFilter && $0.keys.contains(.char("f")) })
    }
}
