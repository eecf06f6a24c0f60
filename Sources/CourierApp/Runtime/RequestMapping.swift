import CourierCollections
import CourierHTTP

/// Converts between the collections' request templates and the explorer's drafts.
enum RequestMapping {
    /// Tags the options tab keeps in the file (`# @timeout 5`, `# @attempts 1`, `# @cache reload`).
    static let timeoutTag = Resolver.timeoutTag
    static let attemptsTag = "attempts"
    static let cacheTag = "cache"

    static func draft(_ template: RequestTemplate) -> RequestDraft {
        let body: String = switch template.body {
        case .none: ""
        case .text(let text): text
        case .file(let path, let substitute): (substitute ? "<@ " : "< ") + path
        }
        var draft = RequestDraft(
            name: template.name ?? "", method: template.kind == .websocket ? "WEBSOCKET" : template.method.rawValue,
            url: template.url, headers: template.headers, body: body,
            timeout: template.tags[timeoutTag].flatMap { Double($0) },
            maxAttempts: template.tags[attemptsTag].flatMap { Int($0) },
            cacheMode: template.tags[cacheTag].flatMap { CacheMode(rawValue: $0) } ?? .default,
            messages: template.messages.map(\.text))
        draft.prompts = template.prompts
        return draft
    }

    /// `original` with the draft's edits applied, so what the draft does not show (variables, scripts,
    /// other tags, message flags) is kept.
    static func template(from draft: RequestDraft, original: RequestTemplate) -> RequestTemplate {
        var template = original
        template.name = draft.name.isEmpty ? nil : draft.name
        template.kind = draft.isWebSocket ? .websocket : .http
        template.method = draft.isWebSocket ? original.method : HTTPMethod(draft.method)
        template.url = draft.url
        template.headers = draft.headers
        template.body = body(draft.body)
        template.tags[timeoutTag] = draft.timeout.map(RequestEditorState.formatNumber)
        template.tags[attemptsTag] = draft.maxAttempts.map(String.init)
        template.tags[cacheTag] = draft.cacheMode == .default ? nil : draft.cacheMode.rawValue
        template.messages = draft.messages.enumerated().map { index, text in
            var message = original.messages.indices.contains(index) ? original.messages[index] : WebSocketMessage(text: text)
            message.text = text
            return message
        }
        return template
    }

    /// A body text: a lone `< ./path` line is a file body, anything else is text.
    static func body(_ text: String) -> BodyTemplate {
        if text.isEmpty { return .none }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.contains("\n") {
            if trimmed.hasPrefix("<@ ") { return .file(path: String(trimmed.dropFirst(3)), substituteVariables: true) }
            if trimmed.hasPrefix("< ") { return .file(path: String(trimmed.dropFirst(2)), substituteVariables: false) }
        }
        return .text(text)
    }
}

import Foundation
