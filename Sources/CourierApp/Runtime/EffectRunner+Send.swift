import CourierBody
import CourierCollections
import CourierHTTP
import CourierHistory
import Foundation

/// Sending: resolving a request (and running its scripts) in the send task, the client call, history, and
/// delivering the outcome to the loop as actions.
extension EffectRunner {
    func submit(_ job: SendJob, generation: Int, through latest: LatestOnly<SendResult>?) {
        guard let latest else { return }
        let client = self.client
        let queue = self.queue
        let store = self.store
        let history = self.history
        let cookies = configuration.cookies
        let watcher = SendWatcher(queue: queue, cookies: cookies, name: job.draft.name,
                                  generation: generation, live: latest !== immediate.withLock({ $0 }))
        // A GRPC request is a gRPC call whose reply comes back as a response (GRPCRequestCall).
        // One that streams goes on in the live pane (WebSocketPaneConnector), its metadata's secrets masked there.
        let webSocket = self.webSocket
        let grpc: CollectionRunner.Call = { [self] resolved async throws(APIError) in
            try await grpcCall().perform(resolved) { call, url, messages in
                let ticket = webSocket.beginConnect()
                queue.post(.secretsLearned(resolved.secretSet.union(resolved.request.headers.secretValues)))
                queue.post(.grpcCallLive(generation: generation))
                webSocket.open(grpc: call, url: url, messages: messages, ticket: ticket)
            }
        }
        // Held across submit so the delivery, on another thread, always finds the mapping.
        submissions.withLock { map in
            let token = latest.submit(as: UInt64(generation)) {
                // Resolving reads environment and body files, and pre-request scripts may run to their time limit:
                // all of it happens in this task (scripts on a thread of their own), never on the loop thread.
                let sent: (request: RequestTemplate, outcomes: [RunOutcome])
                do throws(CollectionError) {
                    sent = try await store.send(job, observer: watcher, call: grpc,
                                                cookieJars: cookies) { request, context async throws(APIError) in
                        // In-flight progress (EffectRunner+Progress.swift): the request's id, for its attempts,
                        // and its body's bytes.
                        try await client.send(request, context: Self.progressContext(context, generation: generation,
                                                                                     queue: queue))
                    }
                } catch {
                    // Never sent. The message may quote a private value or a secret global: the screen masks those.
                    queue.post(.secretsLearned(store.knownSecrets(job)))
                    return .unresolved(Self.failure(error))
                }
                return try Self.result(of: sent.outcomes, request: sent.request, job: job, generation: generation, known: store.knownSecrets(job),
                                       history: history, queue: queue)
            }
            map[token] = Submission(generation: generation, watcher: watcher)
        }
    }

    /// What the Response pane shows of a send: the request's own answer, or for a send that ran several
    /// requests (a run block, `# @ref`, `# @loop`) the last answer with a line naming each request run. Each
    /// answer is kept in history (unless `# @no-log`); a transport failure of a lone request is thrown, so
    /// a cancel reads as one.
    static func result(of outcomes: [RunOutcome], request sent: RequestTemplate, job: SendJob, generation: Int, known: Set<String>,
                       history: HistoryStore?, queue: ActionQueue) throws(APIError) -> SendResult {
        // A request that reads or replaces a file the user may allow: ask, then the send runs again.
        for outcome in outcomes {
            if case .collection(let error)? = outcome.failure, case .fileAccess(let refusal) = error,
               refusal.canBeAllowed {
                for body in outcomes.compactMap(\.response?.body) { TemporaryBodyFiles.release(body) }
                return .unresolved(failure(error))
            }
        }
        // Secrets the handlers stored and those the client added on the way (the jar's cookies, a redirect's
        // user info) are masked too, with the private values an error may quote.
        let secrets = outcomes.reduce(known) { $0.union($1.secrets) }
        queue.post(.secretsLearned(secrets))
        for outcome in outcomes {
            if !outcome.scripts.tests.isEmpty || !outcome.scripts.logs.isEmpty || outcome.scripts.error != nil {
                queue.post(.scriptsRan(outcome.context.id, outcome.scripts))
            }
            if let response = outcome.response, response.cache.decision == .fresh {
                queue.post(.servedFromCache(outcome.context.id, method: outcome.resolved?.request.method.rawValue ?? "",
                                            url: response.url, status: response.status, response.cache))
            }
        }
        // The pane maps the body first; then each answer is kept in history (`# @no-log`: kept nowhere) and its
        // temporary body file removed: the viewer's mapping stays readable and the disk space returns when the
        // response is replaced.
        // The request's own answer, alone; or several requests a run block, `# @ref` or `# @loop` ran.
        let alone = outcomes.count == 1 && outcomes[0].template.id == sent.id && !sent.isRunBlock
        defer {
            for outcome in outcomes {
                guard let response = outcome.response else { continue }
                let own = alone
                let noLog = own ? job.draft.noLog : outcome.template.tags["no-log"] != nil
                if let history, !noLog, let request = outcome.resolved?.request {
                    recordHistory(request: request, response: response,
                                  name: own ? job.draft.name : (outcome.template.name ?? ""),
                                  path: own ? job.ref?.file : outcome.template.id.file, draft: own ? job.draft : nil,
                                  secrets: secrets, generation: own ? generation : nil, history: history, queue: queue)
                } else {
                    TemporaryBodyFiles.release(response.body)
                }
            }
        }
        guard alone, let outcome = outcomes.first else { return ranSeveral(outcomes) }
        guard let response = outcome.response else {
            switch outcome.failure {
            case .collection(let error)?: return .unresolved(failure(error))
            case .transport(let error)?: throw error
            case .script(let error)?: return .unresolved(SendFailure(kind: .script, message: "\(error)"))
            default:
                return .unresolved(SendFailure(kind: .request, message: outcome.skipped ?? outcome.shortSummary))
            }
        }
        var pane = ResponseFormatter.pane(response)
        let report = outcome.scripts
        var notes = [report.testSummary, report.error.map { "script error: \($0)" }].compactMap { $0 }
        // What the request does after its answer may fail: a `>> file` it may not write.
        if case .collection(let error)? = outcome.failure { notes.append("then: \(error)") }
        if !outcome.savedTo.isEmpty { notes.append("saved: " + outcome.savedTo.joined(separator: ", ")) }
        pane?.info.tests = notes.isEmpty ? nil : notes.joined(separator: " · ")
        let request = outcome.resolved?.request
        pane?.info.unverifiedTLS = request.map { $0.insecure && $0.url.scheme?.lowercased() == "https" } ?? false
        pane?.info.testsFailed = report.error != nil || report.tests.contains { !$0.passed }
        return .response(pane)
    }

    /// A send that ran several requests: the last answer, with `ran login 200 · me 200`.
    private static func ranSeveral(_ outcomes: [RunOutcome]) -> SendResult {
        let ran = "ran " + outcomes.map(\.shortSummary).joined(separator: " · ")
        guard let response = outcomes.last(where: { $0.response != nil })?.response else {
            return .unresolved(SendFailure(kind: .request, message: outcomes.isEmpty ? "ran nothing" : ran))
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

    /// Records a finished exchange into history in the background, then posts the request's latency when it is
    /// the send's own request (`generation`). The body's temporary file goes afterwards.
    static func recordHistory(request: HTTPRequest, response: HTTPResponse, name: String, path: String?,
                              draft: RequestDraft?, secrets: Set<String>, generation: Int?, history: HistoryStore,
                              queue: ActionQueue) {
        Task.detached(priority: .utility) {
            defer { TemporaryBodyFiles.release(response.body) }
            do {
                let (key, latency) = try HistoryRecording.record(request: request, response: response, name: name,
                                                                 collectionPath: path, draft: draft, secrets: secrets,
                                                                 into: history)
                if let generation {
                    queue.post(.historyRecorded(generation: generation, requestKey: key, latency: latency))
                }
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
            let failure = SendFailure(kind: .transport(error.kind), message: "\(error)",
                                      clientCertificate: error.clientCertificateProblem)
            queue.post(.sendFailed(generation: generation, failure))
        case .superseded(_, let wasSent):
            let byUser = userCancelled.withLock { $0.remove(generation) != nil }
            if wasSent && !byUser, let id = submission.watcher.sentID {
                queue.post(.clientEvent(.cancelled(id, superseded: true)))
            }
            queue.post(.sendCancelled(generation: generation))
        }
    }
}
