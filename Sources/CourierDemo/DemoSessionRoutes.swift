import Foundation

/// `/session/login`, `/session/me` and `/session/logout`: a sign-in whose session lives in a cookie, for
/// the cookie jar. Stateless: the session value names the user, which is enough for a demo.
enum DemoSessionRoutes {
    static let routes: [DemoRoute] = [
        DemoRoute(["POST"], "/session/login", "Sets a session cookie for {\"username\"}", login),
        DemoRoute(["GET"], "/session/me", "The signed-in user; 401 without the session cookie", me),
        DemoRoute(["POST"], "/session/logout", "Expires the session cookie", logout),
    ]

    static let cookieName = "courier_session"
    static let prefix = "demo-"

    private static func login(_ context: DemoContext) -> DemoResponse {
        let fields = DemoJSON.object(context.request.body) ?? [:]
        let username = (fields["username"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "demo"
        let value = prefix + Data(username.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        return .json(200, ["signed_in": username], headers: [
            ("Set-Cookie", "\(cookieName)=\(value); Path=/; HttpOnly; SameSite=Lax"),
            ("Cache-Control", "no-store"),
        ])
    }

    private static func me(_ context: DemoContext) -> DemoResponse {
        guard let username = user(context.request.header("Cookie")) else {
            return .error(401, "sign in first: POST /session/login sets the \(cookieName) cookie")
        }
        return .json(200, ["username": username], headers: [("Cache-Control", "no-store")])
    }

    private static func logout(_ context: DemoContext) -> DemoResponse {
        .json(200, ["signed_in": NSNull()], headers: [("Set-Cookie", "\(cookieName)=; Path=/; Max-Age=0")])
    }

    /// The user named by the session cookie in a Cookie header, when there is one.
    static func user(_ header: String?) -> String? {
        for pair in (header ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0] == cookieName, parts[1].hasPrefix(prefix) else { continue }
            var encoded = String(parts[1].dropFirst(prefix.count))
            while encoded.count % 4 != 0 { encoded += "=" }
            if let data = Data(base64Encoded: encoded) { return String(decoding: data, as: UTF8.self) }
        }
        return nil
    }
}
