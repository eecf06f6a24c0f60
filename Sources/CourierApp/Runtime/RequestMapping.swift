import CourierCollections
import CourierHTTP

/// Converts between the collections' request templates and the explorer's drafts.
enum RequestMapping {
    static func draft(_ template: RequestTemplate) -> RequestDraft {
        let body: String = switch template.body {
        case .none: ""
        case .text(let text): text
        case .file, .encodedFile: template.body.fileReferenceLine ?? ""
        }
        // The tags are read by `RequestOptions`, as `courier run` reads them, so both send alike.
        let options = template.options
        var draft = RequestDraft(
            name: template.name ?? "", kind: template.kind, method: template.method.rawValue,
            url: template.url, headers: template.headers, body: body,
            timeout: options.timeout, maxAttempts: options.maxAttempts, cacheMode: options.cacheMode,
            messages: template.messages.map(\.text),
            subscriptions: Set(template.messages.indices.filter { template.messages[$0].subscribe }))
        draft.prompts = template.prompts
        draft.noLog = options.noLog
        draft.note = template.tags[RequestTemplate.noteTag]
        draft.runs = template.runs.map(\.text)
        return draft
    }

    /// `original` with the draft's edits applied, so what the draft does not show (variables, scripts,
    /// other tags, message flags) is kept.
    static func template(from draft: RequestDraft, original: RequestTemplate) -> RequestTemplate {
        var template = original
        template.name = draft.name.isEmpty ? nil : draft.name
        template.kind = draft.kind
        template.method = draft.isWebSocket ? original.method : HTTPMethod(draft.method)
        template.url = draft.url
        template.headers = draft.headers
        template.body = body(draft.body)
        var options = template.options
        options.timeout = draft.timeout
        options.maxAttempts = draft.maxAttempts
        options.cacheMode = draft.cacheMode
        options.write(into: &template.tags)
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
        if !trimmed.contains("\n"), let file = BodyTemplate.fileReference(trimmed) { return file }
        return .text(text)
    }
}

import Foundation
