import CourierBody
import CourierMessage

/// Postman's `protocolProfileBehavior` (set on the collection, a folder or a request, the innermost winning) as
/// the tags Courier acts on: `followRedirects: false` is `# @no-redirect`, `strictSSL: false` is `# @insecure`,
/// `disableCookies: true` is `# @no-cookie-jar`. Postman leaves out the body of a GET, HEAD, COPY, PURGE or UNLOCK
/// request unless `disableBodyPruning` is true, so the import leaves it out too; other settings are reported.
enum PostmanBehavior {
    /// The methods whose body Postman prunes unless `disableBodyPruning` is true.
    static let prunedMethods: Set<String> = ["GET", "HEAD", "COPY", "PURGE", "UNLOCK"]
    /// Settings whose value is what Courier does anyway, so nothing needs saying.
    static let matching: [String: JSONValue] = [
        "followRedirects": .bool(true), "strictSSL": .bool(true), "disableCookies": .bool(false),
        "disableBodyPruning": .bool(false), "followAuthorizationHeader": .bool(false),
        "removeRefererHeaderOnRedirect": .bool(false), "disableUrlEncoding": .bool(false),
        "followOriginalHttpMethod": .bool(false), "insecureHTTPParser": .bool(false),
    ]

    /// Adds the settings of `value` (a `protocolProfileBehavior` object) to `behavior`, replacing those it names.
    static func merge(_ value: JSONValue?, into behavior: inout [String: JSONValue]) {
        for (key, setting) in value?.objectValue ?? [] { behavior[key] = setting }
    }

    /// Whether Postman sends the body of a `method` request under `behavior`.
    static func sendsBody(_ method: String, _ behavior: [String: JSONValue]) -> Bool {
        !prunedMethods.contains(method.uppercased()) || behavior["disableBodyPruning"] == .bool(true)
    }

    /// Applies `behavior` to `request` as the tags Courier acts on; the settings it has none for are reported.
    static func apply(_ behavior: [String: JSONValue], to request: inout ImportedRequest, at location: String,
                      report: inout [String]) {
        for key in behavior.keys.sorted() {
            guard let setting = behavior[key], matching[key] != setting, key != "disableBodyPruning" else { continue }
            switch (key, setting) {
            case ("followRedirects", .bool(false)): request.tags[RequestOptions.noRedirectTag] = ""
            case ("strictSSL", .bool(false)): request.tags[RequestOptions.insecureTag] = ""
            case ("disableCookies", .bool(true)): request.tags[Resolver.noCookieJarTag] = ""
            default: report.append("\(location): protocolProfileBehavior '\(key)' not converted")
            }
        }
    }
}
