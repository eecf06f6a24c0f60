import Foundation

/// Where httpyac and kulala.nvim keep environments besides the JetBrains files: httpyac's configuration
/// (`.httpyac.json`, `httpyac.config.js` and its other names read as data, or `package.json`'s `httpyac`) with its
/// `environments`, `defaultHeaders`, `clientCertificates` and `request` options, and `.env` files (`.env` for
/// every environment, `dev.env` or `.env.dev` for one).
extension EnvironmentSet {
    /// httpyac's configuration files, in the order it looks for them: the first found is read. The JSON ones
    /// are JSON; the JavaScript ones are read as data (never run). Their folder is the project's root.
    public static let httpyacConfigNames = [
        ".httpyac.js", ".httpyac.cjs", ".httpyac.config.js", ".httpyac.config.cjs", "httpyac.config.js",
        "httpyac.config.cjs", ".httpyac.json", "httpyac.config.json",
    ]
    /// The key of its environments.
    static let httpyacEnvironmentsKey = "environments"
    /// The key of the headers it sends with every request.
    static let httpyacDefaultHeadersKey = "defaultHeaders"

    /// The layer of httpyac's configuration in `folder`: its environments, with its `defaultHeaders` as headers
    /// of every environment, its `clientCertificates` by host, and its `request` options as httpyac's
    /// `request_timeout` / `request_noRedirect` variables; nil when there is no configuration or it holds none of
    /// these. What Courier does not apply (a proxy, turning TLS verification off, code) is a warning naming it.
    static func httpyacLayer(in folder: URL) throws(CollectionError) -> Layer? {
        guard let (object, path, unread) = try httpyacConfiguration(in: folder) else { return nil }
        var notes = unread.isEmpty ? [] : ["\(unread.joined(separator: ", ")) \(unread.count == 1 ? "is" : "are") "
            + "JavaScript, which Courier does not run: not read"]
        let headers = object[httpyacDefaultHeadersKey] as? [String: Any]
        var environments: [String: Any] = [:]
        if let written = object[httpyacEnvironmentsKey] {
            guard let read = written as? [String: Any] else {
                throw .badEnvironmentFile(path: path,
                                          reason: "'\(httpyacEnvironmentsKey)' is not an object of environments")
            }
            environments = read
        }
        var shared = environments[sharedName] as? [String: Any] ?? [:]
        if let headers {
            // Sent with every request that does not set them, as kulala's default headers are.
            let existing = shared[kulalaDefaultHeaders] as? [String: Any] ?? [:]
            shared[kulalaDefaultHeaders] = headers.merging(existing) { $1 }
        }
        if let request = object["request"] as? [String: Any] {
            notes += httpyacRequestOptions(request, into: &shared)
        }
        if object["proxy"] != nil {
            notes.append("'proxy' is not applied: Courier sends directly, or through the proxy the process "
                + "environment names (http_proxy, https_proxy)")
        }
        if !shared.isEmpty { environments[sharedName] = shared }
        let certificates = try (object["clientCertificates"] as? [String: Any]).map { hosts throws(CollectionError) in
            try TLSSettings.hostCertificates(hosts, workspace: folder, path: path)
        } ?? [:]
        guard !environments.isEmpty || !certificates.isEmpty || !notes.isEmpty else { return nil }
        guard let encoded = try? JSONSerialization.data(withJSONObject: environments) else {
            throw .badEnvironmentFile(path: path,
                                      reason: "'\(httpyacEnvironmentsKey)' is not an object of environments")
        }
        var layer = try parse(encoded, path: path)
        layer.hostCertificates = certificates
        layer.notes = notes.map { Diagnostic(file: path, line: 1, message: "httpyac's \($0)", severity: .warning) }
        return layer
    }

    /// httpyac's `request` options as its `request_…` variables of `$shared`; what is not applied, said.
    private static func httpyacRequestOptions(_ request: [String: Any], into shared: inout [String: Any]) -> [String] {
        var notes: [String] = []
        for (key, value) in request.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "timeout":
                if let milliseconds = value as? NSNumber { shared["request_timeout"] = milliseconds.stringValue }
            case "followRedirects":
                if value as? Bool == false { shared["request_noRedirect"] = "true" }
            case "rejectUnauthorized", "https":
                let rejects = (value as? Bool) ?? ((value as? [String: Any])?["rejectUnauthorized"] as? Bool)
                if rejects == false {
                    notes.append("'request.\(key == "https" ? "https.rejectUnauthorized" : key): false' is not applied: "
                        + "Courier verifies TLS certificates unless told on the command line (--insecure)")
                }
            default:
                notes.append("'request.\(key)' is not applied")
            }
        }
        return notes
    }

    /// httpyac's configuration object in `folder`, the file it came from, and the key paths that were code.
    /// A JSON configuration that is not JSON is an error naming it; a `package.json` that cannot be read is not
    /// httpyac's and is passed over.
    private static func httpyacConfiguration(in folder: URL) throws(CollectionError)
        -> (object: [String: Any], path: String, unread: [String])? {
        for name in httpyacConfigNames {
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            let data: Data
            do { data = try Data(contentsOf: url) } catch {
                throw .badEnvironmentFile(path: url.path, reason: "cannot read: \(error.localizedDescription)")
            }
            if name.hasSuffix(".json") {
                guard let read = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                    throw .badEnvironmentFile(path: url.path, reason: "not a JSON object")
                }
                return (read, url.path, [])
            }
            guard let literal = JavaScriptLiteral.exported(from: String(decoding: data, as: UTF8.self)) else {
                let source = String(decoding: data, as: UTF8.self)
                let key = source.contains("module.exports") || !source.contains("export default")
                    ? "module.exports" : "export default"
                return ([:], url.path, ["\(key) (not an object literal, nor a function returning one)"])
            }
            return (literal.object, url.path, literal.unread)
        }
        let package = folder.appendingPathComponent("package.json")
        if let data = try? Data(contentsOf: package),
           let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
           let httpyac = manifest["httpyac"] as? [String: Any] {
            return (httpyac, package.path, [])
        }
        return nil
    }

    /// The `.env` files of `folder`: `.env` applies to every environment, `NAME.env` and `.env.NAME` to the
    /// environment NAME. Their values are secrets, as `{{$dotenv NAME}}` treats them, and lose to every
    /// environment file's.
    static func dotenvLayers(in folder: URL) -> [Layer] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        var layers: [Layer] = []
        for name in names.sorted() {
            let environment: String
            if name == DotEnv.fileName {
                environment = sharedName
            } else if name.hasPrefix(DotEnv.fileName + "."), name.count > DotEnv.fileName.count + 1 {
                environment = String(name.dropFirst(DotEnv.fileName.count + 1))
            } else if name.hasSuffix(DotEnv.fileName), name.count > DotEnv.fileName.count, !name.hasPrefix(".") {
                environment = String(name.dropLast(DotEnv.fileName.count))
            } else {
                continue
            }
            let url = folder.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: url) else { continue }
            var layer = Layer(path: url.path, isPrivate: true,
                              environments: [environment: DotEnv.parse(String(decoding: data, as: UTF8.self))])
            layer.isDotenv = true
            layers.append(layer)
        }
        return layers
    }
}
