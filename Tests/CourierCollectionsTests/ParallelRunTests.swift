import CourierHTTP
import Foundation
import Synchronization
import Testing
@testable import CourierCollections

/// `CollectionRunner.runConcurrently` (`courier run --jobs N`): what it keeps of the outcomes it reports, where
/// its requests run, and the limit on requests in flight.
@Suite("Parallel runs")
struct ParallelRunTests {
    /// A transport that records what it was sent: the path and the Authorization header.
    final class RecordingTransport: Transport, Sendable {
        let sent = Mutex<[String]>([])

        func send(_ request: HTTPRequest, context: RequestContext) async throws(APIError) -> HTTPResponse {
            sent.withLock { $0.append(request.url.path + " " + (request.headers["Authorization"] ?? "")) }
            let body = request.url.path == "/login" ? #"{"token":"t-1"}"# : "{}"
            return HTTPResponse(status: request.url.path == "/fails" ? 500 : 200, body: .data(Data(body.utf8)),
                                url: request.url)
        }
    }

    static let text = """
        # @name login
        POST https://api.test/login

        ###
        # @name me
        GET https://api.test/me
        Authorization: Bearer {{login.response.body.$.token}}

        ###
        # @name one
        GET https://api.test/p/1

        ###
        # @name fails
        GET https://api.test/fails
        """

    /// A runner of `file` whose requests go through a client over `transport`, without retries.
    static func runner(_ file: HTTPFile, sendingThrough transport: RecordingTransport) -> CollectionRunner {
        let client = HTTPClient(configuration: .init(transport: transport, retry: nil))
        return CollectionRunner(file: file, baseFolder: URL(fileURLWithPath: "/"),
                                context: VariableContext(processEnvironment: [:])) { request, context async throws(APIError) in
            try await client.send(request, context: context)
        }
    }

    @Test("A parallel run that need not keep every outcome reports each once and keeps only those it looks back at")
    func aParallelRunKeepsOnlyWhatItLooksBackAt() async {
        // Given a runner told that its caller counts each outcome as it is reported
        let file = HTTPFile(path: "p.http", text: Self.text)
        let transport = RecordingTransport()
        var runner = Self.runner(file, sendingThrough: transport)
        runner.keepsEveryOutcome = false
        let reported = Mutex<[String]>([])

        // When the file runs with up to 4 requests in flight
        let kept = await runner.runConcurrently(file.requests, limit: ConcurrencyLimit(4)) { outcome in
            reported.withLock { $0.append("\(outcome.template.name ?? "") \(outcome.succeeded)") }
        }

        // Then every request went out once, `me` after the login with its token
        #expect(transport.sent.withLock { $0 }.sorted() == ["/fails ", "/login ", "/me Bearer t-1", "/p/1 "])
        // And each outcome was reported once, as a serial run's, and only the failed one kept
        #expect(reported.withLock { $0 }.sorted() == ["fails false", "login true", "me true", "one true"])
        #expect(kept.outcomes.map(\.template.name) == ["fails"])
        #expect(kept.responses.entry("me") != nil)
    }

    /// Places held now, the most held at once, and how many were given back.
    final class Places: Sendable {
        let state = Mutex((now: 0, peak: 0, done: 0))
    }

    @Test("No more requests hold a place than the limit's width, and every waiter gets one")
    func theLimitHoldsAndEveryWaiterProceeds() async {
        let limit = ConcurrencyLimit(2)
        let places = Places()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    await limit.acquire()
                    places.state.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
                    for _ in 0..<20 { await Task.yield() }
                    places.state.withLock { $0.now -= 1; $0.done += 1 }
                    limit.release()
                }
            }
        }
        #expect(places.state.withLock { $0.peak } <= 2)
        #expect(places.state.withLock { $0.done } == 12)
    }

    @Test("A parallel run's requests are sent from the caller's executor (`courier run`'s loop thread)")
    func requestsStayOnTheCallersExecutor() async {
        // Given a runner whose send notes where it runs
        let file = HTTPFile(path: "l.http", text: (1...6).map { "### r\($0)\nGET https://api.test/\($0)\n" }
            .joined(separator: "\n"))
        let places = Mutex<[Bool]>([])
        let executor = LaneExecutor(0)
        let runner = CollectionRunner(file: file, baseFolder: URL(fileURLWithPath: "/"),
                                      context: VariableContext(processEnvironment: [:])) { request, _ async throws(APIError) in
            places.withLock { $0.append(DispatchQueue.getSpecific(key: executor.key) == 0) }
            return HTTPResponse(status: 200, url: request.url)
        }
        // When it runs the file in a task that prefers an executor of its own
        let count = await Task(executorPreference: executor) {
            await runner.runConcurrently(file.requests, limit: ConcurrencyLimit(4)).outcomes.count
        }.value
        // Then every request was sent from that executor
        #expect(count == 6)
        #expect(places.withLock { $0 } == Array(repeating: true, count: 6))
    }

    /// A serial queue as a task executor that a job recognises by the lane number it was given.
    final class LaneExecutor: TaskExecutor, @unchecked Sendable {
        let key = DispatchSpecificKey<Int>()
        let queue = DispatchQueue(label: "courier.test.lane")

        init(_ lane: Int) { queue.setSpecific(key: key, value: lane) }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    @Test("With lanes, each request is sent through one lane's send, on that lane's executor, and both are used")
    func requestsGoThroughTheLaneTheyTakeOnItsExecutor() async {
        // Given two lanes, each a send that notes its lane and whether it ran on that lane's executor
        let file = HTTPFile(path: "l.http", text: (1...8).map { "### r\($0)\nGET https://api.test/\($0)\n" }
            .joined(separator: "\n"))
        let executors = [LaneExecutor(0), LaneExecutor(1)]
        let sent = Mutex<[(lane: Int, onItsExecutor: Bool)]>([])
        let lanes = SendLanes(executors.indices.map { lane in
            let executor = executors[lane]
            return SendLanes.Lane(executor: executor) { request, _ async throws(APIError) in
                sent.withLock { $0.append((lane, DispatchQueue.getSpecific(key: executor.key) == lane)) }
                // Each answer waits until both lanes have sent (or a minute passed): a worker whose answers come
                // at once would otherwise take every request before the other has started.
                let end = ContinuousClock.now + .seconds(60)
                while Set(sent.withLock { $0.map(\.lane) }).count < 2 && ContinuousClock.now < end {
                    try? await Task.sleep(for: .milliseconds(2))
                }
                return HTTPResponse(status: 200, url: request.url)
            }
        })
        let runner = CollectionRunner(file: file, baseFolder: URL(fileURLWithPath: "/"),
                                      context: VariableContext(processEnvironment: [:])) { _, _ async throws(APIError) in
            Issue.record("a request went through the runner's own send")
            throw .cancelled
        }

        // When the file runs eight at a time over them
        let outcomes = await runner.runConcurrently(file.requests, limit: ConcurrencyLimit(8), lanes: lanes).outcomes

        // Then every request succeeded, each sent on its lane's executor, and both lanes sent some
        #expect(outcomes.count == 8 && outcomes.allSatisfy(\.succeeded))
        let records = sent.withLock { $0 }
        #expect(records.count == 8 && records.allSatisfy(\.onItsExecutor))
        #expect(Set(records.map(\.lane)) == [0, 1])
    }

    @Test("A parallel run cancelled while the one request others wait for is in flight ends, its idle workers too",
          .timeLimit(.minutes(1)))
    func aCancelledRunEndsWithItsIdleWorkers() async {
        // Given a login that answers only once cancelled, and one request waiting for it, with eight workers
        let file = HTTPFile(path: "c.http", text: """
            # @name login
            POST https://api.test/login

            ###
            GET https://api.test/me?t={{login.response.body.$.token}}
            """)
        let started = Mutex(false)
        let runner = CollectionRunner(file: file, baseFolder: URL(fileURLWithPath: "/"),
                                      context: VariableContext(processEnvironment: [:])) { request, _ async throws(APIError) in
            started.withLock { $0 = true }
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            throw .cancelled
        }
        let run = Task { await runner.runConcurrently(file.requests, limit: ConcurrencyLimit(8)) }

        // When the run is cancelled while the login is in flight
        while !started.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
        run.cancel()

        // Then it ends, without sending the request that waited
        let outcomes = await run.value.outcomes
        #expect(outcomes.map(\.template.name) == ["login"])
    }

    @Test("Lanes hand out the least busy first, the lowest on a tie, and count what a mapped copy takes")
    func lanesHandOutTheLeastBusy() {
        let lane = SendLanes.Lane(executor: nil) { request, _ async throws(APIError) in
            HTTPResponse(status: 200, url: request.url)
        }
        let lanes = SendLanes([lane, lane, lane])
        let mapped = lanes.map { $0 }
        let taken: [Int] = [lanes.take(), mapped.take(), lanes.take(), mapped.take()]
        #expect(taken == [0, 1, 2, 0])
        lanes.finished(1)
        lanes.finished(2)
        #expect(mapped.take() == 1)
        #expect(lanes.take() == 2)
    }

    @Test("A parallel run told which responses are read hands on only those, and its requests still read them")
    func aParallelRunHandsOnOnlyTheResponsesRead() async {
        // Given the file of a login, a request that reads its token, and two requests nobody reads
        let file = HTTPFile(path: "p.http", text: Self.text)
        let transport = RecordingTransport()
        var runner = Self.runner(file, sendingThrough: transport)
        let read = CollectionRunner.responsesRead(by: file.requests, of: file, definitions: [:])

        // When it runs with what its requests read
        runner.context.responses.keptNames = read
        let kept = await runner.runConcurrently(file.requests, limit: ConcurrencyLimit(4))

        // Then only the login's response is read, `me` was sent with its token, and only it was kept
        #expect(read == ["login"])
        #expect(transport.sent.withLock { $0 }.contains("/me Bearer t-1"))
        #expect(kept.responses.entry("login") != nil)
        #expect(kept.responses.entry("one") == nil && kept.responses.entry("me") == nil)
        #expect(kept.outcomes.count == 4)
    }

    @Test("The responses a file reads: by reference, by httpyac's names, through a file variable; unknown with scripts")
    func theResponsesAFileReads() {
        // Given files that read responses in each way, and files whose reads the text cannot tell
        let read = { (text: String) -> Set<String>? in
            let file = HTTPFile(path: "r.http", text: text)
            return CollectionRunner.responsesRead(by: file.requests, of: file, definitions: CollectionRunner
                .definitions(file.fileVariables))
        }
        // Then each way of reading names its request
        #expect(read("GET https://a.test/{{login.response.body.$.id}}") == ["login"])
        #expect(read("GET https://a.test/{{order.items[0].id}}")?.contains("order") == true)
        #expect(read("GET https://a.test/{{userResponse.status}}")?.contains("user") == true)
        #expect(read("@uid = {{create.response.body.$.id}}\n\n###\nGET https://a.test/{{uid}}")?
            .contains("create") == true)
        #expect(read("### a\nGET https://a.test/1\n\n### b\nGET https://a.test/2") == [])
        // And a script, a body file with variables or the last response may read any
        #expect(read("GET https://a.test/1\n\n> {% client.global.set('x', response.body.id) %}") == nil)
        #expect(read("POST https://a.test/1\n\n<@ ./body.json") == nil)
        #expect(read("GET https://a.test/{{response.body.id}}") == nil)
        #expect(read("GET https://a.test/{{JSON.stringify(login)}}") == nil)
    }
}
