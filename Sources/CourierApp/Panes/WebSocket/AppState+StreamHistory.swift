import CourierHistory
import Foundation

extension AppState {
    /// A WebSocket connection or gRPC call of the live pane that just ended, as a history entry to keep: its
    /// URL, how long it was open, its close line (gRPC: the status and trailers) and its kept messages as
    /// NDJSON for a body. Nothing when none ended, when history is off for the request (`# @no-log`).
    mutating func endedStreamEffects() -> [Effect] {
        guard let (ended, transcript) = webSocketPane.takeEndedConnection() else { return [] }
        guard let job = webSocketJob, !job.draft.noLog else { return [] }
        let grpc = job.draft.kind == .grpc
        let draft = job.draft
        let request = HistoryEntry.Request(
            method: grpc ? "GRPC" : "WEBSOCKET", url: webSocketPane.url, name: draft.name.isEmpty ? nil : draft.name,
            collectionPath: job.ref?.file,
            template: HistoryEntry.Template(url: draft.url, headers: draft.headers, body: draft.body))
        // 101 is the handshake's answer; a gRPC call is one HTTP/2 request answered 200, its status in the trailers.
        var response = HistoryEntry.Response(status: grpc ? 200 : 101, reason: ended.closeLine, bodyBytes: transcript.count)
        if let subprotocol = ended.subprotocol, !grpc { response.headers.add("Sec-WebSocket-Protocol", subprotocol) }
        response.headers.add("Content-Type", "application/x-ndjson")
        let entry = HistoryEntry(date: ended.opened, request: request, response: response,
                                 timing: HistoryEntry.Timing(total: max(0, ended.closed.timeIntervalSince(ended.opened))))
        return [.recordStream(entry, body: transcript, secrets: knownSecrets)]
    }
}
