import CourierBody
import CourierCollections
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
        case .copyCode:
            guard !editor.isEmpty else { return nothingYet() }
            modals.append(.palette(PaletteState(filter: Self.copyAsCodeTitle)))
            return []
        case .compare:
            guard !editor.isEmpty, !editor.opensWebSocketPane else { return nothingYet() }
            return [.openCompare(sendJob)]
        }
    }

    /// The palette entries of "copy request as code" start with this, one per language.
    static let copyAsCodeTitle = "Copy as:"

    /// Copies the open request as code in `language`, resolved off the loop thread (`codeReady` answers).
    mutating func copyAsCode(_ language: CodeLanguage) -> [Effect] {
        guard !editor.isEmpty else { return nothingYet() }
        guard editor.kind != .websocket else {
            status = StatusMessage("A WebSocket request has no code export: it is not an HTTP exchange", kind: .error)
            return []
        }
        return [.copyAsCode(sendJob, language)]
    }

    /// The code is ready: onto the clipboard, unless it is more than terminals pass through OSC 52.
    mutating func codeReady(_ code: String, language: CodeLanguage) -> [Effect] {
        guard code.utf8.count <= Clipboard.maxBytes else {
            let size = MediaKind.formatSize(code.utf8.count)
            status = StatusMessage("The \(language.title) code is \(size); the terminal clipboard takes at most "
                                   + "\(MediaKind.formatSize(Clipboard.maxBytes)): courier export \(language.rawValue) "
                                   + "prints it", kind: .error)
            return []
        }
        status = StatusMessage("Copied the request as \(language.title) code", kind: .success)
        return [.copyToClipboard(code)]
    }

    private mutating func nothingYet() -> [Effect] {
        status = StatusMessage("No response yet: \(keys.spelling(of: .global(.send))) sends the request")
        return []
    }
}
