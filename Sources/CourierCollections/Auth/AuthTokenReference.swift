import CourierHTTP

/// `$auth.token("id")` or `$auth.idToken("id")` inside `{{…}}`: which configuration, which token.
struct AuthTokenReference: Equatable {
    var id: String
    var kind: OAuth2Placeholder.Kind

    init?(_ expression: String) {
        let text = expression.trimmingCharacters(in: .whitespaces)
        let kinds: [(String, OAuth2Placeholder.Kind)] = [("$auth.token(", .accessToken), ("$auth.idToken(", .idToken)]
        guard let (prefix, kind) = kinds.first(where: { text.hasPrefix($0.0) }), text.hasSuffix(")") else { return nil }
        var argument = text.dropFirst(prefix.count).dropLast().trimmingCharacters(in: .whitespaces)
        if let first = argument.first, first == "\"" || first == "'", argument.count >= 2, argument.last == first {
            argument = String(argument.dropFirst().dropLast())
        }
        guard !argument.isEmpty else { return nil }
        id = argument
        self.kind = kind
    }
}
