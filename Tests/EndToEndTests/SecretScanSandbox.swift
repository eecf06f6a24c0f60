import CourierTestSupport
import Foundation

/// The world of `SecretScanTests`: distinct planted secrets, a loopback server that echoes every request
/// back (headers, query, body) and redirects with the request's user info, a collection that sends every
/// secret in the ways a collection can, and a scan of bytes for any spelling of any of them.
struct SecretScanSandbox {
    /// The secrets of one run, unique so that a hit cannot be a coincidence.
    struct Secrets {
        let id = UUID().uuidString.prefix(8)
        var bearer: String { "brr-S3CRET-\(id)" }
        var password: String { "pwd-S3CRET-\(id)" }
        var accessToken: String { "qry-S3CRET-\(id)" }
        var apiKey: String { "key-S3CRET-\(id)" }
        var privateValue: String { "env-S3CRET-\(id)" }
        var global: String { "glb-S3CRET-\(id)" }
        var cookie: String { "ck-S3CRET-\(id)" }
        /// Issued by the server's `/login` and sent back from the cookie jar (which keeps it by design).
        var jarCookie: String { "jar-S3CRET-\(id)" }
        /// The user name of the URL's user info: not a secret by itself.
        let user = "alice"

        /// Every secret by the name a finding reports.
        var named: [(name: String, value: String)] {
            [("bearer", bearer), ("url password", password), ("access_token", accessToken), ("X-Api-Key", apiKey),
             ("private env value", privateValue), ("secret global", global), ("cookie", cookie),
             ("jar cookie", jarCookie)]
        }

        /// Every spelling to look for: each secret raw, base64 and percent-encoded, and the Basic credentials
        /// curl makes of the URL's user info (`alice:pwd-…`, raw and base64).
        var needles: [(label: String, bytes: Data)] {
            var found: [(String, Data)] = []
            for (name, value) in named + [("url user:password", "\(user):\(password)")] {
                found.append((name, Data(value.utf8)))
                found.append(("\(name) (base64)", Data(Data(value.utf8).base64EncodedString().utf8)))
                let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
                let encoded = value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
                found.append(("\(name) (percent-encoded)", Data(encoded.utf8)))
            }
            return found
        }
    }

    let secrets = Secrets()
    let root: URL
    let project: URL
    let server: LoopbackServer
    /// HOME and the XDG folders inside `root`.
    let environment: [String: String]

    init() throws {
        let secrets = self.secrets
        server = try LoopbackServer { request in Self.answer(request, secrets: secrets) }
        root = try Reliability.temporaryFolder("secret-scan")
        project = root.appendingPathComponent("project", isDirectory: true)
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try Self.collection(secrets, base: "127.0.0.1:\(server.port)")
            .write(to: project.appendingPathComponent("api.http"), atomically: true, encoding: .utf8)
        try #"{"dev": {"region": "eu"}}"#
            .write(to: project.appendingPathComponent("http-client.env.json"), atomically: true, encoding: .utf8)
        try #"{"dev": {"note": "\#(secrets.privateValue)"}}"#
            .write(to: project.appendingPathComponent("http-client.private.env.json"), atomically: true, encoding: .utf8)
        environment = ["HOME": root.appendingPathComponent("home").path,
                       "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
                       "XDG_STATE_HOME": root.appendingPathComponent("state").path,
                       "XDG_CACHE_HOME": root.appendingPathComponent("cache").path]
    }

    func remove() {
        server.stop()
        try? FileManager.default.removeItem(at: root)
    }

    /// `http://alice:pwd-…@127.0.0.1:PORT` or without the user info.
    func base(withUserInfo: Bool = false) -> String {
        "http://" + (withUserInfo ? "\(secrets.user):\(secrets.password)@" : "") + "127.0.0.1:\(server.port)"
    }

    // MARK: The collection

    /// Every way a collection sends a secret: URL user info (curl's Basic header), an `access_token` query,
    /// X-Api-Key and Cookie headers, a private environment value, a global a script sets, a Bearer header
    /// logged by a handler, a `>>` output, a redirect carrying user info, a cookie from the jar.
    static func collection(_ secrets: Secrets, base: String) -> String {
        let userInfo = "\(secrets.user):\(secrets.password)@"
        return """
            ### Echo
            # @name echo
            < {% client.global.set("accessToken", "\(secrets.global)"); %}
            GET http://\(userInfo)\(base)/echo?access_token=\(secrets.accessToken)&page=1
            X-Api-Key: \(secrets.apiKey)
            Cookie: session=\(secrets.cookie)
            X-Note: {{note}}
            X-Upstream: {{accessToken}}

            > {%
              client.log("api key " + request.headers.findByName("X-Api-Key").getRawValue());
              client.log("echoed " + JSON.stringify(response.body));
              client.test("nothing echoed", function() {
                client.assert(false, "echoed " + JSON.stringify(response.body.headers));
              });
            %}

            >> ./out/echo.json

            ### Bearer
            # @name bearer
            POST http://\(base)/echo
            Authorization: Bearer \(secrets.bearer)
            Content-Type: application/json

            {"note": "{{note}}", "sent": "\(secrets.bearer)"}

            > {% client.log(request.headers.findByName("Authorization").getRawValue()); %}

            >> ./out/bearer.json

            ### Redirect not followed
            # @name redirect
            # @no-redirect
            GET http://\(userInfo)\(base)/redirect

            ### Redirect followed
            # @name follow
            GET http://\(userInfo)\(base)/redirect

            ### Login
            # @name login
            GET http://\(base)/login

            ### Session
            # @name session
            GET http://\(base)/echo/session

            """
    }

    // MARK: The server

    /// `/echo…` answers the request as JSON (cacheable); `/redirect` sends to `/echo` with the request's
    /// user info and token in the Location; `/login` sets the jar cookie; `/big` is 400 KB of filler.
    static func answer(_ request: LoopbackServer.Request, secrets: Secrets) -> LoopbackServer.Reply {
        let host = request.headers["host"] ?? "127.0.0.1"
        switch request.path {
        case "/redirect":
            let location = "http://\(secrets.user):\(secrets.password)@\(host)/echo?access_token=\(secrets.accessToken)"
            return LoopbackServer.Reply(status: 302, headers: [("Location", location)])
        case "/login":
            return .json(#"{"ok": true}"#, headers: [("Set-Cookie", "sid=\(secrets.jarCookie); Path=/")])
        case "/big":
            return LoopbackServer.Reply(headers: [("Content-Type", "application/octet-stream"),
                                                  ("Cache-Control", "max-age=600")],
                                        body: Data(repeating: 0x78, count: 400_000))
        default:
            let echo: [String: Any] = ["headers": request.headers, "query": request.query,
                                       "body": String(decoding: request.body, as: UTF8.self)]
            let data = (try? JSONSerialization.data(withJSONObject: echo, options: [.sortedKeys, .withoutEscapingSlashes]))
                ?? Data()
            return .json(String(decoding: data, as: UTF8.self), headers: [("Cache-Control", "max-age=600")])
        }
    }

    // MARK: Scanning

    /// `label: what` for every spelling of every secret in `data`; `allowed` names secrets that may be there.
    func findings(in data: Data, label: String, allowed: Set<String> = []) -> [String] {
        secrets.needles.filter { needle in
            !allowed.contains { needle.label.hasPrefix($0) } && data.range(of: needle.bytes) != nil
        }.map { "\(label): \($0.label)" }
    }

    /// Every file under the sandbox that Courier wrote (not the collection and its environment files), and
    /// for a cache entry its inline body decoded as well.
    func writtenFiles() -> [(path: String, data: Data)] {
        let own: Set<String> = ["api.http", "http-client.env.json", "http-client.private.env.json"]
        var files: [(String, Data)] = []
        for url in Reliability.files(under: root) {
            if url.deletingLastPathComponent().path == project.path && own.contains(url.lastPathComponent) { continue }
            let data = (try? Data(contentsOf: url)) ?? Data()
            files.append((url.path, data))
            if url.pathExtension == "entry",
               let entry = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
               let inline = entry["inlineBody"] as? String, let decoded = Data(base64Encoded: inline) {
                files.append((url.path + " (inlineBody decoded)", decoded))
            }
        }
        return files
    }
}
