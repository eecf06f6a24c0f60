import CourierHTTP
import Foundation

/// `pm.cookies.jar()`'s calls on the cookie jar of the request a script runs for, as JSON text: the call as
/// `{op, url, name?, cookie?}` (`op` one of `get`, `getAll`, `set`, `unset`, `clear`), and back `{cookies: […]}`
/// (each `{name, value, domain, path, secure, httpOnly, expires?}`) or `{error: message}`. The jar is the one the
/// run's requests send and keep cookies with; a cookie a script sets goes with the requests after it.
enum ScriptCookieWire {
    static func answer(_ json: String, jar: CookieJar) -> String {
        guard let call = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any],
              let op = call["op"] as? String, let text = call["url"] as? String else {
            return failure("pm.cookies.jar() takes a URL first")
        }
        // A variable that is not set reaches here as the text JavaScript makes of it: no host of that name.
        guard text != "undefined" && text != "null" && !text.isEmpty else {
            return failure("pm.cookies.jar() was given '\(text)' for its URL: is the variable it came from set?")
        }
        // Postman takes a bare host ("example.com") as well as a URL.
        guard let url = URL(string: text.contains("://") ? text : "http://" + text),
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host?.isEmpty == false else {
            return failure("'\(text)' is not an http or https URL")
        }
        let name = call["name"] as? String ?? ""
        switch op {
        case "get":
            return reply(jar.cookies(for: url).filter { $0.name == name })
        case "getAll":
            return reply(jar.cookies(for: url))
        case "set":
            let fields = call["cookie"] as? [String: Any] ?? [:]
            let cookieName = fields["name"] as? String ?? ""
            let value = fields["value"].map { "\($0)" } ?? ""
            guard !cookieName.isEmpty, !cookieName.contains(where: { ";=, \t\r\n".contains($0) }),
                  !value.contains(where: { ";\r\n".contains($0) }) else {
                return failure("cannot set a cookie named '\(cookieName)' to '\(value)'")
            }
            var line = "\(cookieName)=\(value); Path=\(fields["path"] as? String ?? "/")"
            if let domain = fields["domain"] as? String, !domain.isEmpty { line += "; Domain=\(domain)" }
            if fields["secure"] as? Bool == true { line += "; Secure" }
            if fields["httpOnly"] as? Bool == true { line += "; HttpOnly" }
            if let expires = fields["expires"] as? String, !expires.isEmpty { line += "; Expires=\(expires)" }
            jar.store(setCookie: [line], from: url)
            return reply(jar.all().filter { $0.name == cookieName && $0.matches(url) })
        case "unset":
            jar.remove { $0.name == name && $0.matches(url) }
            return reply([])
        case "clear":
            jar.remove { $0.matches(url) }
            return reply([])
        default:
            return failure("pm.cookies.jar().\(op) is not supported by Courier")
        }
    }

    private static func reply(_ cookies: [Cookie]) -> String {
        let formatter = ISO8601DateFormatter()
        let list: [[String: Any]] = cookies.map { cookie in
            var object: [String: Any] = ["name": cookie.name, "value": cookie.value, "domain": cookie.domain,
                                         "path": cookie.path, "secure": cookie.secure, "httpOnly": cookie.httpOnly]
            if let expires = cookie.expires { object["expires"] = formatter.string(from: expires) }
            return object
        }
        let data = (try? JSONSerialization.data(withJSONObject: ["cookies": list])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    private static func failure(_ message: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: ["error": message])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
