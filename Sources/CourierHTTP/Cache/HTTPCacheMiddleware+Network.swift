import CourierSecurity
import Foundation

/// The paths that reach the network: a plain fetch, a validation, and unsafe requests that invalidate.
extension HTTPCacheMiddleware {
    /// Sends the request and stores the answer when the rules allow.
    func fetch(_ request: HTTPRequest, context: RequestContext, next: Next, decision: CacheDecision,
               detail: String?) async throws(APIError) -> HTTPResponse {
        let requestTime = clock()
        let response = try await next(request, context)
        let responseTime = clock()
        let (stored, reason) = storeIfAllowed(response, request: request, requestTime: requestTime,
                                               responseTime: responseTime)
        guard let stored else {
            return report(response, CacheReport(decision: .notStored, detail: reason), context)
        }
        let freshness = stored.freshness(now: responseTime)
        return report(response, CacheReport(decision: decision, age: freshness.age, ttl: freshness.ttl,
                                            detail: detail ?? reason), context)
    }

    /// Sends the conditional request for a stored response and serves what the answer allows.
    func validate(_ entry: HTTPCacheEntry, freshness: CacheFreshness, request: HTTPRequest,
                  directives: RequestDirectives, context: RequestContext,
                  next: Next) async throws(APIError) -> HTTPResponse {
        var conditional = request
        if let etag = entry.etag { conditional.headers.set("If-None-Match", etag) }
        if let lastModified = entry.lastModified { conditional.headers.set("If-Modified-Since", lastModified) }
        var before = served(entry, request: request, age: freshness.age, forRecord: true)
        before.cache = CacheReport(decision: .stale, age: freshness.age, ttl: freshness.ttl)

        // The answers served below from the stored response keep their own heads (and bodies) from
        // the caller, who is shown the stored response's head instead.
        let standsInForErrors = staleAllowed(entry, freshness: freshness, directives: directives) != nil
        let hasValidator = entry.hasValidator
        let network = CacheHeadGate.context(context) { head in
            (head.status == 304 && hasValidator)
                || (standsInForErrors && CachePolicy.staleOnErrorStatuses.contains(head.status))
        }

        var requestTime = clock()
        var answer: HTTPResponse
        do {
            answer = try await next(conditional, network)
        } catch {
            if case .cancelled = error { throw error }
            // A response that must be validated is never served unvalidated: the answer is a 504.
            if mustBeValidated(entry) { return couldNotRevalidate(request, error: error, context: context) }
            guard error.cacheCountsAsDisconnection, let why = staleAllowed(entry, freshness: freshness, directives: directives)
            else { throw error }
            let response = report(served(entry, request: request, age: freshness.age),
                                  CacheReport(decision: .stale, age: freshness.age, ttl: freshness.ttl,
                                              detail: "\(error); \(why)"), context)
            return announced(response, context)
        }
        if answer.status == 304 && !entry.isSelected(by: answer.headers) {
            // A 304 naming another strong validator does not describe the stored response
            // (RFC 9111 section 4.3.4), and the caller did not ask for a 304: fetch it whole.
            requestTime = clock()
            answer = try await next(request, network)
        }
        let responseTime = clock()
        let validation = answer
        let record = { (after: HTTPResponse) in
            revalidations.record(CacheRevalidation(
                before: before, after: Self.recordable(after), validationStatus: validation.status,
                bytesTransferred: validation.timing.bytesReceived, fullFetchBytes: entry.fetchBytes,
                validationSeconds: validation.timing.total.milliseconds / 1000,
                fullFetchSeconds: entry.fetchSeconds, at: responseTime, withheldFields: withheld(entry, after)),
                key: entry.key)
        }

        if answer.status == 304 && entry.hasValidator {
            var updated = entry
            updated.merge304(headers: answer.headers, receivedAt: responseTime)
            updated.requestTime = requestTime
            updated.responseTime = responseTime
            var detail: String?
            do { try store.update(updated) } catch { detail = "the updated entry could not be written: \(error)" }
            let now = updated.freshness(now: responseTime)
            var response = served(updated, request: request, age: now.age)
            response.timing = answer.timing
            response = report(response, CacheReport(decision: .revalidated, age: now.age, ttl: now.ttl,
                                                    detail: detail), context)
            record(response)
            return announced(response, context)
        }

        if CachePolicy.staleOnErrorStatuses.contains(answer.status),
           let why = staleAllowed(entry, freshness: freshness, directives: directives) {
            var response = served(entry, request: request, age: freshness.age)
            response.timing = answer.timing
            response = report(response, CacheReport(decision: .stale, age: freshness.age, ttl: freshness.ttl,
                                                    detail: "the server answered \(answer.status); \(why)"), context)
            record(response)
            return announced(response, context)
        }

        // A full answer replaces the entry; one that may not be stored leaves the old one outdated,
        // so it goes too, unless it is a server error, which says nothing about the resource.
        let (stored, reason) = storeIfAllowed(answer, request: request, requestTime: requestTime,
                                               responseTime: responseTime)
        if stored == nil && answer.status < 500 { store.remove(method: request.method, url: request.url) }
        let now = stored?.freshness(now: responseTime)
        let response = report(answer, CacheReport(decision: .refetched, age: now?.age, ttl: now?.ttl,
                                                  detail: stored == nil ? "not stored: \(reason ?? "")" : nil),
                              context)
        record(response)
        return response
    }

    /// The secret fields the stored response was kept without, and those of the new answer.
    func withheld(_ entry: HTTPCacheEntry, _ answer: HTTPResponse) -> [String] {
        let fresh = answer.headers.map(\.name).filter(CachePolicy.isWithheld)
        var seen = Set<String>()
        return ((entry.withheldFields ?? []) + fresh).filter { seen.insert($0.lowercased()).inserted }
    }

    /// A copy of a response whose body stays readable after the caller deletes its file: small
    /// bodies are read into memory; large ones keep their file and are compared by size.
    static func recordable(_ response: HTTPResponse) -> HTTPResponse {
        guard case .file(_, let size) = response.body, size <= CachePolicy.comparisonBodyLimit,
              let data = try? response.body.readAll() else { return response }
        var copy = response
        copy.body = .data(data)
        return copy
    }

    /// Why a stale response may answer for a failing server, or nil when it may not (RFC 9111 4.2.4):
    /// the client's max-stale or the server's stale-if-error must cover the staleness, and
    /// must-revalidate or no-cache forbid it.
    func staleAllowed(_ entry: HTTPCacheEntry, freshness: CacheFreshness, directives: RequestDirectives) -> String? {
        let response = CacheControl(headers: entry.headers) ?? CacheControl()
        guard !response.mustRevalidate, response.noCache == nil, !directives.noCache else { return nil }
        let staleness = freshness.staleness
        switch directives.control.maxStale {
        case .any: return "served stale (the request's max-stale)"
        case .limit(let limit) where staleness <= Double(limit): return "served stale (max-stale=\(limit))"
        default: break
        }
        for control in [response, directives.control] {
            if case .value(let limit) = control.staleIfError, staleness <= Double(limit) {
                return "served stale (stale-if-error=\(limit))"
            }
        }
        return nil
    }

    // MARK: - Storing

    /// Why a response may not be stored, or nil when it may (RFC 9111 section 3).
    func notStorableReason(_ response: HTTPResponse, request: HTTPRequest) -> String? {
        let control = CacheControl(headers: response.headers) ?? CacheControl()
        let status = response.status
        if !CachePolicy.storableMethods.contains(request.method) { return "\(request.method) responses are not stored" }
        if RequestDirectives(request).noStore { return "the request said no-store" }
        if control.mustUnderstand {
            // The one case where no-store gives way: the status's caching rules are implemented here.
            if !CachePolicy.understoodStatuses.contains(status) {
                return "must-understand, and status \(status) is not understood"
            }
        } else if control.noStore {
            return "the response said no-store"
        }
        if status < 200 || CachePolicy.neverStoredStatuses.contains(status) { return "status \(status) is not stored" }
        if Vary(headers: response.headers) == .any { return "Vary: * never matches a later request" }
        let explicit = CacheFreshness.hasExplicitFreshness(response.headers) || control.isPublic
        if !CachePolicy.heuristicallyCacheable.contains(status) && !explicit {
            return "status \(status) needs explicit freshness to be stored"
        }
        if response.body.size > store.maxBytes { return "the body is larger than the cache's size limit" }
        // A cached body must be the server's own bytes, so one holding a secret is not stored masked either.
        if response.echoes(SecretMasker(secrets: request.secretValues.union(response.sentSecrets))) {
            return CachePolicy.echoesCredential
        }
        return nil
    }

    /// Stores the response when allowed; returns the entry, or the reason it was not stored.
    func storeIfAllowed(_ response: HTTPResponse, request: HTTPRequest, requestTime: Date,
                        responseTime: Date) -> (HTTPCacheEntry?, String?) {
        if let reason = notStorableReason(response, request: request) { return (nil, reason) }
        let entry = HTTPCacheEntry(method: request.method, url: request.url, response: response,
                                   selectedRequestHeaders: Vary(headers: response.headers).selectedValues(of: request.headers),
                                   requestTime: requestTime, responseTime: responseTime,
                                   secrets: request.secretValues.union(response.sentSecrets))
        do {
            try store.save(entry, body: response.body)
            return (entry, nil)
        } catch {
            return (nil, "the entry could not be written: \(error)")
        }
    }

    // MARK: - Unsafe methods

    /// Sends an unsafe request; a success invalidates the stored responses for its URL and for its
    /// Location and Content-Location on the same origin (RFC 9111 section 4.4).
    func sendUnsafe(_ request: HTTPRequest, context: RequestContext,
                    next: Next) async throws(APIError) -> HTTPResponse {
        let response = try await next(request, context)
        var detail = "\(request.method) responses are not stored"
        if (200..<400).contains(response.status) {
            var targets = [request.url]
            for name in ["Location", "Content-Location"] {
                if let value = response.headers[name], let target = URL(string: value, relativeTo: request.url)?.absoluteURL,
                   Self.sameOrigin(target, request.url) {
                    targets.append(target)
                }
            }
            var removed = 0
            for target in targets {
                for method in CachePolicy.storableMethods where store.remove(method: method, url: target) { removed += 1 }
            }
            if removed > 0 { detail += "; invalidated \(removed) stored response\(removed == 1 ? "" : "s")" }
            if let stored = storePostForGet(response, request: request) { detail = stored }
        }
        return report(response, CacheReport(decision: .notStored, detail: detail), context)
    }

    /// A POST response with explicit freshness whose Content-Location is the request's own URL says
    /// what a GET of that URL returns now (RFC 9111 section 4, RFC 9110 section 9.3.3): it is stored
    /// as that GET's response. Returns the report's detail when it was stored.
    func storePostForGet(_ response: HTTPResponse, request: HTTPRequest) -> String? {
        guard request.method == .post, [200, 203].contains(response.status),
              CacheFreshness.hasExplicitFreshness(response.headers),
              let location = response.headers["Content-Location"],
              let target = URL(string: location, relativeTo: request.url)?.absoluteURL,
              HTTPCacheStore.key(method: .get, url: target) == HTTPCacheStore.key(method: .get, url: request.url)
        else { return nil }
        var get = HTTPRequest(method: .get, url: request.url)
        // The POST's credentials still decide whether the answer may be kept.
        get.knownSecrets = request.secretValues
        let now = clock()
        let (stored, _) = storeIfAllowed(response, request: get, requestTime: now, responseTime: now)
        return stored == nil ? nil : "stored for GET: fresh, with Content-Location the request's own URL"
    }

    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int?) {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
            return (scheme, url.host?.lowercased() ?? "", port)
        }
        return origin(a) == origin(b)
    }
}

extension APIError {
    /// The server could not be reached at all, so a stale response may stand in when allowed.
    var cacheCountsAsDisconnection: Bool {
        switch self {
        case .cannotConnect, .timedOut: true
        default: false
        }
    }
}
