import CourierBody
import CourierHTTP
import CourierHistory
import CourierMessage
import Foundation

/// Turns a finished exchange into a history entry and records it, then reads the request's recent
/// latency back. Runs off the main loop: it reads the body and writes the history folder.
enum HistoryRecording {
    /// Bytes past the store's body limit read from a file body, so the store can tell it truncated.
    static let readSlack = 64 << 10

    /// The entry for `response` to `request`, under `name` (the `# @name`; empty means unsaved); `draft` is
    /// the request as written, kept so restoring gives back its variables rather than their values.
    static func entry(request: HTTPRequest, response: HTTPResponse, name: String,
                      collectionPath: String?, draft: RequestDraft? = nil) -> HistoryEntry {
        let template = draft.map { HistoryEntry.Template(url: $0.url, headers: $0.headers, body: $0.body) }
        let side = HistoryEntry.Request(method: request.method.rawValue, url: request.url.absoluteString,
                                        name: name.isEmpty ? nil : name, collectionPath: collectionPath,
                                        headers: request.headers, template: template)
        let answer = HistoryEntry.Response(head: response.head, bodyBytes: response.body.size)
        let timing = response.timing
        return HistoryEntry(request: side, response: answer,
                            timing: HistoryEntry.Timing(total: seconds(timing.total), dns: timing.dns.map(seconds),
                                                        connect: timing.connect.map(seconds), tls: timing.tls.map(seconds),
                                                        firstByte: timing.firstByte.map(seconds),
                                                        reusedConnection: timing.reusedConnection),
                            cacheDecision: response.cache.decision.rawValue)
    }

    /// The body to keep: all of an in-memory body, at most the store's limit (plus slack) of a file body.
    static func body(_ body: ResponseBody, limit: Int) -> Data {
        switch body {
        case .data(let data):
            return data
        case .file(let url, _):
            guard let handle = try? FileHandle(forReadingFrom: url) else { return Data() }
            defer { try? handle.close() }
            return (try? handle.read(upToCount: limit + readSlack)) ?? Data()
        }
    }

    /// Records the exchange and returns its request key with the request's latency since.
    static func record(request: HTTPRequest, response: HTTPResponse, name: String, collectionPath: String?,
                       draft: RequestDraft? = nil, secrets: Set<String>,
                       into store: HistoryStore) throws(HistoryError) -> (key: String, latency: LatencyStats?) {
        let entry = entry(request: request, response: response, name: name, collectionPath: collectionPath, draft: draft)
        let stored = try store.record(entry, body: body(response.body, limit: store.limits.maxBodyBytes),
                                      secrets: masked(secrets))
        let stats = try? LatencyStats(store: store, requestKey: stored.requestKey)
        return (stored.requestKey, stats.flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The secret values to mask in a stored entry, longest first, so a secret that contains another is hidden whole.
    static func masked(_ secrets: Set<String>) -> [String] {
        secrets.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    }

    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
