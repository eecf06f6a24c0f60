import CCrypto
import Foundation

/// What OAuth 1.0a (RFC 5849) signs a request with: the client's (consumer's) key and secret, the token and
/// its secret when the client holds one, and the signature method. Written in a `.http` file as
/// `Authorization: OAuth1 KEY SECRET [token:T] [tokenSecret:S] [method:HMAC-SHA256] [realm:R]`, and what a
/// Postman `oauth1` auth becomes on import.
public struct OAuth1Configuration: Sendable, Hashable {
    /// RFC 5849 section 3.4's methods (RSA-SHA1 needs a private key Courier does not take).
    public enum Method: String, Sendable, Hashable, CaseIterable {
        case hmacSHA1 = "HMAC-SHA1"
        case hmacSHA256 = "HMAC-SHA256"
        case plaintext = "PLAINTEXT"
    }

    public var consumerKey: String
    public var consumerSecret: String
    public var token: String?
    public var tokenSecret: String?
    public var method: Method
    /// Sent in the header, never signed (section 3.5.1).
    public var realm: String?
    /// `oauth_callback` and `oauth_verifier`, for the steps that get a token.
    public var callback: String?
    public var verifier: String?

    public init(consumerKey: String, consumerSecret: String, token: String? = nil, tokenSecret: String? = nil,
                method: Method = .hmacSHA1, realm: String? = nil) {
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
        self.token = token
        self.tokenSecret = tokenSecret
        self.method = method
        self.realm = realm
    }

    /// The values masked wherever they appear.
    public var secrets: Set<String> {
        Set([consumerSecret, tokenSecret].compactMap { $0 }.filter { !$0.isEmpty })
    }
}

/// Signs a request as RFC 5849 section 3.4 says: the signature base string is the method, the base URI
/// (scheme and host lower-cased, a default port left out, no query) and the normalised parameters (the
/// query's, a form body's and the `oauth_` ones, each percent-encoded, sorted by name then value), each
/// encoded and joined with `&`; the key is the encoded client secret and token secret joined with `&`.
public enum OAuth1Signer {
    /// `request` with its `Authorization: OAuth …` header for `configuration`, with `nonce` and `timestamp`.
    public static func sign(_ request: HTTPRequest, with configuration: OAuth1Configuration,
                            nonce: String, timestamp: Int) -> HTTPRequest {
        var protocolParameters = [("oauth_consumer_key", configuration.consumerKey),
                                  ("oauth_signature_method", configuration.method.rawValue),
                                  ("oauth_timestamp", String(timestamp)), ("oauth_nonce", nonce),
                                  ("oauth_version", "1.0")]
        if let token = configuration.token, !token.isEmpty { protocolParameters.append(("oauth_token", token)) }
        if let callback = configuration.callback { protocolParameters.append(("oauth_callback", callback)) }
        if let verifier = configuration.verifier { protocolParameters.append(("oauth_verifier", verifier)) }
        let key = encode(configuration.consumerSecret) + "&" + encode(configuration.tokenSecret ?? "")
        let signature: String
        switch configuration.method {
        case .plaintext:
            signature = key
        case .hmacSHA1, .hmacSHA256:
            let base = baseString(request, protocolParameters: protocolParameters)
            signature = hmac(configuration.method == .hmacSHA1 ? EVP_sha1() : EVP_sha256(),
                             key: Data(key.utf8), Data(base.utf8)).base64EncodedString()
        }
        protocolParameters.append(("oauth_signature", signature))
        var fields = configuration.realm.map { ["realm=\"\(encode($0))\""] } ?? []
        fields += protocolParameters.map { "\(encode($0.0))=\"\(encode($0.1))\"" }
        var signed = request
        signed.headers["Authorization"] = "OAuth " + fields.joined(separator: ", ")
        return signed
    }

    /// The signature base string (section 3.4.1).
    public static func baseString(_ request: HTTPRequest, protocolParameters: [(String, String)]) -> String {
        var parameters = protocolParameters
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        for pair in (components?.percentEncodedQuery ?? "").split(separator: "&") {
            parameters.append(decodedPair(pair))
        }
        let contentType = request.headers["Content-Type"]?.lowercased() ?? ""
        if contentType.hasPrefix("application/x-www-form-urlencoded"), case .data(let data) = request.body {
            for pair in String(decoding: data, as: UTF8.self).split(separator: "&") {
                parameters.append(decodedPair(pair))
            }
        }
        let encoded: [(name: String, value: String)] = parameters.map { (encode($0.0), encode($0.1)) }
        let sorted = encoded.sorted { (a, b) -> Bool in a.name == b.name ? a.value < b.value : a.name < b.name }
        let normalized = sorted.map { pair -> String in pair.name + "=" + pair.value }.joined(separator: "&")
        return [request.method.rawValue.uppercased(), encode(baseURI(request.url)), encode(normalized)]
            .joined(separator: "&")
    }

    /// Section 3.4.1.2: `scheme://host[:port]/path`, lower-cased, the default port left out.
    static func baseURI(_ url: URL) -> String {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let scheme = (components?.scheme ?? "http").lowercased()
        let host = (components?.host ?? "").lowercased()
        let port = components?.port.flatMap { port in
            (scheme == "http" && port == 80) || (scheme == "https" && port == 443) ? nil : port
        }
        let path = components?.percentEncodedPath ?? "/"
        return "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")\(path.isEmpty ? "/" : path)"
    }

    /// A `name=value` pair of a query or form, decoded (`+` is a space in both).
    private static func decodedPair(_ pair: Substring) -> (String, String) {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        func decode(_ text: Substring) -> String {
            let spaced = text.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
    }

    /// Section 3.6: every byte but the unreserved characters as `%XX`, upper-case.
    public static func encode(_ text: String) -> String {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if unreserved.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0f)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hmac(_ digest: OpaquePointer?, key: Data, _ data: Data) -> Data {
        var output = Data(count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        key.withUnsafeBytes { keyBytes in
            data.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { out in
                    _ = HMAC(digest, keyBytes.baseAddress, Int32(keyBytes.count),
                             input.baseAddress?.assumingMemoryBound(to: UInt8.self), input.count,
                             out.baseAddress!.assumingMemoryBound(to: UInt8.self), &length)
                }
            }
        }
        return output.prefix(Int(length))
    }
}

/// Signs every attempt of a request that carries `HTTPRequest.oauth1`, next to the transport, with a fresh
/// nonce and timestamp each time (a server refuses a nonce it has seen).
public struct OAuth1Signing: Middleware {
    public init() {}

    public func intercept(_ request: HTTPRequest, context: RequestContext,
                          next: Next) async throws(APIError) -> HTTPResponse {
        guard let configuration = request.oauth1 else { return try await next(request, context) }
        var nonceBytes = [UInt8](repeating: 0, count: 16)
        _ = RAND_bytes(&nonceBytes, Int32(nonceBytes.count))
        let nonce = nonceBytes.map { String(format: "%02x", $0) }.joined()
        let signed = OAuth1Signer.sign(request, with: configuration, nonce: nonce,
                                       timestamp: Int(Date().timeIntervalSince1970))
        var response = try await next(signed, context)
        response.sentSecrets.formUnion(configuration.secrets)
        return response
    }
}
