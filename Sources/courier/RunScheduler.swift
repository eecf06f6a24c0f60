import CourierCollections
import CourierHTTP
import CourierScript
import Foundation
import Synchronization

/// How `courier run` goes through its plan: every file in path order, `--repeat` times, one request at a time
/// or, with `--jobs N`, up to N requests at once across files (a file that reads a name another file provides
/// waits for that file; inside a file `CollectionRunner.runConcurrently` orders what depends on what). Named
/// responses and globals carry over from file to file and from one round to the next. Each outcome is printed
/// whole, under the lock, so parallel requests never interleave mid-request.
final class RunScheduler: Sendable {
    let plan: RunPlan
    let invocation: RunCommand.Invocation
    let iterations: RunCommand.Iterations
    let recorder: AttemptRecorder
    /// The run's clients: one for a run in order, one per core (at most `--jobs`) for a parallel run.
    let lanes: SendLanes
    let exchange: CollectionRunner.Exchange
    /// Calls a GRPC request (gRPC over HTTP/2).
    let call: CollectionRunner.Call
    /// The run's cookie jars, for scripts' `pm.cookies.jar()`.
    let cookies: CookieJarStore?
    /// The file whose header was printed last, so a header is printed again when output switches files.
    private let lastHeader = Mutex<String?>(nil)

    init(plan: RunPlan, invocation: RunCommand.Invocation, iterations: RunCommand.Iterations,
         recorder: AttemptRecorder, lanes: SendLanes,
         exchange: @escaping CollectionRunner.Exchange, call: @escaping CollectionRunner.Call,
         cookies: CookieJarStore? = nil) {
        self.plan = plan
        self.invocation = invocation
        self.iterations = iterations
        self.recorder = recorder
        self.lanes = lanes
        self.exchange = exchange
        self.call = call
        self.cookies = cookies
    }

    /// What a file (or several, in parallel) left for the next: named responses and globals.
    struct Carried: Sendable {
        var responses = ResponseStore()
        var globals: [String: String] = [:]

        mutating func merge(_ other: Carried, since before: Carried) {
            responses.merge(other.responses)
            for (name, value) in other.globals where before.globals[name] != value { globals[name] = value }
        }
    }

    func run() async -> RunTally {
        var tally = RunTally()
        var carried = Carried()
        // What the files read is the same in every pass; a response no request reads is not kept.
        let reading = invocation.jobs > 1 ? parallelReading() : nil
        carried.responses.keptNames = reading.map(\.responses) ?? responsesRead(definitions: fileDefinitions())
        // --repeat runs every iteration (--data rows, --iteration-count) again: a pass is one iteration of
        // one round, numbered from 1 across the run.
        for repetition in 1...invocation.repeats {
            if Task.isCancelled || stopping(tally) { break }
            if invocation.repeats > 1 && showsHeaders {
                Console.out("==> round \(repetition) of \(invocation.repeats) <==\n")
            }
            for iteration in iterations.rows {
                if Task.isCancelled || stopping(tally) { break }
                if iterations.count > 1 && showsHeaders {
                    Console.out("==> iteration \(iteration.index + 1) of \(iterations.count) <==\n")
                }
                let pass = Pass(round: (repetition - 1) * iterations.count + iteration.index + 1, iteration: iteration)
                if let reading {
                    await runParallel(pass, reading: reading, tally: &tally, carried: &carried)
                } else {
                    // File by file, in path order, unless a Postman script sends the run to another file.
                    var position = plan.entries.isEmpty ? nil : FilePosition(file: 0, request: 0)
                    var jumps = 0
                    while let at = position {
                        if Task.isCancelled || stopping(tally) { break }
                        var entry = plan.entries[at.file]
                        entry.requests = Array(entry.requests[at.request...])
                        let result = await runFile(entry, pass: pass, carried: carried, limit: nil)
                        record(result, entry: entry, round: pass.round, into: &tally)
                        carried = result.carried
                        position = nextPosition(after: result.nextRequest, of: at.file, jumps: &jumps)
                    }
                }
            }
        }
        tally.report.finished = Date()
        return tally
    }

    private func stopping(_ tally: RunTally) -> Bool { invocation.failFast && tally.failed > 0 }

    /// Whether `--report` asked for files that list every request (with its attempts) at the end.
    private var writesReports: Bool { !invocation.reports.isEmpty }

    /// Whether `==>` headers are printed: not in JSON, --quiet or --test-only output.
    private var showsHeaders: Bool { !invocation.json && !invocation.quiet && !invocation.testOnly }

    /// One go through the files: its number in the reports, and the --data row it uses.
    struct Pass: Sendable {
        var round: Int
        var iteration: IterationRow
    }

    /// What the files of a parallel run read, the same in every pass.
    struct ParallelReading: Sendable {
        /// For each file, the earlier files it waits for: those that may provide a name it reads.
        var needs: [[Int]]
        /// The names whose responses a request of the run may read; nil when any may be read.
        var responses: Set<String>?
    }

    private func parallelReading() -> ParallelReading {
        let entries = plan.entries
        let definitions = fileDefinitions()
        let reads = entries.indices.map { index in
            CollectionRunner.namesRead(by: entries[index].requests, definitions: definitions[index])
        }
        let needs = entries.indices.map { index in
            (0..<index).filter { CollectionRunner.mayProvide(any: reads[index], entries[$0].requests) }
        }
        return ParallelReading(needs: needs, responses: responsesRead(definitions: definitions))
    }

    /// Each file's variable definitions, as `CollectionRunner.definitions` reads them.
    private func fileDefinitions() -> [[String: [String]]] {
        plan.entries.map { entry in
            CollectionRunner.definitions(entry.loaded.file.fileVariables,
                                         environment: (try? entry.environment.get()) ?? .none)
        }
    }

    /// The names whose responses a request of the run may read (`definitions` from `fileDefinitions()`); nil
    /// when any may be read.
    private func responsesRead(definitions: [[String: [String]]]) -> Set<String>? {
        let entries = plan.entries
        // A value given on the command line or in a --data row may itself read a response; so may an imported
        // file's requests.
        let values = invocation.overrides.values + iterations.rows.flatMap(\.values.values)
        var responses: Set<String>? = values.contains { $0.contains("{{") } ? nil : []
        for (index, entry) in entries.enumerated() where responses != nil {
            guard entry.imports.files.isEmpty,
                  let read = CollectionRunner.responsesRead(by: entry.requests, of: entry.loaded.file,
                                                            definitions: definitions[index]) else {
                responses = nil
                break
            }
            responses?.formUnion(read)
        }
        return responses
    }

    /// The files of one round, up to `--jobs` requests in flight across them.
    private func runParallel(_ pass: Pass, reading: ParallelReading, tally: inout RunTally,
                             carried: inout Carried) async {
        let limit = ConcurrencyLimit(invocation.jobs)
        let entries = plan.entries
        let needs = reading.needs
        var started = Set<Int>()
        var finished = Set<Int>()
        await withTaskGroup(of: (Int, FileResult, Carried).self) { group in
            while true {
                if !Task.isCancelled && !stopping(tally) {
                    for index in entries.indices where !started.contains(index)
                        && needs[index].allSatisfy(finished.contains) {
                        started.insert(index)
                        let before = carried
                        group.addTask {
                            let result = await self.runFile(entries[index], pass: pass, carried: before,
                                                            limit: limit)
                            return (index, result, before)
                        }
                    }
                }
                guard let (index, result, before) = await group.next() else { break }
                finished.insert(index)
                record(result, entry: entries[index], round: pass.round, into: &tally)
                carried.merge(result.carried, since: before)
            }
        }
    }

    /// What one file's run gave.
    struct FileResult: Sendable {
        /// Every outcome when a report is written; otherwise only those the runner looks back at
        /// (`CollectionRunner.keepsEveryOutcome`).
        var outcomes: [RunOutcome] = []
        /// The counts of every outcome reported.
        var counts = RunTally()
        /// What the script of the last outcome reported asked for next (`postman.setNextRequest`) when the file ran
        /// in order, which may send the run to another file; only that is kept of it, not a copy of every outcome.
        var nextRequest: NextRequest?
        var carried: Carried
        var secrets: Set<String> = []
        /// Why the file did not run at all (its environment could not be read).
        var notRun: String?
    }

    private func record(_ result: FileResult, entry: RunPlan.Entry, round: Int, into tally: inout RunTally) {
        if let notRun = result.notRun {
            Console.error("\(entry.displayPath): not run: \(notRun)")
            tally.filesWithErrors.insert(entry.displayPath)
            return
        }
        tally.add(counts: result.counts)
        // Without a report nothing more is kept: a long run's memory stays flat.
        guard writesReports else { return }
        let used = result.secrets.union(result.outcomes.flatMap(\.secrets))
        tally.report.add(result.outcomes, file: entry.displayPath, secrets: invocation.showSecrets ? [] : used,
                         round: round, attempts: recorder.attempts(for:))
    }

    /// Runs one file's requests, in order or (with `limit`) concurrently, printing each outcome as it
    /// finishes.
    private func runFile(_ entry: RunPlan.Entry, pass: Pass, carried: Carried, limit: ConcurrencyLimit?) async
        -> FileResult {
        if limit == nil && plan.isFolder && showsHeaders {
            Console.out("==> \(entry.displayPath) <==" + (invocation.summary ? "" : "\n"))
        }
        let environment: CourierCollections.Environment
        switch entry.environment {
        case .success(let found): environment = found
        case .failure(let error): return FileResult(carried: carried, notRun: "\(error)")
        }
        var secrets = environment.secretValues
        if let passphrase = invocation.certificatePassphrase { secrets.insert(passphrase) }
        // Unverified TLS is said before it is used: once for the file when its environment says so,
        // else for each request marked `# @insecure`.
        let environmentUnverified = environment.tls.unverifiedBy != nil
        if let unverifiedBy = environment.tls.unverifiedBy {
            Console.warnUnverified(because: "verifyHostCertificate: false in \(unverifiedBy)")
        }
        let exchange = self.exchange
        let fileLanes = lanes.map { lane in
            let send = lane.send
            let warned: CollectionRunner.Send = { request, context async throws(APIError) -> HTTPResponse in
                if !environmentUnverified { RunCommand.warnIfUnverified(request) }
                return try await send(request, context)
            }
            return SendLanes.Lane(executor: lane.executor, send: warned)
        }
        let fileExchange: CollectionRunner.Exchange = { resolved in
            if !environmentUnverified { RunCommand.warnIfUnverified(resolved.request) }
            return await exchange(resolved)
        }
        // A --data row's values rank just below --var.
        var context = VariableContext(overrides: pass.iteration.values.merging(invocation.overrides) { $1 },
                                      environment: environment, responses: carried.responses,
                                      globals: carried.globals)
        context.iteration = pass.iteration
        context.certificatePassphrase = invocation.certificatePassphrase
        context.clientCertificate = invocation.clientCertificate
        context.fileAccess = CollectionFileAccess(root: plan.root, allowedReads: invocation.allowedReads,
                                                  allowsOverwrite: invocation.allowOverwrite, ledger: .standard())
        var runner = CollectionRunner(file: entry.loaded.file, baseFolder: entry.loaded.url.deletingLastPathComponent(),
                                      context: context, imports: entry.imports, exchange: fileExchange,
                                      send: fileLanes.lanes[0].send)
        runner.showSecrets = invocation.showSecrets
        runner.cookieJars = cookies
        runner.keepsEveryOutcome = writesReports
        if limit == nil { runner.requestsElsewhere = requestsElsewhere(than: entry.displayPath) }
        runner.runsSideBySide = limit != nil
        let call = self.call
        runner.call = { resolved async throws(APIError) in
            if !environmentUnverified { RunCommand.warnIfUnverified(resolved.request) }
            return try await call(resolved)
        }
        let file = plan.isFolder ? entry.displayPath : nil
        let place = ErrorPlace(file: entry.displayPath, variables: entry.loaded.file.fileVariables,
                               sources: entry.variableSources, path: entry.loaded.file.path,
                               environment: (try? entry.environment.get())?.name)
        let iteration = iterations.count > 1 ? pass.iteration.index : nil
        let writesReports = self.writesReports
        let onOutcome: @Sendable (RunOutcome) -> Void = { [secrets] outcome in
            // Printed on the output lane: the next request need not wait for this one's formatting.
            Console.whenItsTurnComes {
                self.print(outcome, header: limit != nil && self.plan.isFolder ? entry.displayPath : nil,
                           secrets: secrets, file: file, place: place, iteration: iteration)
                // Its attempts were printed; only a report reads them again.
                if !writesReports { self.recorder.forget(outcome.context.id) }
            }
        }
        // Each outcome is counted as it is printed, and the runner need not keep it (20,000 kept outcomes of a
        // parallel run were most of its memory).
        let reported = ReportedOutcomes()
        let inOrder = limit == nil
        let report: @Sendable (RunOutcome) -> Void = { outcome in
            reported.state.withLock { state in
                state.counts.add(outcome)
                // Only a file run in order goes on where its last script says (`nextPosition`).
                if inOrder { state.nextRequest = outcome.scripts.nextRequest }
            }
            onOutcome(outcome)
        }
        let kept = if let limit {
            await runner.runConcurrently(entry.requests, limit: limit, lanes: fileLanes,
                                         failFast: invocation.failFast, onOutcome: report)
        } else {
            await runner.runKeepingState(entry.requests, failFast: invocation.failFast, onOutcome: report)
        }
        let (counts, nextRequest) = reported.state.withLock { ($0.counts, $0.nextRequest) }
        return FileResult(outcomes: kept.outcomes, counts: counts, nextRequest: nextRequest,
                          carried: Carried(responses: kept.responses, globals: kept.globals), secrets: secrets)
    }

    /// What a file's run has reported so far (a parallel run's outcomes are reported from the threads they ran
    /// on).
    private final class ReportedOutcomes: Sendable {
        let state = Mutex((counts: RunTally(), nextRequest: NextRequest?.none))
    }

    /// Prints one outcome whole; in a parallel folder run, after its file's header when the last outcome
    /// printed was of another file.
    private func print(_ outcome: RunOutcome, header: String?, secrets: Set<String>, file: String?,
                       place: ErrorPlace, iteration: Int?) {
        lastHeader.withLock { last in
            if let header, last != header, showsHeaders {
                Console.out("==> \(header) <==" + (invocation.summary ? "" : "\n"))
                last = header
            }
            let attempts = recorder.attempts(for: outcome.context.id)
            if invocation.testOnly {
                if invocation.quiet && (outcome.succeeded || outcome.skipped != nil) { return }
                RunCommand.printTestOnly(outcome, secrets: secrets, showSecrets: invocation.showSecrets, file: file)
            } else {
                RunCommand.print(outcome, attempts: attempts, invocation: invocation, secrets: secrets, file: file,
                                 place: place, iteration: iteration)
            }
        }
    }
}
