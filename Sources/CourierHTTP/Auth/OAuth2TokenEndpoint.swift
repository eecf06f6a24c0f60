import CourierMessage
import Foundation

/// The requests an OAuth 2.0 client sends to its authorization server, and how their answers are read
/// (RFC 6749 sections 4 to 6, RFC 8628 section 3). Pure: builds values and parses responses, no I/O.
enum OAuth2TokenEndpoint {
    /// A POST of `fields` as a form to `url`, with the client's credentials as the configuration says.
    static func request(_ url: URL, fields: [(String, String)], configuration: OAuth2Configuration,
                        use: OAuth2Configuration.Parameter.Use = .tokenRequest) -> HTTPRequest {
        var fields = fields
        var headers: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"]
        let secret = configuration.clientSecret ?? ""
        switch configuration.clientAuthentication {
        case .basic where !secret.isEmpty:
            // RFC 6749 section 2.3.1: both parts form-encoded before they are joined.
            let pair = formEncoded(configuration.clientID) + ":" + formEncoded(secret)
            headers["Authorization"] = "Basic " + Data(pair.utf8).base64EncodedString()
        case .body where !secret.isEmpty:
            fields += [("client_id", configuration.clientID), ("client_secret", secret)]
        default:
            fields.append(("client_id", configuration.clientID))
        }
        for parameter in configuration.parameters(for: use) { fields.append((parameter.name, parameter.value)) }
        var request = HTTPRequest(method: .post, url: url, headers: headers, body: .data(Data(form(fields).utf8)),
                                  cacheMode: .bypass, maxAttempts: 1)
        request.knownSecrets = configuration.secrets
        return request
    }

    /// The fields of the token request that starts `grant` (the device and code grants have steps first).
    static func grantFields(_ configuration: OAuth2Configuration) -> [(String, String)] {
        var fields = [("grant_type", configuration.grant.rawValue)]
        if configuration.grant == .password {
            fields += [("username", configuration.username ?? ""), ("password", configuration.password ?? "")]
        }
        if let scope = configuration.scope, !scope.isEmpty { fields.append(("scope", scope)) }
        return fields
    }

    /// `application/x-www-form-urlencoded` text of `fields`.
    static func form(_ fields: [(String, String)]) -> String {
        fields.map { formEncoded($0.0) + "=" + formEncoded($0.1) }.joined(separator: "&")
    }

    /// Every byte but the unreserved ones percent-encoded, so `+`, `&` and `=` in a secret stay themselves.
    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(127)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    // MARK: Answers

    /// An answer of the authorization server, read as far as it is JSON.
    struct Answer {
        var status: Int
        var object: [String: Any]?
        var contentType: String

        init(_ response: HTTPResponse) {
            status = response.status
            contentType = response.headers["Content-Type"] ?? "no Content-Type"
            let body = (try? response.body.readAll()) ?? Data()
            object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        }

        /// RFC 6749 section 5.2's `error` code, when the answer has one.
        var errorCode: String? { object?["error"] as? String }

        func string(_ key: String) -> String? {
            if let text = object?[key] as? String { return text }
            if let number = object?[key] as? NSNumber { return number.stringValue }
            return nil
        }

        func number(_ key: String) -> Double? {
            if let number = object?[key] as? NSNumber { return number.doubleValue }
            return (object?[key] as? String).flatMap(Double.init)
        }

        /// Why this answer is not what was asked for, in words that hold no secret: the server's error code
        /// and description, or what came instead of JSON. Nil for a JSON answer with a 2xx status.
        func problem(from endpoint: URL) -> String? {
            if let code = errorCode {
                let description = string("error_description").map { " (\(Self.short($0)))" } ?? ""
                return "\(endpoint.absoluteString) answered \(status) '\(code)'\(description)"
            }
            if !(200..<300).contains(status) {
                return "\(endpoint.absoluteString) answered HTTP \(status) (\(Self.short(contentType)))"
            }
            if object == nil {
                return "\(endpoint.absoluteString) answered \(Self.short(contentType)), not a JSON object (HTTP \(status))"
            }
            return nil
        }

        /// At most 200 characters of server text, on one line.
        static func short(_ text: String) -> String {
            let line = text.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
            return line.count > 200 ? String(line.prefix(200)) + "…" : line
        }
    }

    /// The credentials of a token answer (RFC 6749 section 5.1): `access_token` required, `expires_in`
    /// counted from `now` when given, a refresh token kept from `previous` when a refresh sent none.
    static func credentials(_ response: HTTPResponse, endpoint: URL, configuration: OAuth2Configuration,
                            now: Date, previous: Credentials? = nil) throws(APIError) -> Credentials {
        let answer = Answer(response)
        if let problem = answer.problem(from: endpoint) {
            throw .signIn(configuration: configuration.id, reason: "the token endpoint " + problem)
        }
        guard let token = answer.string("access_token"), !token.isEmpty else {
            throw .signIn(configuration: configuration.id,
                          reason: "the token endpoint \(endpoint.absoluteString) answered no access_token "
                              + "(HTTP \(answer.status))")
        }
        let expiresAt = answer.number("expires_in").map { now.addingTimeInterval($0) }
        return Credentials(accessToken: token, refreshToken: answer.string("refresh_token") ?? previous?.refreshToken,
                           idToken: answer.string("id_token") ?? previous?.idToken, expiresAt: expiresAt)
    }
}
