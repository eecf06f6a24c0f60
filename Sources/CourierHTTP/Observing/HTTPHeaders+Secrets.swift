import CourierMessage
import CourierSecurity

extension HTTPHeaders {
    /// The headers as every writer shows them (`SecretPolicy.maskedHeaderValue`): secret headers masked after
    /// their scheme (`Bearer REDACTED`), a Location's password and tokens masked, and known secret values
    /// masked in every other value; unchanged when `showSecrets` (`--show-secrets`).
    public func redacted(showSecrets: Bool = false, secrets: some Sequence<String> = [String]()) -> HTTPHeaders {
        guard !showSecrets else { return self }
        // Most callers (every response a run prints) pass no secrets: no masker is prepared per call then.
        var none = secrets.makeIterator()
        let masker = none.next() == nil ? Self.noSecrets : SecretMasker(secrets: secrets)
        return HTTPHeaders(fields.map { field in
            Field(name: field.name, value: SecretPolicy.maskedHeaderValue(name: field.name, value: field.value,
                                                                          masker: masker))
        })
    }

    private static let noSecrets = SecretMasker(secrets: [String]())

    /// The values of the secret headers present, as known secrets to mask wherever they reappear (a server
    /// echoing the request back): see `SecretPolicy.credentials(inHeader:value:)`.
    public var secretValues: [String] {
        fields.flatMap { SecretPolicy.credentials(inHeader: $0.name, value: $0.value) }
    }
}
