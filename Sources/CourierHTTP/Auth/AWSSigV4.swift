import Foundation

/// What AWS Signature Version 4 signs a request with: `courier send --aws-sigv4 aws:amz:REGION:SERVICE
/// --user KEY:SECRET`, a request's `# @aws-sigv4` tag, an environment's or a Postman `awsv4` auth.
public struct AWSSigV4Configuration: Sendable, Hashable {
    public var accessKey: String
    public var secretKey: String
    public var region: String
    public var service: String
    /// Temporary credentials' session token, sent as `X-Amz-Security-Token`.
    public var sessionToken: String?

    public init(accessKey: String, secretKey: String, region: String, service: String, sessionToken: String? = nil) {
        self.accessKey = accessKey
        self.secretKey = secretKey
        self.region = region
        self.service = service
        self.sessionToken = sessionToken
    }

    /// curl's `--aws-sigv4` text, `aws:amz:REGION:SERVICE` (`PROVIDER1[:PROVIDER2[:REGION[:SERVICE]]]`);
    /// nil unless it names both a region and a service.
    public static func parse(_ text: String, accessKey: String, secretKey: String,
                             sessionToken: String? = nil) -> AWSSigV4Configuration? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, parts[0].lowercased() == "aws", !parts[2].isEmpty, !parts[3].isEmpty else { return nil }
        return AWSSigV4Configuration(accessKey: accessKey, secretKey: secretKey, region: parts[2], service: parts[3],
                                    sessionToken: sessionToken)
    }

    /// The values masked wherever they appear.
    public var secrets: Set<String> { Set([secretKey, sessionToken].compactMap { $0 }.filter { !$0.isEmpty }) }
}

/// Signs a request per AWS's Signature Version 4 specification: the canonical request (method, the path
/// with dot segments removed and encoded again, the query sorted by encoded name then value, the headers
/// sent lower-cased, trimmed and sorted, the body's SHA-256), the string to sign, the key derived from the
/// secret by date, region and service, and the `Authorization` header naming the signed headers. libcurl
/// 7.88's own signing does not sort a query written out of order, so it is done here.
public enum AWSSigV4Signer {
    /// Headers never signed: hop-by-hop ones and those a proxy or the client may change on the way.
    static let unsignedHeaders: Set<String> = [
        "authorization", "connection", "expect", "keep-alive", "proxy-authenticate", "proxy-authorization", "te",
        "trailer", "transfer-encoding", "upgrade", "user-agent", "x-amzn-trace-id", "content-length",
    ]

    /// `request` with `X-Amz-Date`, `X-Amz-Content-Sha256` (S3), `X-Amz-Security-Token` and `Authorization`
    /// set for `configuration` at `date`.
    public static func sign(_ request: HTTPRequest, with configuration: AWSSigV4Configuration,
                            at date: Date) throws(APIError) -> HTTPRequest {
        var signed = request
        let stamp = timestamp(date)
        signed.headers.remove("Authorization")
        signed.headers["X-Amz-Date"] = stamp
        if let token = configuration.sessionToken, !token.isEmpty { signed.headers["X-Amz-Security-Token"] = token }
        let payload = try payloadHash(request.body)
        if configuration.service == "s3" { signed.headers["X-Amz-Content-Sha256"] = payload }
        let parts = canonicalRequest(signed, payloadHash: payload, service: configuration.service)
        let scope = "\(stamp.prefix(8))/\(configuration.region)/\(configuration.service)/aws4_request"
        let toSign = stringToSign(canonicalRequest: parts.text, timestamp: stamp, scope: scope)
        let signature = SHA256Digest.hex(SHA256Digest.hmac(key: signingKey(configuration, date: String(stamp.prefix(8))),
                                                           Data(toSign.utf8)))
        signed.headers["Authorization"] = "AWS4-HMAC-SHA256 Credential=\(configuration.accessKey)/\(scope), "
            + "SignedHeaders=\(parts.signedHeaders), Signature=\(signature)"
        return signed
    }

    /// `YYYYMMDD'T'HHMMSS'Z'` in UTC.
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { let v = value ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        return "\(c.year ?? 1970)\(two(c.month))\(two(c.day))T\(two(c.hour))\(two(c.minute))\(two(c.second))Z"
    }

    /// The canonical request's text and its `SignedHeaders` list.
    /// The path is the one sent, encoded once more (S3: as sent, without normalising).
    static func canonicalRequest(_ request: HTTPRequest, payloadHash: String,
                                 service: String) -> (text: String, signedHeaders: String) {
        let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
        let sent = components?.percentEncodedPath ?? "/"
        let path = service == "s3" ? (sent.isEmpty ? "/" : sent)
                                   : encode(removingDotSegments(sent), keepingSlash: true)
        let query = canonicalQuery(components?.percentEncodedQuery)
        var headers: [String: [String]] = [:]
        var host = components?.host ?? ""
        if host.contains(":") { host = "[\(host)]" }
        if let port = components?.port { host += ":\(port)" }
        if !request.headers.contains("Host") { headers["host"] = [host] }
        for field in request.headers where !unsignedHeaders.contains(field.name.lowercased()) {
            headers[field.name.lowercased(), default: []].append(trimmed(field.value))
        }
        let names = headers.keys.sorted()
        let canonicalHeaders = names.map { "\($0):\(headers[$0]!.joined(separator: ","))\n" }.joined()
        let signedHeaders = names.joined(separator: ";")
        let text = [request.method.rawValue.uppercased(), path, query, canonicalHeaders, signedHeaders, payloadHash]
            .joined(separator: "\n")
        return (text, signedHeaders)
    }

    static func stringToSign(canonicalRequest: String, timestamp: String, scope: String) -> String {
        ["AWS4-HMAC-SHA256", timestamp, scope, SHA256Digest.hex(SHA256Digest.digest(Data(canonicalRequest.utf8)))]
            .joined(separator: "\n")
    }

    static func signingKey(_ configuration: AWSSigV4Configuration, date: String) -> Data {
        let dateKey = SHA256Digest.hmac(key: Data("AWS4\(configuration.secretKey)".utf8), Data(date.utf8))
        let regionKey = SHA256Digest.hmac(key: dateKey, Data(configuration.region.utf8))
        let serviceKey = SHA256Digest.hmac(key: regionKey, Data(configuration.service.utf8))
        return SHA256Digest.hmac(key: serviceKey, Data("aws4_request".utf8))
    }

    /// The query's pairs, each name and value decoded then encoded the AWS way, sorted by name then value.
    static func canonicalQuery(_ query: String?) -> String {
        guard let query, !query.isEmpty else { return "" }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: true).map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring?) -> String {
                let text = String(text ?? "")
                return text.removingPercentEncoding ?? text
            }
            return (encode(decoded(parts.first), keepingSlash: false),
                    encode(decoded(parts.count > 1 ? parts[1] : nil), keepingSlash: false))
        }
        return pairs.sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// Every byte but `A-Z a-z 0-9 - _ . ~` (and `/` when asked) as `%XY` in upper case.
    static func encode(_ text: String, keepingSlash: Bool) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                 UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepingSlash:
                result.append("/")
            default:
                let hex = Array("0123456789ABCDEF")
                result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0f)])
            }
        }
        return result
    }

    /// RFC 3986 section 5.2.4 without the empty segments AWS drops; `/` for an empty path.
    static func removingDotSegments(_ path: String) -> String {
        guard !path.isEmpty else { return "/" }
        var output: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) where segment != "." {
            if segment == ".." { _ = output.popLast() } else { output.append(segment) }
        }
        let leading = path.hasPrefix("/") ? "/" : ""
        let trailing = path.hasSuffix("/") && !output.isEmpty ? "/" : ""
        return leading + output.joined(separator: "/") + trailing
    }

    /// The value without blanks around it and with runs of blanks as one space.
    static func trimmed(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// The hex SHA-256 of the body; a file or parts are read from disk in pieces.
    static func payloadHash(_ body: RequestBody) throws(APIError) -> String {
        var hasher = StreamingSHA256()
        switch body {
        case .empty: break
        case .data(let data): hasher.update(data)
        case .file(let url): try hasher.update(file: url)
        case .parts(let parts):
            for part in parts {
                switch part {
                case .data(let data): hasher.update(data)
                case .file(let url): try hasher.update(file: url)
                }
            }
        }
        return SHA256Digest.hex(hasher.finish())
    }
}
