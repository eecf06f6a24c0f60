import CourierMessage
import CourierSecurity
import Foundation

/// How the transport follows a redirect. Courier follows redirects itself rather than letting libcurl do
/// it, because libcurl forwards custom credential headers (`X-Api-Key`) to any host it is sent to. One hop:
/// only to http or https; never from https down to http unless the request allows it; across origins
/// every secret header (the secret policy) is dropped; 303 (and 301/302 after a POST) become a GET without
/// a body, as browsers and curl do.
public enum RedirectPolicy {
    /// Statuses that are followed when they carry a Location. An array: five numbers need no hashing, and
    /// a Set's metadata is set up at run time on every response's first check.
    public static let followedStatuses: [Int] = [301, 302, 303, 307, 308]
    /// Hops before the chain is called a loop.
    public static let maximumRedirects = 10
    /// The schemes a redirect may lead to.
    public static let allowedSchemes: Set<String> = ["http", "https"]

    /// Whether an answer with `status` and `location` is one the transport follows for `request`.
    public static func isFollowed(_ request: HTTPRequest, status: Int, location: String?) -> Bool {
        request.followRedirects && followedStatuses.contains(status)
            && !(location?.trimmingCharacters(in: .whitespaces).isEmpty ?? true)
    }

    /// The request to send after `request` was answered with `status` and `location`.
    /// - Throws: `APIError.redirectRefused` for a scheme other than http(s) or an unasked-for downgrade,
    ///   `APIError.badURL` for a Location that is not a URL.
    public static func next(after request: HTTPRequest, status: Int, location: String) throws(APIError) -> HTTPRequest {
        let trimmed = location.trimmingCharacters(in: .whitespaces)
        let from = SecretPolicy.maskedURL(request.url.absoluteString)
        guard let target = URL(string: trimmed, relativeTo: request.url)?.absoluteURL else {
            throw .badURL("redirect to a Location that is not a URL: \(SecretPolicy.maskedURL(trimmed))")
        }
        let to = SecretPolicy.maskedURL(target.absoluteString)
        let scheme = target.scheme?.lowercased() ?? ""
        guard allowedSchemes.contains(scheme), target.host?.isEmpty == false else {
            throw .redirectRefused(from: from, to: to,
                                   reason: "only http and https are followed, not \(scheme.isEmpty ? "this URL" : scheme)")
        }
        if request.url.scheme?.lowercased() == "https" && scheme == "http" && !request.allowInsecureRedirect {
            throw .redirectRefused(from: from, to: to, reason:
                "https to plain http would send the request in clear text (--allow-insecure-redirect to follow)")
        }
        var next = request
        next.url = target
        if origin(of: target) != origin(of: request.url) {
            next.headers = HTTPHeaders(next.headers.filter { !SecretPolicy.isSecretHeader($0.name) })
        }
        let becomesGet = status == 303 ? request.method != .head
                                       : (status == 301 || status == 302) && request.method == .post
        if becomesGet {
            next.method = .get
            next.body = .empty
            next.headers = HTTPHeaders(next.headers.filter {
                !["content-type", "content-length", "content-encoding"].contains($0.name.lowercased())
            })
        }
        return next
    }

    /// Scheme, host and port, with the scheme's default port filled in.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
