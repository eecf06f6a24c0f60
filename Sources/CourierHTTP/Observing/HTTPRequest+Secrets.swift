import CourierSecurity

extension HTTPRequest {
    /// The request's secret set, the one rule every writer masks by (output, `--json`, reports, script logs,
    /// history, the cache, saved bodies): the known secrets it was built from (private environment values,
    /// secret globals, a passphrase), the values of its credential headers, the user info of its URL with the
    /// Basic credentials made from it, its secret query values (`access_token=`), a Digest password, an AWS secret
    /// key, an OAuth 1.0a client's and token's secrets and an OAuth 2.0 client's secret or user's password.
    public var secretValues: Set<String> {
        var values = knownSecrets
        values.formUnion(headers.secretValues)
        values.formUnion(SecretPolicy.credentials(inURL: url.absoluteString))
        if let authentication { values.insert(authentication.password) }
        if let awsSigV4 { values.formUnion(awsSigV4.secrets) }
        if let oauth1 { values.formUnion(oauth1.secrets) }
        for configuration in oauth2 { values.formUnion(configuration.secrets) }
        return values
    }
}
