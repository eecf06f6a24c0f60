import CourierMessage
import Foundation

/// A private HTTP cache after RFC 9111, as a step of the pipeline. It answers fresh requests from
/// `HTTPCacheStore` without calling `next`, validates stale ones with If-None-Match /
/// If-Modified-Since, stores what the rules allow, invalidates after unsafe requests, and sets
/// `HTTPResponse.cache` on every response it returns (also emitted as `ClientEvent.cacheDecision`).
public struct HTTPCacheMiddleware: Middleware {
    public let store: HTTPCacheStore
    /// The cache's notion of now; tests inject one to move time.
    let clock: @Sendable () -> Date
    let revalidations = RevalidationLog()
    let background = BackgroundRevalidations()

    /// A cache over `store`, reading time from `clock`.
    public init(store: HTTPCacheStore, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.clock = clock
    }

    /// The cache the CLI and the explorer use: `directory` (nil: the default under the user's cache
    /// folder, honouring XDG_CACHE_HOME) holding at most `maxBytes`, its leftovers collected as `housekeeping` says.
    public init(directory: URL?, maxBytes: Int = HTTPCacheStore.defaultMaxBytes,
                housekeeping: HTTPCacheStore.Housekeeping = .whenDue) throws {
        self.init(store: try HTTPCacheStore(directory: directory, maxBytes: maxBytes, housekeeping: housekeeping))
    }

    /// The latest validation of the stored response for `method` and `url`, for the compare view.
    public func lastRevalidation(method: HTTPMethod = .get, url: URL) -> CacheRevalidation? {
        revalidations.latest(key: HTTPCacheStore.key(method: method, url: url))
    }

    /// The stored response that would answer `request`, with its age and freshness now, without
    /// sending anything; nil when nothing usable is stored.
    public func storedResponse(for request: HTTPRequest) -> HTTPResponse? {
        guard case .hit(let entry) = store.lookup(method: request.method, url: request.url, headers: request.headers),
              entry.varyMatches(request.headers) else { return nil }
        let freshness = entry.freshness(now: clock())
        var response = served(entry, request: request, age: freshness.age, forRecord: true)
        response.cache = CacheReport(decision: freshness.isFresh ? .fresh : .stale, age: freshness.age, ttl: freshness.ttl)
        return response
    }

    /// Sends the conditional request for a stored response now, whatever its freshness, and returns
    /// the comparison; nil when nothing usable is stored for the request.
    public func revalidateNow(_ request: HTTPRequest, context: RequestContext = RequestContext(),
                              transport: any Transport) async throws(APIError) -> CacheRevalidation? {
        var forced = request
        forced.cacheMode = .revalidate
        let key = HTTPCacheStore.key(method: request.method, url: request.url)
        let previous = revalidations.sequence(key: key)
        _ = try await intercept(forced, context: context) { request, context throws(APIError) in
            try await transport.send(request, context: context)
        }
        guard revalidations.sequence(key: key) != previous else { return nil }
        return revalidations.latest(key: key)
    }

    // MARK: - The decision

    /// Answers from the cache, validates, or fetches and stores, as RFC 9111 and the cache mode say.
    public func intercept(_ request: HTTPRequest, context: RequestContext,
                          next: @escaping Next) async throws(APIError) -> HTTPResponse {
        if request.cacheMode == .bypass {
            return report(try await next(request, context), CacheReport(decision: .bypass), context)
        }
        guard request.method.isSafe else { return try await sendUnsafe(request, context: context, next: next) }
        guard CachePolicy.storableMethods.contains(request.method) else {
            let detail = "\(request.method) responses are not stored"
            return report(try await next(request, context), CacheReport(decision: .notStored, detail: detail), context)
        }
        if CachePolicy.conditionalRequestHeaders.contains(where: { request.headers.contains($0) }) {
            let detail = "the request carries its own conditional headers"
            return report(try await next(request, context), CacheReport(decision: .bypass, detail: detail), context)
        }
        if request.headers.contains("Range") { return try await answerRange(request, context: context, next: next) }

        let directives = RequestDirectives(request)
        var missDetail: String?
        var stored: HTTPCacheEntry?
        if request.cacheMode != .reload {
            switch store.lookup(method: request.method, url: request.url, headers: request.headers) {
            case .hit(let entry) where entry.varyMatches(request.headers):
                stored = entry
            case .hit(let entry):
                missDetail = entry.vary == .any ? "the stored response has Vary: *"
                    : "the request differs in a header named by Vary"
            case .miss:
                break
            case .unreadable(let reason):
                missDetail = "an unreadable entry was discarded: \(reason)"
            }
        }

        if stored == nil, request.method == .head, request.cacheMode != .reload,
           let answer = headFromStoredGet(request, directives: directives, context: context) {
            return answer
        }
        guard let entry = stored else {
            if directives.onlyIfCached {
                return gatewayTimeout(request, detail: missDetail ?? "nothing stored (only-if-cached)", context)
            }
            let decision: CacheDecision = request.cacheMode == .reload ? .bypass : .miss
            return try await fetch(request, context: context, next: next, decision: decision, detail: missDetail)
        }

        let freshness = entry.freshness(now: clock())
        switch reuse(entry, freshness: freshness, directives: directives, mode: request.cacheMode) {
        case .fresh:
            return announced(report(served(entry, request: request, age: freshness.age),
                                    CacheReport(decision: .fresh, age: freshness.age, ttl: freshness.ttl), context),
                             context)
        case .stale(let why):
            return announced(report(served(entry, request: request, age: freshness.age),
                                    CacheReport(decision: .stale, age: freshness.age, ttl: freshness.ttl, detail: why),
                                    context),
                             context)
        case .staleWhileRevalidating(let why):
            revalidateInBackground(entry, freshness: freshness, request: request, next: next)
            return announced(report(served(entry, request: request, age: freshness.age),
                                    CacheReport(decision: .stale, age: freshness.age, ttl: freshness.ttl, detail: why),
                                    context),
                             context)
        case .validate(let why):
            if directives.onlyIfCached {
                return gatewayTimeout(request, detail: "the stored response must be validated (\(why))", context)
            }
            return try await validate(entry, freshness: freshness, request: request, directives: directives,
                                      context: context, next: next)
        }
    }

    /// Whether a stored response may be reused as it is (RFC 9111 section 4).
    enum Reuse: Equatable {
        case fresh
        case stale(String)
        /// Served stale now and validated in the background (RFC 5861 stale-while-revalidate).
        case staleWhileRevalidating(String)
        case validate(String)
    }

    func reuse(_ entry: HTTPCacheEntry, freshness: CacheFreshness, directives: RequestDirectives,
               mode: CacheMode) -> Reuse {
        let response = CacheControl(headers: entry.headers) ?? CacheControl()
        if mode == .revalidate { return .validate("cache mode revalidate") }
        if directives.noCache { return .validate("the request said no-cache") }
        if response.noCache == .all { return .validate("the response said no-cache") }
        // A reload (max-age=0 on the request) leaves a fresh immutable response alone (RFC 8246 section 2);
        // no-cache, the force reload, still validates it.
        let reloadSkipsIt = freshness.isFresh && response.immutable
        switch directives.control.maxAge {
        case .value(let limit) where freshness.age > Double(limit) && !reloadSkipsIt:
            return .validate("older than the request's max-age=\(limit)")
        case .invalid:
            return .validate("the request's max-age is invalid")
        default:
            break
        }
        if freshness.isFresh {
            switch directives.control.minFresh {
            case .value(let limit) where freshness.ttl < Double(limit):
                return .validate("fresh for less than the request's min-fresh=\(limit)")
            default:
                return .fresh
            }
        }
        if response.mustRevalidate { return .validate("stale, and the response said must-revalidate") }
        switch directives.control.maxStale {
        case .any:
            return .stale("the request accepts any staleness (max-stale)")
        case .limit(let limit) where freshness.staleness <= Double(limit):
            return .stale("stale by \(Int(freshness.staleness)) s, within the request's max-stale=\(limit)")
        default:
            break
        }
        if mode == .default, case .value(let window) = response.staleWhileRevalidate,
           freshness.staleness <= Double(window) {
            return .staleWhileRevalidating("stale by \(Int(freshness.staleness)) s, within stale-while-revalidate="
                                           + "\(window): served now, validated in the background")
        }
        return .validate("stale")
    }

    // MARK: - Reporting

    /// Sets the report on the response and publishes it.
    func report(_ response: HTTPResponse, _ report: CacheReport, _ context: RequestContext) -> HTTPResponse {
        var response = response
        response.cache = report
        context.events.emit(.cacheDecision(context.id, report))
        return response
    }

    /// Hands the head of a response the cache answers itself to `context.onHead`: the transport
    /// announces the heads of network answers, and the caller sees a head for every response.
    func announced(_ response: HTTPResponse, _ context: RequestContext) -> HTTPResponse {
        context.onHead?(ResponseHead(response))
        return response
    }

    /// The 504 that only-if-cached asks for when nothing stored may answer (RFC 9111 section 5.2.1.7).
    func gatewayTimeout(_ request: HTTPRequest, detail: String, _ context: RequestContext) -> HTTPResponse {
        let response = HTTPResponse(status: 504, reason: "Gateway Timeout",
                                    headers: ["Content-Type": "text/plain; charset=utf-8"],
                                    body: .data(Data("Not in the cache: \(detail)\n".utf8)), url: request.url)
        return announced(report(response, CacheReport(decision: .miss, detail: detail), context), context)
    }

    /// A stored response as served: an Age field, and no fields that a qualified no-cache withholds.
    /// `forRecord` keeps the body for the compare view instead of handing a file to the caller.
    func served(_ entry: HTTPCacheEntry, request: HTTPRequest, age: Double, forRecord: Bool = false,
                withBody: Bool = true) -> HTTPResponse {
        var headers = entry.headers
        if case .fields(let names) = (CacheControl(headers: headers) ?? CacheControl()).noCache {
            for name in names { headers.remove(name) }
        }
        headers.set("Age", String(Int(min(age, Double(CacheControl.maxDeltaSeconds)))))
        let body: ResponseBody
        if !withBody {
            body = .data(Data())
        } else if forRecord {
            body = Self.recordable(HTTPResponse(status: entry.status, body: store.storedBody(of: entry),
                                                url: request.url)).body
        } else {
            body = store.body(of: entry)
        }
        return HTTPResponse(status: entry.status, reason: entry.reason, headers: headers, body: body,
                            url: request.url, httpVersion: entry.httpVersion)
    }
}

/// The request's own cache directives, with `Pragma: no-cache` standing in when there is no Cache-Control.
struct RequestDirectives {
    var control: CacheControl
    var noCache: Bool
    var onlyIfCached: Bool
    var noStore: Bool

    init(_ request: HTTPRequest) {
        control = CacheControl(headers: request.headers) ?? CacheControl()
        noCache = control.noCache != nil || Pragma.requestsNoCache(request.headers)
        onlyIfCached = control.onlyIfCached || request.cacheMode == .onlyIfCached
        noStore = control.noStore
    }
}
