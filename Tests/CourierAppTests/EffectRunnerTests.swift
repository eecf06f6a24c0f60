import CourierApp
import CourierDemo
import CourierHTTP
import CourierTerminal
import Foundation
import Synchronization
import Testing

/// Runs effects against a real demo server on loopback and collects the actions that come back.
final class RunnerHarness: Sendable {
    let server: DemoServer
    let queue: ActionQueue
    let runner: EffectRunner
    let folder: URL
    let wakes = Counter()
    let clipboard = Recorder()
    private let log: ActionLog

    init() throws {
        server = try DemoServer.start()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("runner-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let text = """
            ### users
            GET {{base}}/users

            ### search
            GET {{base}}/search?q=a

            ### slow
            GET {{base}}/slow?ms=5000

            ### rateLimited
            # @max-attempts 1
            GET {{base}}/rate-limited?retry_after=0

            ### ticker
            WEBSOCKET {{base}}/ws/ticker

            # @subscribe
            {"subscribe": ["ACME"]}
            ===
            {"ping": 1}

            """
        try Data(text.utf8).write(to: folder.appendingPathComponent("t.http"))
        let wakes = self.wakes
        queue = ActionQueue { wakes.value.add(1, ordering: .relaxed) }
        log = ActionLog(queue)
        let clipboard = self.clipboard
        runner = EffectRunner(
            configuration: .init(transport: CurlTransport(), themeFolders: [],
                                 clipboard: { text in clipboard.texts.withLock { $0.append(text) } }),
            queue: queue, store: CollectionStore(overrides: ["base": server.baseURL.absoluteString.trimmingTrailingSlash]))
    }

    func stop() {
        runner.perform([.cancelSend])
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Every action so far.
    func actions() -> [Action] { log.actions() }

    /// Polls (up to 10 s) until an action matches.
    func waitFor<T>(_ match: (Action) -> T?) async -> T? { await log.waitFor(match) }

    func load() async -> Collection? {
        runner.perform([.loadCollection(path: folder.appendingPathComponent("t.http").path)])
        return await waitFor { if case .collectionLoaded(let collection) = $0 { collection } else { nil } }
    }
}

/// A count shared with a closure.
final class Counter: Sendable { let value = Atomic<Int>(0) }
/// Texts a closure received.
final class Recorder: Sendable { let texts = Mutex<[String]>([]) }

extension String {
    var trimmingTrailingSlash: String { hasSuffix("/") ? String(dropLast()) : self }
}

@Suite("the effect runner against the demo server", .serialized)
struct EffectRunnerTests {
    @Test func aSendComesBackAsA200WithItsBodyAndLogEvents() async throws {
        let harness = try RunnerHarness()
        defer { harness.stop() }
        let collection = try #require(await harness.load())
        let ref = RequestRef(file: collection.files[0].path, index: 0)
        let draft = try #require(collection.request(ref))
        // When sending
        harness.runner.perform([.send(generation: 1, job: SendJob(ref: ref, draft: draft, environment: nil))])
        // Then the response arrives once, with its generation, as the Response pane's model, and the log
        // heard the attempt
        let pane = await harness.waitFor { action -> ResponsePaneState? in
            if case .responsePaneReady(1, let pane) = action { pane } else { nil }
        }
        #expect(pane?.info.status == 200)
        #expect(pane?.media.category == .json)
        let deliveries = harness.actions().filter { if case .responsePaneReady(1, _) = $0 { true } else { false } }
        #expect(deliveries.count == 1)
        #expect(pane.map { pane in (0..<200).contains { pane.source.line($0).contains("\"name\"") } } == true)
        let events = harness.actions().compactMap { if case .clientEvent(let event) = $0 { event } else { nil } }
        #expect(events.contains { if case .attemptFinished = $0 { true } else { false } })
        #expect(harness.wakes.value.load(ordering: .relaxed) > 0)
    }

    @Test func cancellingAbortsTheTransferAndTheServerSeesItClosed() async throws {
        let harness = try RunnerHarness()
        defer { harness.stop() }
        let collection = try #require(await harness.load())
        let ref = RequestRef(file: collection.files[0].path, index: 2)
        // The saved request answers after seconds; two minutes, so the cancel comes first on a loaded machine.
        var draft = try #require(collection.request(ref))
        draft.url = draft.url.replacingOccurrences(of: #"ms=\d+"#, with: "ms=120000", options: .regularExpression)
        #expect(draft.url.contains("ms=120000"))
        harness.runner.perform([.send(generation: 1, job: SendJob(ref: ref, draft: draft, environment: nil))])
        for _ in 0..<6000 where harness.server.requestCount(path: "/slow") == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        harness.runner.perform([.cancelSend])
        let cancelled = await harness.waitFor { if case .sendCancelled(1) = $0 { true } else { nil } }
        #expect(cancelled == true)
        for _ in 0..<6000 where harness.server.abortedCount(path: "/slow") == 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(harness.server.abortedCount(path: "/slow") == 1)
        #expect(harness.server.completedCount(path: "/slow") == 0)
    }

    @Test func aBurstOfLiveEditsReachesTheServerAsAtMostOneCompletedRequest() async throws {
        // Given live submissions 30 ms apart, each replacing the last
        let harness = try RunnerHarness()
        defer { harness.stop() }
        let collection = try #require(await harness.load())
        let ref = RequestRef(file: collection.files[0].path, index: 1)
        var draft = try #require(collection.request(ref))
        for generation in 1...20 {
            draft.url = "{{base}}/search?q=" + String(repeating: "a", count: generation)
            harness.runner.perform([.sendLive(generation: generation, job: SendJob(ref: ref, draft: draft, environment: nil),
                                              debounce: .milliseconds(300))])
            try await Task.sleep(for: .milliseconds(30))
        }
        // Then only the last one answers, and the server finished at most one request
        let last = await harness.waitFor { action -> Int? in
            if case .responsePaneReady(let generation, _) = action { generation } else { nil }
        }
        #expect(last == 20)
        #expect(harness.server.completedCount(path: "/search") <= 1)
        let answered = harness.actions().compactMap { action -> Int? in
            if case .responsePaneReady(let generation, _) = action { generation } else { nil }
        }
        #expect(answered == [20])
    }

    @Test func copyAsCurlResolvesTheRequest() async throws {
        let harness = try RunnerHarness()
        defer { harness.stop() }
        let collection = try #require(await harness.load())
        let ref = RequestRef(file: collection.files[0].path, index: 0)
        harness.runner.perform([.copyAsCurl(SendJob(ref: ref, draft: try #require(collection.request(ref)),
                                                    environment: nil))])
        // Resolved off the loop thread: the command comes back as an action, which `update` copies.
        let copied = await harness.waitFor { if case .curlCommandReady(let text) = $0 { text } else { nil } }
        // The one exporter (CurlExporter): one option per line, secrets masked, redirects followed.
        #expect(copied == "curl \\\n  \(harness.server.baseURL.absoluteString.trimmingTrailingSlash)/users \\\n  --location")
    }

    @Test func aRequestThatCannotBeResolvedFailsWithTheReason() async throws {
        let harness = try RunnerHarness()
        defer { harness.stop() }
        let collection = try #require(await harness.load())
        let ref = RequestRef(file: collection.files[0].path, index: 0)
        var draft = try #require(collection.request(ref))
        draft.url = "{{nowhere}}/x"
        harness.runner.perform([.send(generation: 3, job: SendJob(ref: ref, draft: draft, environment: nil))])
        let failure = await harness.waitFor { if case .sendFailed(3, let failure) = $0 { failure } else { nil } }
        #expect(failure?.message.contains("nowhere") == true)
    }

    @Test func aResponseNotSentYetSaysToSendItFirstNotHowARunIsOrdered() async throws {
        // Given a request that reads the response of `users`, which has not been sent in this session
        let harness = try RunnerHarness()
        defer { harness.stop() }
        let collection = try #require(await harness.load())
        let ref = RequestRef(file: collection.files[0].path, index: 1)
        var draft = try #require(collection.request(ref))
        draft.url = "{{base}}/users/{{users.response.body.$[0].id}}"
        // When sending it
        harness.runner.perform([.send(generation: 4, job: SendJob(ref: ref, draft: draft, environment: nil))])
        // Then the reason names the request to send, in the explorer's words (no `--name`, no "run")
        let failure = await harness.waitFor { if case .sendFailed(4, let failure) = $0 { failure } else { nil } }
        let message = failure?.message ?? ""
        #expect(message.contains("request 'users' has not been sent yet: send it first"), "\(message)")
        #expect(!message.contains("--name"), "\(message)")
    }
}
