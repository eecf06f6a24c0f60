import CourierCollections
import Foundation

/// A curl command becomes a request: pasted into the URL field it fills the open request, and the
/// collection's `i` (palette: import) adds it as a new one. Converted by the one curl importer.
extension AppState {
    /// Whether `text` is a curl command rather than a URL.
    static func isCurlCommand(_ text: String) -> Bool {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.hasPrefix("curl ") || trimmed.hasPrefix("curl\t") || trimmed.hasPrefix("curl\\")
    }

    /// The request a curl command describes, with notes on what was left out; nil with the status bar saying
    /// why it could not be read.
    mutating func convertCurl(_ command: String) -> (draft: RequestDraft, notes: [String])? {
        do throws(CollectionError) {
            let converted = try CurlImporter.convert(command)
            return (RequestMapping.draft(converted.request), converted.notes)
        } catch {
            let reason = if case .importFailed(_, let reason) = error { reason } else { "\(error)" }
            status = StatusMessage("Not a curl command Courier reads: \(reason)", kind: .error)
            return nil
        }
    }

    /// Fills the open request from a pasted curl command: method, URL, headers and body, each field one edit.
    mutating func pasteCurl(_ command: String) {
        guard let (draft, notes) = convertCurl(command) else { return }
        editor.setFields(from: RequestEditorState(draft: draft, origin: nil))
        editor.field = .url
        editor.editing = false
        let count = draft.headers.fields.count
        var text = "Pasted a curl command: \(draft.method) with \(count) header\(count == 1 ? "" : "s")"
            + (draft.body.isEmpty ? "" : " and a body")
        if !notes.isEmpty { text += " (\(notes.joined(separator: "; ")))" }
        status = StatusMessage(text + "; \(keys.spelling(of: .global(.save))) saves it as '\(editor.name)'", kind: .success)
    }

    /// Adds the request of a curl command to `file`, named for its method and path.
    mutating func importCurl(_ command: String, into file: String) -> [Effect] {
        guard let (draft, notes) = convertCurl(command) else { return [] }
        var named = draft
        if named.name.isEmpty { named.name = Self.name(forMethod: draft.method, url: draft.url) }
        if !notes.isEmpty { status = StatusMessage("Imported: " + notes.joined(separator: "; ")) }
        return [.collectionEdit(.add(file: file, named))]
    }

    /// `post-users` for `POST https://api.example.com/v1/users?x=1`: a name to find the request by.
    static func name(forMethod method: String, url: String) -> String {
        let path = URLComponents(string: url)?.path ?? ""
        let last = path.split(separator: "/").last.map(String.init) ?? URLComponents(string: url)?.host ?? "request"
        return method.lowercased() + "-" + last
    }
}
