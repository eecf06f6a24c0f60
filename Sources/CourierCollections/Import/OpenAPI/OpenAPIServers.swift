import Foundation

/// Environments from `servers` (3.x; variables at their defaults, and each variable itself) or from
/// `host`, `basePath` and `schemes` (2.0). Each holds `baseUrl`.
enum OpenAPIServers {
    static func environments(_ document: inout OpenAPIDocument) -> [String: [String: String]] {
        if document.version == .swagger2 {
            let host = document.root["host"] as? String ?? "localhost"
            let base = document.root["basePath"] as? String ?? ""
            let scheme = (document.root["schemes"] as? [String])?.first ?? "https"
            if document.root["host"] == nil { document.note("no host in the description: baseUrl is localhost") }
            return ["default": ["baseUrl": trimmed("\(scheme)://\(host)\(base)")]]
        }
        let servers = (document.root["servers"] as? [Any] ?? []).compactMap { $0 as? [String: Any] }
        guard !servers.isEmpty else {
            document.note("no servers in the description: baseUrl is http://localhost")
            return ["default": ["baseUrl": "http://localhost"]]
        }
        var environments: [String: [String: String]] = [:]
        for (index, server) in servers.enumerated() {
            var url = server["url"] as? String ?? "/"
            var values: [String: String] = [:]
            let variables = server["variables"] as? [String: Any] ?? [:]
            for (name, definition) in variables {
                let value = OpenAPIExample.text((definition as? [String: Any])?["default"])
                values[OpenAPIImporter.variableName(name)] = value
                url = url.replacingOccurrences(of: "{\(name)}", with: value)
            }
            if url.hasPrefix("/") {
                document.note("server \(url) is relative: baseUrl starts with http://localhost")
                url = "http://localhost" + url
            }
            values["baseUrl"] = trimmed(url)
            var name = (server["description"] as? String).map(OpenAPIImporter.slug) ?? ""
            if name.isEmpty || name == "default" && servers.count > 1 {
                name = URL(string: url)?.host.map(OpenAPIImporter.slug) ?? "server\(index + 1)"
            }
            while environments[name] != nil { name += "-\(index + 1)" }
            environments[name] = values
        }
        return environments
    }

    private static func trimmed(_ url: String) -> String { url.hasSuffix("/") ? String(url.dropLast()) : url }
}
