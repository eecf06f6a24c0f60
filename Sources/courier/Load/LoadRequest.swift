import CourierCollections
import CourierHTTP
import Foundation
import Synchronization

/// How `courier load` sends its request. A request with no scripts whose text uses no dynamic variable
/// (`{{$uuid}}`, `{{$timestamp}}`, …, also through a file or environment variable) is the same request every
/// time: it is resolved once and sent as it is, through the same client (cookie jar, auth, signing), and
/// straight to the transport when no step of the client's pipeline has work for it but the cookie jar
/// (`HTTPClient.direct`). Any other request goes the whole way `courier run` takes, once per send.
struct LoadRequest: Sendable {
    /// What one send gave: the response, or why there was none; and whether it counts as failed.
    struct Result: Sendable {
        var response: HTTPResponse?
        /// The kind a failure is counted under (`LoadTally.errorKind`); nil when it succeeded or failed only
        /// by its status.
        var errorKind: String?
        var failed: Bool
        /// How long the exchange took from its transfer's start (libcurl's total time), as wrk times it:
        /// nil when there was none or it followed a redirect (the time is then the last hop's only).
        var exchange: Duration?
        /// The head libcurl sent for it, when the send was asked to keep it (`keepingHead`) and it went straight
        /// to the transport.
        var sentHead: String?
    }

    private enum Plan: Sendable {
        case resolved(HTTPRequest)
        case direct(HTTPRequest, HTTPClient.DirectSend)
        case perSend(CollectionRunner)
    }

    let template: RequestTemplate
    private let plan: Plan
    private let send: CollectionRunner.Send
    /// The curl loop's own way to send it again and again (closed loop), when it is sent straight to the
    /// transport and that is libcurl's (`CurlRepeater`).
    let repeater: CurlRepeater?

    /// The request `template` of `runner`'s file, resolved now when it stays the same from send to send;
    /// `direct` gives the way past the pipeline for a resolved request when there is one.
    init(template: RequestTemplate, runner: CollectionRunner, send: @escaping CollectionRunner.Send,
         direct: (HTTPRequest) -> HTTPClient.DirectSend? = { _ in nil }) {
        self.template = template
        self.send = send
        if let request = Self.fixedRequest(template, runner: runner) {
            plan = direct(request).map { .direct(request, $0) } ?? .resolved(request)
        } else {
            plan = .perSend(runner)
        }
        if case .direct(_, let send) = plan { repeater = send.repeater } else { repeater = nil }
    }

    /// Whether an exchange the curl loop sent itself failed, as `courier run` judges a response.
    func failed(_ exchange: RepeatedExchange) -> Bool {
        guard let status = exchange.status else { return true }
        return !RequestSender.accepts(status, for: template)
    }

    /// Whether the loop may send the rest after `result`: its response neither followed a redirect nor set a
    /// cookie (each would hand the loop's run back at once).
    static func leavesLoopAlone(_ result: Result) -> Bool {
        guard let response = result.response else { return true }
        return result.exchange != nil && response.headers.values(for: "Set-Cookie").isEmpty
    }

    /// True when every send reuses one resolved request.
    var resolvedOnce: Bool {
        switch plan {
        case .resolved, .direct: true
        case .perSend: false
        }
    }

    /// True when every send goes straight to the transport.
    var sentDirect: Bool {
        if case .direct = plan { true } else { false }
    }

    /// Sends the request once; `keepingHead` keeps the head libcurl sent (`Result.sentHead`) when it goes straight
    /// to the transport, for the loop that writes the same bytes again (`WireRepeater`).
    func callAsFunction(keepingHead: Bool = false) async -> Result {
        switch plan {
        case .direct(let request, let direct):
            let head = Mutex<String?>(nil)
            var context = RequestContext()
            if keepingHead { context.onRequestHead = { sent in head.withLock { $0 = sent } } }
            do {
                let response = try await direct(context: context)
                return Result(response: response, failed: !RequestSender.accepts(response.status, for: template),
                              exchange: response.url == request.url ? response.timing.total : nil,
                              sentHead: head.withLock { $0 })
            } catch {
                return Result(errorKind: error.kind.rawValue, failed: true)
            }
        case .resolved(let request):
            do {
                let response = try await send(request, RequestContext())
                return Result(response: response, failed: !RequestSender.accepts(response.status, for: template),
                              exchange: response.url == request.url ? response.timing.total : nil)
            } catch {
                return Result(errorKind: error.kind.rawValue, failed: true)
            }
        case .perSend(let runner):
            guard let outcome = await runner.run([template]).last else {
                return Result(errorKind: "cancelled", failed: true)
            }
            return Result(response: outcome.response, errorKind: LoadTally.errorKind(outcome),
                          failed: !outcome.succeeded, exchange: outcome.response?.timing.total)
        }
    }

    /// The request resolved once, when nothing in sending it depends on the send: no scripts (of the request
    /// or the file), no steps that run first or around it, and no value from the clock or the random source.
    /// Nil when it must be resolved for each send, or does not resolve (each send then reports why).
    static func fixedRequest(_ template: RequestTemplate, runner: CollectionRunner) -> HTTPRequest? {
        let file = runner.file
        guard template.kind == .http || template.kind == .graphql, !file.hasScripts(template),
              template.runs.isEmpty, template.runsBefore.isEmpty, template.references.isEmpty,
              template.loop == nil, template.responseRedirects.isEmpty,
              template.tags[CollectionRunner.disabledTag] == nil, template.tags[CollectionRunner.sleepTag] == nil
        else { return nil }
        let probe = DynamicProbe()
        var context = runner.context
        context.dynamic = probe.watching(context.dynamic)
        guard let resolved = try? Resolver(file: file, baseFolder: runner.baseFolder, context: context)
            .resolve(template), !probe.consulted
        else { return nil }
        // A GraphQL subscription runs as a WebSocket request: the whole path says so (or what is wrong).
        do {
            if try resolved.asGraphQLSubscription() != nil { return nil }
        } catch {
            return nil
        }
        return resolved.request
    }
}

/// Notes whether resolving a request asked the clock or the random source: then each send differs.
private final class DynamicProbe: Sendable {
    private let asked = Atomic<Bool>(false)

    var consulted: Bool { asked.load(ordering: .relaxed) }

    /// `values` with every source noting that it was asked.
    func watching(_ values: DynamicValues) -> DynamicValues {
        DynamicValues(uuid: { self.note(); return values.uuid() },
                      now: { self.note(); return values.now() },
                      randomInt: { self.note(); return values.randomInt($0) }, timeZone: values.timeZone)
    }

    private func note() { asked.store(true, ordering: .relaxed) }
}
