import CourierBody
import CourierHTTP
import CourierTerminal
import CourierTestSupport
import Foundation
import Testing
@testable import CourierApp

/// The Response pane's search, filter and indexing as body jobs: `update` returns them as effects and starts
/// nothing itself, their reports come back as actions, and a job no pane waits for is cancelled by its
/// generation, its late reports dropped.
@Suite("Body jobs")
struct BodyJobTests {
    /// A text body of `count` short lines with one `padding` line at the end.
    static func textBody(lines count: Int) -> BodyDocument {
        let lines = (0..<count).map { "{\"id\": \($0), \"name\": \"user \($0)\"}" } + ["{\"padding\": \"end\"}"]
        return BodyDocument(data: Data(lines.joined(separator: "\n").utf8))
    }

    /// A JSON array of `count` records with a `padding` field in the last one only.
    static func jsonBody(records count: Int) -> BodyDocument {
        let records = (0..<count).map { #"{"id":\#($0),"name":"user \#($0)"}"# } + [#"{"padding":"end"}"#]
        return BodyDocument(data: Data(("[" + records.joined(separator: ",") + "]").utf8))
    }

    /// A loaded explorer showing `body` in the Response pane, focused; the effects showing it asked for.
    static func showing(_ body: BodyDocument, json: Bool) -> (AppState, [Effect]) {
        let info = ResponsePaneInfo(status: 200, reason: "OK",
                                    headers: [.init("Content-Type", json ? "application/json" : "text/plain")])
        var state = Fixtures.loaded()
        let effects = update(&state, .responsePaneReady(generation: state.generation,
                                                        ResponsePaneState(info: info, body: body)))
        state.press(.char("3"))
        return (state, effects)
    }

    /// The jobs among `effects`.
    static func jobs(_ effects: [Effect]) -> [BodyJob] {
        effects.compactMap { if case .bodyJob(let job) = $0 { job } else { nil } }
    }

    /// Runs `job` to its end on this thread, as the runner does on a task, and gives every report to `update`.
    static func run(_ job: BodyJob, into state: inout AppState) {
        var reports: [BodyJobReport] = []
        job.run(isCancelled: { false }) { reports.append($0) }
        for report in reports { _ = update(&state, .bodyJob(report)) }
    }

    static func screen(_ state: AppState) -> String { Screen.render(state).0.lines().joined(separator: "\n") }

    @Test("submitting a search returns its job as an effect and starts nothing; its reports paint the result")
    func searchIsAnEffect() async throws {
        // Given a response over a large body, whose index job showing it asked for is not run
        let body = Self.textBody(lines: 200_000)
        var (state, shown) = Self.showing(body, json: false)
        let index = try #require(Self.jobs(shown).first)
        guard case .index = index.work else { Issue.record("showing a response asks for its index: \(shown)"); return }
        let indexed = body.lineCount
        // When a search is typed and submitted
        state.press(.char("/"))
        state.type("padding")
        let effects = state.press(Key(.enter))
        // Then update returned the search's job and the pane shows it running, with no hits yet
        #expect(effects.count == 1)
        let job = try #require(Self.jobs(effects).first)
        guard case .search(let search, _) = job.work else { Issue.record("not a search: \(effects)"); return }
        #expect(search.query.pattern == "padding")
        #expect(job.generation != index.generation)
        #expect(state.responsePane?.search?.generation == job.generation)
        #expect(state.responsePane?.search?.isFinished == false)
        // And nothing was started: a while later the body's index has not moved (no task is reading it)
        try await Task.sleep(for: .milliseconds(200))
        #expect(body.lineCount == indexed)
        // When the job runs and its reports come back as actions
        Self.run(job, into: &state)
        // Then the finished search is painted with its one match
        let screen = Self.screen(state)
        #expect(screen.contains("1 match"), "\(screen)")
        #expect(!screen.contains("searching"), "\(screen)")
        #expect(state.runningBodyJobs == [index.generation])
    }

    @Test("submitting a filter returns its job; its result replaces the body once reported")
    func filterIsAnEffect() throws {
        // Given a JSON response
        var (state, _) = Self.showing(Self.jsonBody(records: 2_000), json: true)
        // When `$..padding` is submitted as the filter
        state.press(.char("f"))
        state.type("..padding")
        let effects = state.press(Key(.enter))
        // Then update returned the filter's job; the bottom line shows it running until it reports
        let job = try #require(Self.jobs(effects).first)
        guard case .filter(let filter, _) = job.work else { Issue.record("not a filter: \(effects)"); return }
        #expect(filter.path.expression == "$..padding")
        #expect(Self.screen(state).contains("filtering 0% · 0 matches · Esc cancels"))
        // When its reports come back
        Self.run(job, into: &state)
        // Then the match replaces the body
        let screen = Self.screen(state)
        #expect(screen.contains("filter $..padding · 1 match"), "\(screen)")
        #expect(screen.contains("\"end\""), "\(screen)")
        #expect(!screen.contains("filtering"), "\(screen)")
    }

    @Test("a new search cancels the old one by generation, and the old one's late hits are dropped")
    func newSearchReplacesOld() throws {
        // Given a search running over a response
        var (state, _) = Self.showing(Self.textBody(lines: 1_000), json: false)
        state.press(.char("/"))
        state.type("user")
        let first = try #require(Self.jobs(state.press(Key(.enter))).first)
        // When another search is submitted
        state.press(.char("/"))
        state.type("padding")
        let effects = state.press(Key(.enter))
        // Then the old job is cancelled and the new one started
        let second = try #require(Self.jobs(effects).first)
        #expect(effects.contains(.cancelBodyJob(generation: first.generation)))
        #expect(second.generation > first.generation)
        // When the old job's hits arrive late
        let late = BodySearch.Progress(hits: [SearchHit(line: 3, columns: 0..<4)], fraction: 1, isFinished: true)
        #expect(update(&state, .bodyJob(.searched(generation: first.generation, late))).isEmpty)
        // Then they are dropped: the pane still waits for the new search, with no hits
        #expect(state.responsePane?.search?.generation == second.generation)
        #expect(state.responsePane?.search?.hits.isEmpty == true)
        #expect(state.responsePane?.search?.isFinished == false)
        // And the new search's own result is painted
        Self.run(second, into: &state)
        #expect(Self.screen(state).contains("1 match"))
    }

    @Test("Esc cancels a running filter's job, and a new response cancels the jobs of the one it replaces")
    func escAndReplacementCancel() throws {
        // Given a filter running over a response whose index job runs too
        var (state, shown) = Self.showing(Self.jsonBody(records: 100), json: true)
        let index = try #require(Self.jobs(shown).first)
        state.press(.char("f"), .char("$"))
        let filter = try #require(Self.jobs(state.press(Key(.enter))).first)
        #expect(state.runningBodyJobs == [index.generation, filter.generation])
        // When Esc is pressed
        let escaped = state.press(Key(.escape))
        // Then the filter's job is cancelled and the bottom line no longer shows it
        #expect(escaped == [.cancelBodyJob(generation: filter.generation)])
        #expect(!Self.screen(state).contains("filtering"))
        // When a search starts and then a new response replaces the pane
        state.press(.char("/"))
        state.type("id")
        let search = try #require(Self.jobs(state.press(Key(.enter))).first)
        let info = ResponsePaneInfo(status: 200, reason: "OK", headers: [.init("Content-Type", "text/plain")])
        let replaced = update(&state, .responsePaneReady(generation: state.generation,
                                                         ResponsePaneState(info: info, body: Self.textBody(lines: 10))))
        // Then the old pane's index and search jobs are cancelled (the new small body needs no index job)
        #expect(replaced.contains(.cancelBodyJob(generation: index.generation)))
        #expect(replaced.contains(.cancelBodyJob(generation: search.generation)))
    }

    @Test("d asks for the diff with the previous response as a job, painted when it reports; Esc cancels it")
    func diffIsAJob() throws {
        // Given two responses of the same request, the newer shown
        var (state, _) = Self.showing(BodyDocument(data: Data(#"{"n": 1}"#.utf8)), json: true)
        let info = ResponsePaneInfo(status: 200, reason: "OK", headers: [.init("Content-Type", "application/json")])
        _ = update(&state, .responsePaneReady(generation: state.generation,
                                              ResponsePaneState(info: info, body: BodyDocument(data: Data(#"{"n": 2}"#.utf8)))))
        // When d is pressed
        let effects = state.press(.char("d"))
        // Then the diff is a job, and the pane says it is comparing until the job reports
        let job = try #require(Self.jobs(effects).first)
        guard case .diff = job.work else { Issue.record("not a diff: \(effects)"); return }
        #expect(Self.screen(state).contains("Comparing with the previous response…"))
        Self.run(job, into: &state)
        let screen = Self.screen(state)
        #expect(screen.contains("-  \"n\": 1") && screen.contains("+  \"n\": 2"), "\(screen)")
        // When d closes the diff, d asks again, and Esc is pressed before the job reports
        state.press(.char("d"))
        let again = try #require(Self.jobs(state.press(.char("d"))).first)
        // Then the job is cancelled and its late answer dropped
        #expect(state.press(Key(.escape)) == [.cancelBodyJob(generation: again.generation)])
        Self.run(again, into: &state)
        #expect(!Self.screen(state).contains("+  \"n\": 2"))
        #expect(state.responsePane?.diff == nil)
    }

    @Test("through the run loop and the effect runner, a filter on a large body finishes and is painted")
    func filterThroughTheLoop() async {
        // Given a large JSON response shown, its index job started by the loop like any effect
        let (state, shown) = Self.showing(Self.jsonBody(records: 100_000), json: true)
        // When the user filters for the last record's field and the loop runs until idle
        let keys: [Key] = [.char("f")] + "..padding".map { .char($0) } + [Key(.enter)]
        let backend = ExplorerLoopTests.IdleProbeBackend(size: state.size, script: keys.map { .key($0) })
        let queue = ActionQueue { backend.wake() }
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: []), queue: queue)
        // On a thread of its own: the loop blocks while it waits, and the filter job needs the pool's threads.
        await OwnThread.run { Explorer.run(backend: backend, state: state, runner: runner, queue: queue, startup: shown) }
        // Then the frame left on screen shows the filter's one match, with no progress line
        let screen = backend.idleText
        #expect(backend.waits <= 600, "the loop never went idle: \(backend.lastText)")
        #expect(screen.contains("filter $..padding · 1 match"), "\(screen)")
        #expect(!screen.contains("filtering"), "\(screen)")
    }

    @Test("the effect runner stops a cancelled job: it reports nothing more, while a newer job finishes")
    func runnerCancelsByGeneration() async throws {
        // Given a search running in the runner over a body still arriving, so it cannot finish yet
        let body = BodyDocument(data: Data(String(repeating: "row\n", count: 10_000).utf8), complete: false)
        let queue = ActionQueue {}
        let log = ActionLog(queue)
        let runner = EffectRunner(configuration: .init(transport: CurlTransport(), themeFolders: []), queue: queue)
        defer { runner.shutdown() }
        let search = try BodySearch(SearchQuery("end"))
        runner.perform([.bodyJob(BodyJob(generation: 1, work: .search(search, in: body)))])
        let started = await log.waitFor { action -> Bool? in
            if case .bodyJob(let report) = action, report.generation == 1 { true } else { nil }
        }
        #expect(started == true)
        // When it is cancelled, the rest of the body arrives, and a new search runs over it
        runner.perform([.cancelBodyJob(generation: 1)])
        body.append(Data("the end\n".utf8))
        body.finish()
        runner.perform([.bodyJob(BodyJob(generation: 2, work: .search(search, in: body)))])
        // Then the new search finishes with the hit, and the cancelled one never reports finishing
        let hits = await log.waitFor { action -> [SearchHit]? in
            if case .bodyJob(.searched(2, let progress)) = action, progress.isFinished { progress.hits } else { nil }
        }
        #expect(hits != nil)
        let all = log.actions().compactMap { action -> BodySearch.Progress? in
            if case .bodyJob(.searched(let generation, let progress)) = action, generation == 2 { progress } else { nil }
        }
        #expect(all.flatMap(\.hits).map(\.line) == [10_000])
        #expect(!log.actions().contains { action in
            if case .bodyJob(.searched(1, let progress)) = action { progress.isFinished } else { false }
        })
    }
}
