/// Which header values are secrets, and how they are hidden in logs, output and history.
public enum HeaderRedaction {
    /// Credentials and session state: never printed unless the user asks.
    public static let secretHeaders: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key",
        "x-auth-token", "x-access-token", "x-csrf-token", "x-xsrf-token",
    ]
    /// What a secret value is replaced with.
    public static let placeholder = "<redacted>"

    /// Whether the field named `name` holds a secret (also any name mentioning a token or secret).
    public static func isSecret(_ name: String) -> Bool {
        let lower = name.lowercased()
        return secretHeaders.contains(lower) || lower.contains("token") || lower.contains("secret")
    }

    /// A secret value with its scheme kept (`Bearer <redacted>`), so the log still says what kind it was.
    public static func redactedValue(_ value: String) -> String {
        let schemes = ["Bearer ", "Basic ", "Digest ", "Token "]
        if let scheme = schemes.first(where: { value.lowercased().hasPrefix($0.lowercased()) }) {
            return scheme + placeholder
        }
        return placeholder
    }
}

extension HTTPHeaders {
    /// The headers with secret values replaced, unless `showSecrets`.
    public func redacted(showSecrets: Bool = false) -> HTTPHeaders {
        guard !showSecrets else { return self }
        return HTTPHeaders(fields.map { field in
            HeaderRedaction.isSecret(field.name)
                ? Field(name: field.name, value: HeaderRedaction.redactedValue(field.value)) : field
        })
    }
}
