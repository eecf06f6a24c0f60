import Foundation
import Synchronization

/// What one exchange of a request the loop sends again and again gave (`CurlRepeater`): its status, or the
/// error that ended it, and libcurl's times and byte counts for it.
public struct RepeatedExchange: Sendable {
    /// The response's status; nil when the exchange failed.
    public var status: Int?
    public var error: APIError?
    /// The exchange's phases and bytes; `bytesReceived` and `bytesOnWire` are the body as it came, not decoded.
    public var timing: Timing
}

/// One request sent over and over by the libcurl loop thread itself, for `courier load`: each of its connections
/// is one easy handle that the loop puts back on the multi handle as soon as its transfer completes, with the
/// options, header list and URL set once. A body is counted and dropped; what the caller keeps of each exchange
/// is a `RepeatedExchange`, recorded on the loop thread. No task, continuation or `HTTPResponse` per request:
/// what each of those cost (executor hops, allocations, the header strings) was most of courier's own share of
/// a keep-alive request.
///
/// Made by `HTTPClient.DirectSend.repeater` for a request no step of the pipeline has work for. A response the
/// transport would follow (a redirect) or one that sets a cookie in the request's jar (which later requests
/// must send) ends the repetition: `run` then says `.handedOver` and the rest goes the ordinary way.
public final class CurlRepeater: Sendable {
    /// How a run ended.
    public enum Ending: Sendable {
        /// `next` said no more, or the task was cancelled.
        case finished
        /// A response redirected or set a cookie, or a connection could not start: the remaining requests must be
        /// sent the ordinary way (`DirectSend`), which follows redirects and sends the jar's cookies.
        case handedOver
    }

    /// What the loop asks of its caller, on the loop thread, for each request.
    public struct Hooks: Sendable {
        /// Whether another request may start now (takes it: `--requests` counts them).
        public var next: @Sendable () -> Bool
        /// Counts one exchange.
        public var record: @Sendable (RepeatedExchange) -> Void
        /// Gives back a request `next` let start that is sent the ordinary way instead (it redirected).
        public var giveBack: @Sendable () -> Void

        public init(next: @escaping @Sendable () -> Bool, record: @escaping @Sendable (RepeatedExchange) -> Void,
                    giveBack: @escaping @Sendable () -> Void) {
            self.next = next
            self.record = record
            self.giveBack = giveBack
        }
    }

    let transport: CurlTransport
    let request: HTTPRequest
    /// The jar a cookie the server sets goes to; nil when the request names none.
    let jar: CookieJar?

    init(transport: CurlTransport, request: HTTPRequest, jar: CookieJar?) {
        self.transport = transport
        self.request = request
        self.jar = jar
    }

    /// Sends the request on up to `connections` handles at once until `hooks.next` says no more, a response
    /// hands over, or the task is cancelled (exchanges still running then are aborted and not recorded).
    public func run(connections: Int, hooks: Hooks) async -> Ending {
        var count = 0
        while count < connections, hooks.next() { count += 1 }
        guard count > 0 else { return .finished }
        let group = CurlRepeatGroup(hooks: hooks)
        let loop = transport.loop
        let jobs = (0..<count).map { _ in
            CurlRepeatJob(id: transport.nextTransferID(), group: group, request: request,
                          url: request.url.absoluteString, configuration: transport.configuration, jar: jar)
        }
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                guard group.begin(jobs.map(\.id), continuation: continuation) else { return }
                for job in jobs { loop.submit(job) }
            }
        } onCancel: {
            for id in group.cancel() { loop.cancel(id) }
        }
        return group.handedOver ? .handedOver : .finished
    }
}

extension HTTPClient.DirectSend {
    /// The way to send this request again and again from the loop thread itself (`CurlRepeater`); nil when the
    /// transport is not libcurl's, the URL is not one it sends, the body streams from files, or the jar has
    /// cookies for the request (which may change from one send to the next).
    public var repeater: CurlRepeater? {
        guard let transport = transport as? CurlTransport,
              let scheme = request.url.scheme?.lowercased(), CurlTransport.supportedSchemes.contains(scheme),
              request.url.host?.isEmpty == false else { return nil }
        switch request.body {
        case .file, .parts: return nil
        case .empty, .data: break
        }
        var jar: CookieJar?
        if let cookies {
            let (attached, found) = cookies.attach(to: request)
            guard attached.headers == request.headers else { return nil }
            jar = found
        }
        return CurlRepeater(transport: transport, request: request, jar: jar)
    }
}

/// The connections of one `CurlRepeater.run`: how many still run, and whether they stop.
final class CurlRepeatGroup: Sendable {
    private struct State {
        var remaining = 0
        var continuation: UnsafeContinuation<Void, Never>?
        var ids: [UInt64] = []
        var cancelled = false
    }

    let hooks: CurlRepeater.Hooks
    private let state = Mutex(State())
    private let stopped = Atomic<Bool>(false)
    private let handed = Atomic<Bool>(false)

    init(hooks: CurlRepeater.Hooks) { self.hooks = hooks }

    /// Whether the run was cancelled: a completed exchange is then not recorded.
    var cancelled: Bool { stopped.load(ordering: .relaxed) }

    /// Whether a response handed the rest of the run over: no connection sends again.
    var handedOver: Bool { handed.load(ordering: .relaxed) }

    /// Starts waiting for the connections `ids`; false (the continuation resumed) when cancelled already.
    func begin(_ ids: [UInt64], continuation: UnsafeContinuation<Void, Never>) -> Bool {
        let started = state.withLock { state in
            guard !state.cancelled else { return false }
            state.remaining = ids.count
            state.ids = ids
            state.continuation = continuation
            return true
        }
        if !started { continuation.resume() }
        return started
    }

    /// Marks the run cancelled; returns the connections to abort.
    func cancel() -> [UInt64] {
        stopped.store(true, ordering: .relaxed)
        return state.withLock { state in
            state.cancelled = true
            return state.ids
        }
    }

    func handOver() { handed.store(true, ordering: .relaxed) }

    /// One connection has stopped; the last resumes the run.
    func ended() {
        let continuation = state.withLock { state -> UnsafeContinuation<Void, Never>? in
            state.remaining -= 1
            guard state.remaining == 0 else { return nil }
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume()
    }
}

/// One connection of a `CurlRepeater` run, waiting for the loop thread.
final class CurlRepeatJob: LoopJob, Sendable {
    let id: UInt64
    let group: CurlRepeatGroup
    let request: HTTPRequest
    let url: String
    let configuration: CurlTransport.Configuration
    let jar: CookieJar?

    init(id: UInt64, group: CurlRepeatGroup, request: HTTPRequest, url: String,
         configuration: CurlTransport.Configuration, jar: CookieJar?) {
        self.id = id
        self.group = group
        self.request = request
        self.url = url
        self.configuration = configuration
        self.jar = jar
    }

    func start(on easy: UnsafeMutableRawPointer) throws(APIError) -> any LoopTransfer {
        CurlRepeatTransfer(job: self, easy: easy)
    }

    /// A connection that never started: the rest of the run goes the ordinary way, which reports why.
    func fail(_ error: APIError) {
        if error.kind != .cancelled { group.handOver() }
        group.ended()
    }
}
