import CourierBody
import CourierCollections
import CourierHTTP
import Foundation

/// Sending: resolving a request (and running its scripts) in the send task, the client call, history, and
/// delivering the outcome to the loop as actions.
extension EffectRunner {
    func submit(_ job: SendJob, generation: Int, through latest: LatestOnly<SendResult>?) {
        guard let latest else { return }
        let id = RequestID.next()
        let client = self.client
        let queue = self.queue
        // In-flight progress (EffectRunner+Progress.swift): the send's id for its attempts, and its bytes.
        queue.post(.sendStarted(generation: generation, id: id))
        let context = Self.progressContext(id: id, generation: generation, queue: queue)
        let debounced = latest !== immediate.withLock({ $0 })
        let store = self.store
        let name = job.draft.name
        let history = self.history
        let cookies = configuration.cookies
        // Held across submit so the delivery, on another thread, always finds the mapping.
        submissions.withLock { map in
            let token = latest.submit {
                if !job.draft.runs.isEmpty { return await Self.runBlock(job, store: store, client: client) }
                // Resolving reads environment and body files, and a request's pre-request scripts may run to
                // their time limit: both happen here, in the task, never on the loop thread.
                let request: HTTPRequest
                var secrets: Set<String>
                var report = ScriptReport()
                var prepared: ResolvedRequest?
                if store.hasScripts(job) {
                    // Scripts get a thread of their own: one that runs to its time limit must not hold a
                    // thread of the shared pool the rest of the explorer's work runs on.
                    let outcome: Result<PreparedSend, CollectionError> = await Self.onOwnThread {
                        var report = ScriptReport()
                        do throws(CollectionError) {
                            let result = try store.prepareWithScripts(job, report: &report)
                            return .success((result.resolved, result.request, report))
                        } catch {
                            return .failure(error)
                        }
                    }
                    switch outcome {
                    case .success(let ready):
                        (prepared, request, report) = ready
                        secrets = ready.resolved.secrets
                    case .failure(let error):
                        // Never sent: the pre-request script (or resolving after it) failed. Its message
                        // may quote a private value or a secret global: the screen masks those.
                        queue.post(.secretsLearned(store.knownSecrets(job)))
                        return .unresolved(Self.failure(error))
                    }
                } else {
                    do throws(CollectionError) {
                        (request, _, secrets) = try store.resolveWithSecrets(job)
                    } catch {
                        queue.post(.secretsLearned(store.knownSecrets(job)))
                        return .unresolved(Self.failure(error))
                    }
                }
                // What this request sends as credentials may come back in the response (a server that
                // echoes the request): the screen masks it like the private values that went in.
                secrets.formUnion(request.secretValues)
                queue.post(.secretsLearned(secrets))
                if let cookies, let jar = request.cookieJar {
                    let lines = cookies.jar(jar).cookies(for: request.url)
                        .map { "\($0.name)=\($0.shownValue(showSecrets: false))" }
                    queue.post(.requestCookies(request: name, lines: lines))
                }
                let method = request.method.rawValue
                let url = request.url.absoluteString
                if debounced { queue.post(.liveSendStarted(generation: generation, method: method, url: url)) }
                let response = try await client.send(request, context: context)
                // And so do those the client added on the way (the jar's cookies, a redirect's user info).
                if !response.sentSecrets.isSubset(of: secrets) {
                    secrets.formUnion(response.sentSecrets)
                    queue.post(.secretsLearned(response.sentSecrets))
                }
                if response.cache.decision == .fresh {
                    queue.post(.servedFromCache(id, method: method, url: response.url, status: response.status,
                                                response.cache))
                }
                store.record(name: name, response: response, request: request)
                if let prepared {
                    let handled = await Self.onOwnThread { [report] in
                        var report = report
                        let secretGlobals = store.handle(response, of: prepared, job: job, report: &report)
                        return (report, secretGlobals)
                    }
                    // A secret the handlers just stored (a token from this response) is masked in history too.
                    report = handled.0
                    secrets.formUnion(handled.1)
                    queue.post(.secretsLearned(handled.1))
                    queue.post(.scriptsRan(id, report))
                }
                var pane = ResponseFormatter.pane(response)
                // Once mapped and read, a temporary body file is removed: the viewer's mapping stays readable
                // and the disk space returns when the response is replaced, so sending a large request again
                // and again, or quitting, leaves nothing in the temporary folder.
                // `# @no-log`: the user asked that this exchange be kept nowhere.
                if let history, !job.draft.noLog {
                    Self.recordHistory(request: request, response: response, name: name, path: job.ref?.file,
                                       draft: job.draft,
                                       secrets: secrets, generation: generation, history: history, queue: queue)
                } else {
                    TemporaryBodyFiles.release(response.body)
                }
                let notes = [report.testSummary, report.error.map { "script error: \($0)" }].compactMap { $0 }
                pane?.info.tests = notes.isEmpty ? nil : notes.joined(separator: " · ")
                pane?.info.unverifiedTLS = request.insecure && request.url.scheme?.lowercased() == "https"
                pane?.info.testsFailed = report.error != nil || report.tests.contains { !$0.passed }
                return .response(pane)
            }
            map[token] = Submission(generation: generation, id: id)
        }
    }

    /// Sends a run block: the requests it names run in order, and the Response pane shows the last answer
    /// with a line naming each request run and its status. Its requests are not recorded in history.
    static func runBlock(_ job: SendJob, store: CollectionStore, client: HTTPClient) async -> SendResult {
        let outcomes: [RunOutcome]
        do {
            outcomes = try await store.runBlock(job) { request, context async throws(APIError) -> HTTPResponse in
                try await client.send(request, context: context)
            }
        } catch {
            return .unresolved(failure(error))
        }
        // A request that reads or replaces a file the user may allow: ask, then the block runs again.
        for outcome in outcomes {
            if case .collection(let error)? = outcome.failure, case .fileAccess(let refusal) = error,
               refusal.canBeAllowed {
                for body in outcomes.compactMap(\.response?.body) { TemporaryBodyFiles.release(body) }
                return .unresolved(failure(error))
            }
        }
        let ran = "ran " + outcomes.map(\.shortSummary).joined(separator: " · ")
        guard let shown = outcomes.lastIndex(where: { $0.response != nil }), let response = outcomes[shown].response
        else {
            return .unresolved(SendFailure(kind: .request, message: outcomes.isEmpty ? "ran nothing" : ran))
        }
        // Only the last answer is shown: the others' temporary body files go now.
        for (index, outcome) in outcomes.enumerated() where index != shown {
            if let body = outcome.response?.body { TemporaryBodyFiles.release(body) }
        }
        var pane = ResponseFormatter.pane(response)
        pane?.info.tests = ran
        pane?.info.testsFailed = outcomes.contains { !$0.succeeded }
        return .response(pane)
    }

    /// Why a request could not be built, in the kinds the Response pane explains.
    static func failure(_ error: CollectionError) -> SendFailure {
        let kind: SendFailure.Kind = switch error {
        case .unknownVariable: .unknownVariable
        case .script: .script
        case .certificatePassphraseMissing: .certificatePassphrase
        case .fileAccess(let refusal) where refusal.canBeAllowed: .fileAccess(refusal)
        default: .request
        }
        return SendFailure(kind: kind, message: "\(error)")
    }

    /// Runs blocking work (request scripts) on a thread of its own and waits for it without holding a
    /// thread of the cooperative pool.
    static func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    /// Records a finished exchange into history in the background, then posts the request's latency.
    static func recordHistory(request: HTTPRequest, response: HTTPResponse, name: String, path: String?,
                                      draft: RequestDraft,
                                      secrets: Set<String>, generation: Int, history: HistoryStore, queue: ActionQueue) {
        Task.detached(priority: .utility) {
            defer { TemporaryBodyFiles.release(response.body) }
            do {
                let (key, latency) = try HistoryRecording.record(request: request, response: response, name: name,
                                                                 collectionPath: path, draft: draft, secrets: secrets,
                                                                 into: history)
                queue.post(.historyRecorded(generation: generation, requestKey: key, latency: latency))
            } catch {
                queue.post(.notice(StatusMessage("Not kept in history: \(error)", kind: .error)))
            }
        }
    }

    func deliver(_ outcome: LatestOnly<SendResult>.Outcome) {
        guard let submission = submissions.withLock({ $0.removeValue(forKey: outcome.generation) }) else { return }
        let generation = submission.generation
        switch outcome {
        case .completed(_, .success(.unresolved(let failure))):
            queue.post(.sendFailed(generation: generation, failure))
        case .completed(_, .success(.response(let pane?))):
            queue.post(.responsePaneReady(generation: generation, pane))
        case .completed(_, .success(.response(nil))):
            queue.post(.sendFailed(generation: generation, SendFailure(
                kind: .body, message: "The response arrived but its body file could not be read")))
        case .completed(_, .failure(.cancelled)):
            queue.post(.sendCancelled(generation: generation))
        case .completed(_, .failure(let error)):
            let failure = SendFailure(kind: .transport(error.kind), message: "\(error)")
            queue.post(.sendFailed(generation: generation, failure))
        case .superseded(_, let wasSent):
            let byUser = userCancelled.withLock { $0.remove(generation) != nil }
            if wasSent && !byUser { queue.post(.clientEvent(.cancelled(submission.id, superseded: true))) }
            queue.post(.sendCancelled(generation: generation))
        }
    }
}
