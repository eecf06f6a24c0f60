import CourierBody
import CourierHTTP
import CourierTerminal
import Foundation
import Testing
@testable import CourierApp

/// `G` and go-to-line on a body the index has not reached: the loop thread indexes nothing for them; the
/// pane says it is indexing, and the jump lands when an index job reports.
@Suite("Response pane: jumps wait for the index job")
struct ResponseJumpJobTests {
    static func screen(_ state: AppState) -> String { Screen.render(state).0.lines().joined(separator: "\n") }

    @Test("G before the index is built indexes nothing on the loop thread and lands when the index job reports")
    func endWaitsForTheIndexJob() throws {
        // Given a large JSON response shown, its index job not run yet
        var (state, shown) = BodyJobTests.showing(BodyJobTests.jsonBody(records: 200_000), json: true)
        let index = try #require(BodyJobTests.jobs(shown).first)
        let pretty = try #require(state.responsePane?.pretty)
        let known = pretty.lineCount
        // When G is pressed
        let effects = state.press(.char("G"))
        // Then no line was indexed for it and no second job started (the pane's index job covers the body)
        #expect(pretty.lineCount == known)
        #expect(!pretty.isComplete)
        #expect(BodyJobTests.jobs(effects).isEmpty)
        #expect(state.responsePane?.pendingLine == Int.max)
        #expect(Self.screen(state).contains("Indexing…"))
        // When another pane is focused and back (other keys still work), then the index job reports
        state.press(Key(.tab))
        state.press(.char("3"))
        #expect(state.focus == .response)
        BodyJobTests.run(index, into: &state)
        // Then the view is on the last line, and the message is gone
        let pane = try #require(state.responsePane)
        #expect(pane.pendingLine == nil)
        #expect(pane.cursor == pretty.lineCount - 1)
        #expect(pane.message == nil)
        #expect(!Self.screen(state).contains("Indexing…"))
    }

    @Test("a newer go-to-line replaces a pending G, and a movement key drops it")
    func newerJumpReplacesThePendingOne() throws {
        // Given G pending on a large JSON response
        var (state, shown) = BodyJobTests.showing(BodyJobTests.jsonBody(records: 200_000), json: true)
        let index = try #require(BodyJobTests.jobs(shown).first)
        state.press(.char("G"))
        #expect(state.responsePane?.pendingLine == Int.max)
        // When go-to-line asks for line 5, which the frame on screen has read already
        _ = Self.screen(state)
        state.press(.ctrl("g"))
        state.type("5")
        state.press(Key(.enter))
        // Then the view is there at once and nothing waits
        #expect(state.responsePane?.cursor == 4)
        #expect(state.responsePane?.pendingLine == nil)
        // When G is pressed again, then k, and the index job finishes
        state.press(.char("G"))
        state.press(.char("k"))
        let cursor = try #require(state.responsePane?.cursor)
        BodyJobTests.run(index, into: &state)
        // Then the view stays where the key moved it
        #expect(state.responsePane?.cursor == cursor)
        #expect(state.responsePane?.pendingLine == nil)
    }

    @Test("G on a body still arriving starts an index job of its own; a newer G replaces it by generation")
    func jumpOnAStreamingBodyIsAJob() throws {
        // Given a text body still arriving, whose own index job has indexed what there is so far
        let body = BodyDocument(data: Data(String(repeating: "row\n", count: 10_000).utf8), complete: false)
        var (state, shown) = BodyJobTests.showing(body, json: false)
        let index = try #require(BodyJobTests.jobs(shown).first)
        BodyJobTests.run(index, into: &state)
        #expect(state.responsePane?.indexing == nil)
        // When G is pressed
        let first = try #require(BodyJobTests.jobs(state.press(.char("G"))).first)
        // Then a job indexes the body for the jump, and the pane says it waits for it
        guard case .index(let sources) = first.work else { Issue.record("not an index job: \(first)"); return }
        #expect(sources.count == 1 && sources[0] === body)
        #expect(state.responsePane?.pendingLine == Int.max)
        #expect(Self.screen(state).contains("Indexing…"))
        // When G is pressed again
        let effects = state.press(.char("G"))
        // Then the first job is cancelled and a new one started
        let second = try #require(BodyJobTests.jobs(effects).first)
        #expect(effects.contains(.cancelBodyJob(generation: first.generation)))
        #expect(second.generation > first.generation)
        // When the old job's late report arrives, nothing moves
        _ = update(&state, .bodyJob(.indexed(generation: first.generation, finished: true)))
        #expect(state.responsePane?.pendingLine == Int.max)
        // When the rest of the body arrives and the new job runs, the view lands on the last line
        body.append(Data("the end\n".utf8))
        body.finish()
        BodyJobTests.run(second, into: &state)
        #expect(state.responsePane?.pendingLine == nil)
        #expect(state.responsePane?.cursor == body.lineCount - 1)
        #expect(state.responsePane?.message == nil)
        #expect(!state.runningBodyJobs.contains(second.generation))
    }

    @Test("through the run loop, G on a large body ends on its last line")
    func endThroughTheLoop() {
        // Given a large JSON response shown, its index job started by the loop like any effect
        let (state, shown) = BodyJobTests.showing(BodyJobTests.jsonBody(records: 100_000), json: true)
        // When the user presses G and the loop runs until idle
        let backend = ExplorerLoopTests.IdleProbeBackend(size: state.size, script: [.key(.char("G"))])
        let queue = ActionQueue { backend.wake() }
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: []), queue: queue)
        Explorer.run(backend: backend, state: state, runner: runner, queue: queue, startup: shown)
        // Then the frame left on screen shows the body's end and no indexing message
        let screen = backend.idleText
        #expect(backend.waits <= 600, "the loop never went idle: \(backend.lastText)")
        #expect(screen.contains("\"padding\": \"end\""), "\(screen)")
        #expect(!screen.contains("Indexing"), "\(screen)")
    }
}
