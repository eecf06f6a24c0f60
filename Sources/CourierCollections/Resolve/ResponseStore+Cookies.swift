import CourierHTTP
import Foundation

/// kulala.nvim's `{{name.response.cookies.NAME.value}}`: the cookies a named response set, read by name, with
/// `value`, `domain`, `path`, `secure`, `expires` and `flag` as curl's cookie file writes them.
extension ResponseStore {
    static let cookiesPrefix = "cookies."

    /// What the response's `Set-Cookie` fields set, as the jar would keep them.
    static func cookies(of entry: Entry) -> [Cookie] {
        let url = entry.url ?? URL(string: "http://localhost/")!
        return entry.headers.values(for: "Set-Cookie").compactMap { SetCookieParser.parse($0, url: url) }
    }

    /// `NAME` or `NAME.attribute` (the last cookie of that name wins, as in a jar).
    static func cookieValue(_ reference: String, of entry: Entry, whose: String) -> Result<String, ResponseLookupFailure> {
        let attributes = ["value", "domain", "path", "secure", "expires", "flag"]
        var name = reference
        var attribute = "value"
        if let dot = reference.lastIndex(of: "."), attributes.contains(String(reference[reference.index(after: dot)...])) {
            name = String(reference[..<dot])
            attribute = String(reference[reference.index(after: dot)...])
        }
        guard let cookie = cookies(of: entry).last(where: { $0.name == name }) else {
            return .failure(.init("\(whose) set no cookie '\(name)'"))
        }
        let text: String = switch attribute {
        case "domain": cookie.domain
        case "path": cookie.path
        case "secure": cookie.secure ? "TRUE" : "FALSE"
        // Seconds since 1970, 0 for a session cookie; `flag` is whether subdomains get it too.
        case "expires": String(Int(cookie.expires?.timeIntervalSince1970 ?? 0))
        case "flag": cookie.hostOnly ? "FALSE" : "TRUE"
        default: cookie.value
        }
        return .success(text)
    }
}
