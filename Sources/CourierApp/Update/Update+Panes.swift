import CourierHTTP
import Foundation

extension AppState {
    mutating func runResponse(_ command: ResponseCommand) -> [Effect] {
        switch command {
        case .copyBody:
            guard case .received(let summary) = response.phase else { return nothingYet() }
            status = StatusMessage("Copied the body to the clipboard", kind: .success)
            let body = responsePane.map { String(decoding: $0.body.bytes, as: UTF8.self) }
            return [.copyToClipboard(body ?? summary.bodyLines.joined(separator: "\n"))]
        case .copyCurl:
            guard !editor.isEmpty else { return nothingYet() }
            return [.copyAsCurl(sendJob)]
        }
    }

    private mutating func nothingYet() -> [Effect] {
        status = StatusMessage("No response yet: Enter sends the request")
        return []
    }

    mutating func runLog(_ command: LogCommand) {
        let last = max(0, log.rows.count - 1)
        switch command {
        case .up: log.selection = max(0, log.selection - 1); log.follow = false
        case .down: log.selection = min(last, log.selection + 1); log.follow = log.selection == last
        case .top: log.selection = 0; log.follow = false
        case .bottom: log.selection = last; log.follow = true
        case .clear: log.rows = []; log.selection = 0
        case .toggleFollow:
            log.follow.toggle()
            if log.follow { log.selection = last }
        }
    }

    mutating func runWebSocket(_ command: WebSocketCommand) -> [Effect] {
        switch command {
        case .connect:
            guard editor.method == "WEBSOCKET" else {
                status = StatusMessage("Open a WEBSOCKET request to connect")
                return []
            }
            return send()
        case .disconnect:
            return [.closeWebSocket]
        case .sendSaved:
            guard case .connected = webSocket.connection else {
                status = StatusMessage("Not connected: o connects")
                return []
            }
            return [.sendWebSocketMessages(sendJob)]
        }
    }
}

/// A request as a shell-quoted curl command, for "copy as curl".
enum CurlCommand {
    static func render(_ request: HTTPRequest) -> String {
        var parts = ["curl"]
        if request.method != .get { parts += ["-X", request.method.rawValue] }
        parts.append(quote(request.url.absoluteString))
        for field in request.headers { parts += ["-H", quote("\(field.name): \(field.value)")] }
        if case .data(let data) = request.body { parts += ["--data-raw", quote(String(decoding: data, as: UTF8.self))] }
        return parts.joined(separator: " ")
    }

    static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
