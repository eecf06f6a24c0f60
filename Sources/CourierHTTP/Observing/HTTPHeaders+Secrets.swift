import CourierMessage
import CourierSecurity

extension HTTPHeaders {
    /// The headers as every writer shows them (`SecretPolicy.maskedHeaderValue`): secret headers masked after
    /// their scheme (`Bearer REDACTED`), a Location's password and tokens masked, and known secret values
    /// masked in every other value; unchanged when `showSecrets` (`--show-secrets`).
    public func redacted(showSecrets: Bool = false, secrets: some Sequence<String> = [String]()) -> HTTPHeaders {
        guard !showSecrets else { return self }
        let masker = SecretMasker(secrets: secrets)
        return HTTPHeaders(fields.map { field in
            Field(name: field.name, value: SecretPolicy.maskedHeaderValue(name: field.name, value: field.value,
                                                                          masker: masker))
        })
    }

    /// The values of the secret headers present, as known secrets to mask wherever they reappear (a server
    /// echoing the request back): see `SecretPolicy.credentials(inHeader:value:)`.
    public var secretValues: [String] {
        fields.flatMap { SecretPolicy.credentials(inHeader: $0.name, value: $0.value) }
    }
}
