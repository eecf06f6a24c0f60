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
        case .compare:
            guard !editor.isEmpty, editor.method != "WEBSOCKET" else { return nothingYet() }
            return [.openCompare(sendJob)]
        }
    }

    private mutating func nothingYet() -> [Effect] {
        status = StatusMessage("No response yet: Enter sends the request")
        return []
    }
}
