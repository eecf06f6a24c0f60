import Foundation

/// Parses a `Set-Cookie` field as RFC 6265 section 5.2 says a user agent must, with the request URL
/// filling in the defaults (host-only domain, default path). Returns nil for a cookie to ignore.
public enum SetCookieParser {
    /// Domains a cookie may not be scoped to by itself. Courier has no public suffix list; this blocks
    /// the one-label domains (`com`), which are the common case.
    static func isTooBroad(_ domain: String) -> Bool { !domain.contains(".") && domain != "localhost" }

    /// The cookie `field` sets for a response to `url`, at `now`.
    public static func parse(_ field: String, url: URL, now: Date = Date()) -> Cookie? {
        var parts = field.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        let pair = parts.removeFirst()
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, let host = url.host?.lowercased() else { return nil }
        var cookie = Cookie(name: name, value: value, domain: host, path: defaultPath(url), created: now)
        var maxAge: Date?
        var expires: Date?
        for attribute in parts {
            let pieces = attribute.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let key = pieces.first?.lowercased(), !key.isEmpty else { continue }
            let argument = pieces.count > 1 ? pieces[1] : ""
            switch key {
            case "expires": expires = httpDate(argument) ?? expires
            case "max-age":
                // A non-numeric Max-Age is ignored; zero or less expires the cookie at once.
                if let seconds = Int(argument) { maxAge = seconds <= 0 ? .distantPast : now.addingTimeInterval(Double(seconds)) }
            case "domain":
                var domain = argument.lowercased()
                if domain.hasPrefix(".") { domain.removeFirst() }
                guard !domain.isEmpty else { continue }
                // A server may scope a cookie to itself or a parent domain, never to another site.
                guard Cookie.domainMatches(host: host, domain: domain), !isTooBroad(domain) || domain == host else {
                    return nil
                }
                cookie.domain = domain
                cookie.hostOnly = false
            case "path": cookie.path = argument.hasPrefix("/") ? argument : defaultPath(url)
            case "secure": cookie.secure = true
            case "httponly": cookie.httpOnly = true
            case "samesite": cookie.sameSite = argument
            default: continue
            }
        }
        // Max-Age wins over Expires (section 5.3 step 3).
        cookie.expires = maxAge ?? expires
        return cookie
    }

    /// Section 5.1.4: the request path up to, not including, its last `/`; `/` when that is empty.
    static func defaultPath(_ url: URL) -> String {
        let path = url.path
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// The date formats servers send in Expires (IMF-fixdate and the two obsolete ones).
    static func httpDate(_ text: String) -> Date? {
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEE, dd-MMM-yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz",
                       "EEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
