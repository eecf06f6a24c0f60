import CourierSecurity

extension HTTPHeaders {
    /// The headers with the values of secret headers (the secret policy) masked, keeping the scheme
    /// (`Bearer REDACTED`), and known secret values masked in every other value; unchanged when
    /// `showSecrets` (`--show-secrets`).
    public func redacted(showSecrets: Bool = false, secrets: some Sequence<String> = [String]()) -> HTTPHeaders {
        guard !showSecrets else { return self }
        let known = Array(secrets)
        return HTTPHeaders(fields.map { field in
            if SecretPolicy.isSecretHeader(field.name) {
                return Field(name: field.name, value: SecretPolicy.maskedHeaderValue(field.value))
            }
            return known.isEmpty ? field : Field(name: field.name, value: SecretPolicy.masking(field.value, secrets: known))
        })
    }

    /// The values of the secret headers present, as known secrets to mask wherever they reappear (a server
    /// echoing the request back). The credential after an auth scheme counts on its own too.
    public var secretValues: [String] {
        fields.filter { SecretPolicy.isSecretHeader($0.name) }.flatMap { field -> [String] in
            var values = [field.value]
            if let space = field.value.firstIndex(of: " ") {
                values.append(String(field.value[field.value.index(after: space)...]).trimmingCharacters(in: .whitespaces))
            }
            // Cookie values one by one: "a=1; b=2".
            if field.name.lowercased() == "cookie" {
                for pair in field.value.split(separator: ";") {
                    if let equals = pair.firstIndex(of: "=") { values.append(String(pair[pair.index(after: equals)...])) }
                }
            }
            return values
        }
    }
}
