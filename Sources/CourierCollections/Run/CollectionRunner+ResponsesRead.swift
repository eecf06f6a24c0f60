/// Which named responses a parallel run (`courier run --jobs`) hands on: only those a request of the run may
/// read. A file of 20,000 named GETs that read none of them kept every response (its headers, body and the
/// request that got it) for the rest of the run, merged each into the run's store and freed them all at the
/// end.
extension CollectionRunner {
    /// The names whose responses `requests` of `file` may read (`{{login.response…}}`, httpyac's `{{login}}`,
    /// `{{login.token}}` and `{{loginResponse.status}}`), through their own text and `definitions`
    /// (`definitions(_:environment:)`); nil when their text cannot tell: a script may read any response, and
    /// so may a run block, `# @ref`, `# @loop`, a body file with variables, `{{response…}}`, `$xpath`, `$auth`
    /// or a JavaScript expression.
    public static func responsesRead(by requests: [RequestTemplate], of file: HTTPFile,
                                     definitions: [String: [String]]) -> Set<String>? {
        guard file.fileScripts.isEmpty, !file.readsLastResponse else { return nil }
        var names = Set<String>()
        for request in requests {
            guard request.scripts.isEmpty, !isBarrier(request), !readsBodyFile(request) else { return nil }
            let text = textRead(by: request, definitions: definitions)
            // Most requests read no variable at all.
            guard Interpolator.holdsPair(UInt8(ascii: "{"), text.utf8) else { continue }
            var readsAny = false
            TemplateExpressions.forEach(in: text) { expression in
                if readsAnyResponse(expression) { readsAny = true }
            }
            guard !readsAny else { return nil }
            names.formUnion(dependencies(of: request, reading: text))
            names.formUnion(variableNames(in: text))
        }
        return names
    }

    /// Whether the `{{…}}` expression may read a response its text does not name: httpyac's `$xpath` and
    /// JavaScript expressions (named responses are in their scope), and `$auth`, whose configuration's values
    /// are filled in elsewhere.
    private static func readsAnyResponse(_ expression: String) -> Bool {
        expression.hasPrefix("$xpath") || expression.hasPrefix("$auth")
            || !ResponseStore.isReference(expression) && Interpolator.isScriptExpression(expression)
    }

    /// Whether `request`'s body is read from a file whose text may use variables (`<@ ./body.json`), which
    /// `textRead` does not see.
    private static func readsBodyFile(_ request: RequestTemplate) -> Bool {
        switch request.body {
        case .none: false
        case .text(let text): text.contains("<@")
        case .file(_, let substitutes): substitutes
        case .encodedFile: true
        }
    }
}
