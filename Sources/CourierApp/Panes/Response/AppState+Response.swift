import CourierBody
import CourierHTTP
import Foundation

extension AppState {
    mutating func runResponse(_ command: ResponseCommand) -> [Effect] {
        switch command {
        case .copyBody:
            guard viewerActive, let pane = responsePane else { return nothingYet() }
            guard pane.body.byteCount <= Clipboard.maxBytes else {
                status = StatusMessage("The body is \(MediaKind.formatSize(pane.body.byteCount)); the terminal clipboard "
                                       + "takes at most \(MediaKind.formatSize(Clipboard.maxBytes)): s saves it to a file",
                                       kind: .error)
                return []
            }
            status = StatusMessage("Copied the body to the clipboard", kind: .success)
            // What is copied is what is shown: clipboard managers keep their history.
            return [.copyToClipboard(screenText(String(decoding: pane.body.bytes, as: UTF8.self)))]
        case .copyCurl:
            guard !editor.isEmpty else { return nothingYet() }
            return [.copyAsCurl(sendJob)]
        case .compare:
            guard !editor.isEmpty, editor.kind != .websocket else { return nothingYet() }
            return [.openCompare(sendJob)]
        }
    }

    private mutating func nothingYet() -> [Effect] {
        status = StatusMessage("No response yet: \(keys.spelling(of: .global(.send))) sends the request")
        return []
    }
}
