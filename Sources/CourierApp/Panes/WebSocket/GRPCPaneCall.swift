import CourierBody
import CourierGRPC
import CourierHTTP
import CourierMessage
import CourierWebSocket
import Foundation
import Synchronization

/// An open gRPC call shown in the live pane: its replies arrive as incoming messages while the call runs,
/// the messages typed in the send box go out on it (client and bidirectional streams), and its status and
/// trailers end it as a close does a WebSocket connection.
final class GRPCPaneCall: Sendable {
    private let call: GRPCJSONCall
    private let url: URL
    private let deliver: @Sendable ([WebSocketEvent]) -> Void
    private let consumer = Mutex<Task<Void, Never>?>(nil)
    /// Set once the user ended the call, so its CANCELLED status reads as their close.
    private let cancelled = Atomic<Bool>(false)

    /// `deliver` receives the call's events in order, on a background thread.
    init(_ call: GRPCJSONCall, url: URL, deliver: @escaping @Sendable ([WebSocketEvent]) -> Void) {
        self.call = call
        self.url = url
        self.deliver = deliver
    }

    /// Starts reading replies; `messages` (JSON texts) go out first, and the request side is closed after them
    /// unless the method streams from the client, whose messages the user then types.
    func start(sending messages: [String]) {
        // The call's stream is open once started: the send box may send on it before the server's headers come.
        deliver([.connecting(url: url, attempt: 1), .connected(url: url, protocol: "grpc")])
        for message in messages { send(message) }
        if !call.method.clientStreaming { call.closeSend() }
        let task = Task { [self] in
            var ended = false
            do {
                for try await part in call.responses {
                    switch part {
                    case .attempt, .headers: break
                    case .message(let json):
                        deliver([.message(WebSocketMessageEvent(direction: .incoming, message: .text(json.compactJSON)))])
                    case .end(let status, let trailers, _):
                        ended = true
                        deliver([.closed(Self.closeInfo(status, trailers: trailers, byUser: cancelled.load(ordering: .relaxed)))])
                    }
                }
            } catch {
                ended = true
                let byUser = cancelled.load(ordering: .relaxed)
                deliver([.closed(WebSocketCloseInfo(code: byUser ? .normal : .abnormal,
                                                    reason: byUser ? "cancelled" : "\(error)", byUser: byUser))])
            }
            if !ended {
                let byUser = cancelled.load(ordering: .relaxed)
                deliver([.closed(WebSocketCloseInfo(code: byUser ? .normal : .abnormal,
                                                    reason: byUser ? "cancelled" : "the call ended without a status",
                                                    byUser: byUser))])
            }
        }
        consumer.withLock { $0 = task }
    }

    /// Converts `text` to the method's input message and sends it, shown as an outgoing message.
    func send(_ text: String) {
        do {
            try call.send(json: text)
            deliver([.message(WebSocketMessageEvent(direction: .outgoing, message: .text(text)))])
        } catch {
            deliver([.message(WebSocketMessageEvent(direction: .incoming, message: .text("not sent: \(error)")))])
        }
    }

    /// Half-closes: the server sees the end of the client's messages; replies keep coming.
    func closeSend() { call.closeSend() }

    /// Ends the call (the stream is reset); the pane shows it closed by the user.
    func cancel() {
        cancelled.store(true, ordering: .relaxed)
        call.cancel()
    }

    /// The status as the pane's close line: `OK` or `NOT_FOUND: why`, then the trailers. Codes read as
    /// 1000 for OK and 4000 + the gRPC code otherwise (the private close-code range), so the line tells them apart.
    static func closeInfo(_ status: GRPCStatus, trailers: HTTPHeaders, byUser: Bool) -> WebSocketCloseInfo {
        let listed = trailers.filter { !["grpc-status", "grpc-message"].contains($0.name.lowercased()) }
            .map { "\($0.name): \($0.value)" }
        let reason = (["grpc " + status.description] + listed).joined(separator: " · ")
        let code = status.isOK ? WebSocketCloseCode.normal : WebSocketCloseCode(UInt16(4000 + max(0, min(status.rawCode, 999))))
        return WebSocketCloseInfo(code: code, reason: reason, byUser: byUser, wasClean: true)
    }
}
