import Foundation
import Synchronization

/// The ways a stored response answers a request other than itself: a range of a stored 200, a HEAD
/// from a stored GET, a stale response while it is validated in the background, and the 504 when a
/// response that must be validated cannot be.
extension HTTPCacheMiddleware {
    // MARK: - Range requests (RFC 9111 sections 3.3 and 3.4)

    /// A request with `Range`: a 206 built from a fresh stored 200 when the range is one satisfiable
    /// byte range, else forwarded. A 206 is never stored, so it never answers a request without Range.
    func answerRange(_ request: HTTPRequest, context: RequestContext,
                     next: Next) async throws(APIError) -> HTTPResponse {
        let directives = RequestDirectives(request)
        if request.method == .get, request.cacheMode != .reload,
           case .hit(let entry) = store.lookup(method: .get, url: request.url, headers: request.headers),
           entry.status == 200, entry.varyMatches(request.headers),
           let range = request.headers["Range"].flatMap({ ByteRange($0, size: entry.bodySize) }) {
            let freshness = entry.freshness(now: clock())
            if reuse(entry, freshness: freshness, directives: directives, mode: request.cacheMode) == .fresh,
               let slice = try? read(range, of: entry) {
                var response = served(entry, request: request, age: freshness.age, withBody: false)
                response.status = 206
                response.reason = "Partial Content"
                response.headers.set("Content-Range", "bytes \(range.first)-\(range.last)/\(entry.bodySize)")
                response.headers.set("Content-Length", String(slice.count))
                response.body = .data(slice)
                let detail = "bytes \(range.first)-\(range.last) of the stored 200"
                return announced(report(response, CacheReport(decision: .fresh, age: freshness.age,
                                                              ttl: freshness.ttl, detail: detail), context), context)
            }
        }
        let requestTime = clock()
        let response = try await next(request, context)
        var detail = "a Range request is forwarded: partial responses are not stored"
        if updateStored200(from: response, request: request, requestTime: requestTime) {
            detail += "; its header fields refreshed the stored 200 (same strong ETag)"
        }
        return report(response, CacheReport(decision: .bypass, detail: detail), context)
    }

    /// A 206 with the stored complete response's strong ETag describes the same representation: its
    /// header fields update the stored 200 as a 304's would (RFC 9111 section 3.4). Returns whether it did.
    private func updateStored200(from partial: HTTPResponse, request: HTTPRequest, requestTime: Date) -> Bool {
        guard partial.status == 206, request.method == .get, let tag = partial.headers["ETag"], !tag.hasPrefix("W/"),
              case .hit(let entry) = store.lookup(method: .get, url: request.url, headers: request.headers),
              entry.status == 200, entry.varyMatches(request.headers), entry.etag == tag else { return false }
        var updated = entry
        let now = clock()
        updated.merge304(headers: partial.headers, receivedAt: now)
        updated.requestTime = requestTime
        updated.responseTime = now
        return (try? store.update(updated)) != nil
    }

    /// The bytes of `range` of a stored body, read without loading the rest.
    private func read(_ range: ByteRange, of entry: HTTPCacheEntry) throws -> Data {
        switch store.body(of: entry) {
        case .data(let data):
            guard data.count == entry.bodySize else { throw CocoaError(.fileReadCorruptFile) }
            return data.subdata(in: range.first..<(range.last + 1))
        case .file(let url, _):
            defer { try? FileManager.default.removeItem(at: url) }
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(range.first))
            return try handle.read(upToCount: range.last - range.first + 1) ?? Data()
        }
    }

    // MARK: - HEAD from a stored GET (RFC 9111 section 4)

    /// A fresh stored GET response answers a HEAD for the same URL: its head, no body.
    func headFromStoredGet(_ request: HTTPRequest, directives: RequestDirectives,
                           context: RequestContext) -> HTTPResponse? {
        guard case .hit(let entry) = store.lookup(method: .get, url: request.url, headers: request.headers),
              entry.varyMatches(request.headers) else { return nil }
        let freshness = entry.freshness(now: clock())
        guard reuse(entry, freshness: freshness, directives: directives, mode: request.cacheMode) == .fresh else {
            return nil
        }
        let response = served(entry, request: request, age: freshness.age, withBody: false)
        let report = CacheReport(decision: .fresh, age: freshness.age, ttl: freshness.ttl,
                                 detail: "HEAD answered from the stored GET response")
        return announced(self.report(response, report, context), context)
    }

    // MARK: - stale-while-revalidate (RFC 5861)

    /// Validates a stale entry after it was served, without a caller waiting: the result updates the
    /// store for the next request. `finishBackgroundRevalidations` waits for these.
    func revalidateInBackground(_ entry: HTTPCacheEntry, freshness: CacheFreshness, request: HTTPRequest,
                                next: @escaping Next) {
        var validation = request
        validation.cacheMode = .default
        let directives = RequestDirectives(validation)
        let key = HTTPCacheStore.stem(of: entry)
        // One validation per stored response at a time, however many requests it answers meanwhile.
        background.start(key: key) { [validation] in
            let response = try? await validate(entry, freshness: freshness, request: validation,
                                               directives: directives, context: RequestContext(), next: next)
            // A body handed out to nobody: its file is the cache's to delete.
            if case .file(let url, _)? = response?.body { try? FileManager.default.removeItem(at: url) }
        }
    }

    /// Waits until every background validation started so far has finished (a command-line run calls
    /// this before it exits, so the validation is not cut short).
    public func finishBackgroundRevalidations() async {
        for work in background.pending() { await work.value }
    }

    // MARK: - Could not revalidate (RFC 9111 sections 4.2.4 and 5.2.2.2)

    /// Whether the stored response may never be served without a successful validation.
    func mustBeValidated(_ entry: HTTPCacheEntry) -> Bool {
        let control = CacheControl(headers: entry.headers) ?? CacheControl()
        return control.mustRevalidate || control.noCache != nil
    }

    /// The 504 a cache generates when a response that must be validated cannot be: the server closed the
    /// connection, or could not be reached, instead of answering.
    func couldNotRevalidate(_ request: HTTPRequest, error: APIError, context: RequestContext) -> HTTPResponse {
        let detail = "could not revalidate the stored response: \(error.logDescription)"
        let response = HTTPResponse(status: 504, reason: "Gateway Timeout",
                                    headers: ["Content-Type": "text/plain; charset=utf-8"],
                                    body: .data(Data("Could not revalidate: \(error.logDescription)\n".utf8)),
                                    url: request.url)
        return announced(report(response, CacheReport(decision: .unvalidated, detail: detail), context), context)
    }
}

/// The validations running in the background, by stored response, so that a caller can wait for them
/// and a response is not validated twice at once.
final class BackgroundRevalidations: Sendable {
    private let state = Mutex<(running: Set<String>, tasks: [Task<Void, Never>])>(([], []))

    /// Runs `work` unless a validation of `key` is still running.
    func start(key: String, _ work: @escaping @Sendable () async -> Void) {
        state.withLock { state in
            guard state.running.insert(key).inserted else { return }
            state.tasks.append(Task { [self] in
                await work()
                _ = self.state.withLock { $0.running.remove(key) }
            })
        }
    }

    /// The tasks started so far; they are forgotten once handed out.
    func pending() -> [Task<Void, Never>] {
        state.withLock { state in
            defer { state.tasks = [] }
            return state.tasks
        }
    }
}

/// One satisfiable byte range of a `Range: bytes=...` field for a body of `size` bytes
/// (RFC 9110 section 14.1.2); nil for several ranges, other units, or a range past the end.
struct ByteRange: Equatable {
    var first: Int
    var last: Int

    init?(_ value: String, size: Int) {
        let text = value.cacheTrimmingOWS()
        guard text.lowercased().hasPrefix("bytes="), size > 0 else { return nil }
        let spec = text.dropFirst("bytes=".count).cacheTrimmingOWS()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let start = spec[..<dash].cacheTrimmingOWS()
        let end = spec[spec.index(after: dash)...].cacheTrimmingOWS()
        func number(_ text: Substring) -> Int? {
            text.isEmpty || text.count > 18 || !text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) ? nil : Int(text)
        }
        if start.isEmpty {
            guard let suffix = number(end), suffix > 0 else { return nil }
            first = max(0, size - suffix)
            last = size - 1
        } else {
            guard let from = number(start), from < size else { return nil }
            first = from
            if end.isEmpty {
                last = size - 1
            } else {
                guard let to = number(end), to >= from else { return nil }
                last = min(to, size - 1)
            }
        }
    }
}
