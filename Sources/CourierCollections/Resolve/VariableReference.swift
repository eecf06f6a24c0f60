import Foundation

/// A `{{…}}` in a template's text, located so an editor can highlight it.
public struct VariableReference: Sendable, Hashable {
    /// What is between the braces, trimmed (`base`, `$uuid`, `login.response.body.$.token`).
    public var expression: String
    /// Offsets in Unicode scalars from the start of the text, covering the braces.
    public var range: Range<Int>

    /// Every reference in `text`, in order.
    public static func scan(_ text: String) -> [VariableReference] {
        var found: [VariableReference] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index + 1 < scalars.count {
            guard scalars[index] == "{", scalars[index + 1] == "{" else { index += 1; continue }
            var close = index + 2
            while close + 1 < scalars.count, !(scalars[close] == "}" && scalars[close + 1] == "}") { close += 1 }
            guard close + 1 < scalars.count else { break }
            var inner = String.UnicodeScalarView()
            inner.append(contentsOf: scalars[(index + 2)..<close])
            let expression = String(inner).trimmingCharacters(in: .whitespaces)
            found.append(VariableReference(expression: expression, range: index..<(close + 2)))
            index = close + 2
        }
        return found
    }
}

extension Resolver {
    /// The references in a request (URL, headers, body, messages, local variables) that cannot be resolved
    /// now, each with the reason: what the editor highlights. Response references count as unresolved
    /// until the named request has run.
    public func unresolved(in template: RequestTemplate) -> [(reference: String, reason: CollectionError)] {
        var texts = [template.url] + template.headers.flatMap { [$0.name, $0.value] } + template.messages.map(\.text)
        texts += template.variables.map(\.value)
        if case .text(let body) = template.body { texts.append(body) }
        var result: [(String, CollectionError)] = []
        var seen = Set<String>()
        for text in texts {
            for reference in VariableReference.scan(text) where seen.insert(reference.expression).inserted {
                var interpolator = Interpolator(requestName: template.displayName, local: template.variables,
                                                file: file.fileVariables, context: context,
                                                elsewhere: file.definitionElsewhere(than: template))
                do { _ = try interpolator.expand("{{\(reference.expression)}}") } catch {
                    result.append((reference.expression, error))
                }
            }
        }
        return result
    }
}
