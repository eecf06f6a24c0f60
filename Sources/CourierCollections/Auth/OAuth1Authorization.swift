import CourierHTTP

/// Courier's OAuth 1.0a header, `Authorization: OAuth1 CONSUMER_KEY CONSUMER_SECRET [token:T] [tokenSecret:S]
/// [method:HMAC-SHA1|HMAC-SHA256|PLAINTEXT] [realm:R] [callback:URL] [verifier:V]`: the request is signed when
/// it is sent (RFC 5849), each attempt with its own nonce. `OAuth …` (without the 1) is a header already
/// signed and goes as written.
enum OAuth1Authorization {
    static let scheme = "oauth1"

    /// The configuration `value` asks for; nil when it is not an `OAuth1` header. A header missing its key
    /// and secret, or naming an unknown method or option, is an error saying what to write.
    static func configuration(_ value: String, request: String) throws(CollectionError) -> OAuth1Configuration? {
        let words = value.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard words.first?.lowercased() == scheme else { return nil }
        let usage = "write 'Authorization: OAuth1 CONSUMER_KEY CONSUMER_SECRET [token:T] [tokenSecret:S] "
            + "[method:HMAC-SHA1|HMAC-SHA256|PLAINTEXT] [realm:R]'"
        let plain = words.dropFirst().filter { !$0.contains(":") || $0.hasPrefix("http") }
        guard plain.count >= 2 else {
            throw .unsupported(request: request, reason: "OAuth 1.0a needs the consumer key and secret: \(usage)")
        }
        var configuration = OAuth1Configuration(consumerKey: plain[plain.startIndex],
                                                consumerSecret: plain[plain.startIndex + 1])
        for word in words.dropFirst() where word.contains(":") && !word.hasPrefix("http") {
            let parts = word.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let (name, text) = (parts[0].lowercased(), parts.count > 1 ? parts[1] : "")
            switch name {
            case "token": configuration.token = text
            case "tokensecret": configuration.tokenSecret = text
            case "realm": configuration.realm = text
            case "callback": configuration.callback = text
            case "verifier": configuration.verifier = text
            case "method":
                guard let method = OAuth1Configuration.Method(rawValue: text.uppercased()) else {
                    throw .unsupported(request: request, reason: "OAuth 1.0a's method '\(text)' is not one Courier "
                        + "signs with; use HMAC-SHA1, HMAC-SHA256 or PLAINTEXT (RSA-SHA1 is not supported)")
                }
                configuration.method = method
            default:
                throw .unsupported(request: request, reason: "unknown OAuth 1.0a option '\(parts[0]):'; \(usage)")
            }
        }
        return configuration
    }
}
