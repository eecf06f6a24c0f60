import Foundation

/// What `courier import openapi` writes: one `.http` file per tag, the environments and what was
/// approximated or left out.
public struct OpenAPIConversion: Sendable {
    /// The `.http` files, and side files holding bodies that cannot stand in them.
    public var files: [ImportOutput.File]
    /// `http-client.env.json`: one environment per server.
    public var environment: String
    /// `http-client.private.env.json`: the credentials' variables, empty, per environment.
    public var privateEnvironment: String
    public var notes: [String]
    public var requestCount: Int
}

/// Converts an OpenAPI 3.0/3.1 or Swagger 2.0 description (JSON or YAML) to `.http` files: one file per
/// tag (untagged operations by their first path segment), requests named from `operationId`, path and
/// query parameters as request variables holding their examples, bodies from examples or schemas,
/// servers as environments, security schemes as headers whose secrets go to the private environment.
public enum OpenAPIImporter {
    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    /// Converts the description in `data`. With its `location` and a `load` function, `$ref`s to other files
    /// and URLs are followed (relative to the document holding them) as `load` allows; without, they are noted.
    public static func convert(_ data: Data, location: URL? = nil,
                               load: (@Sendable (URL) throws(CollectionError) -> Data)? = nil)
        throws(CollectionError) -> OpenAPIConversion {
        var root = try OpenAPIDocument.parse(data, source: "the description")
        var bundleNotes: [String] = []
        if let location, let load {
            (root, bundleNotes) = OpenAPIBundle.bundle(root, location: location, load: load)
        }
        var document = try OpenAPIDocument(root: root)
        for note in bundleNotes { document.note(note) }
        let environments = OpenAPIServers.environments(&document)
        var groups: [String: [ImportedRequest]] = [:]
        var names: [String: Set<String>] = [:]
        var secrets: [String: String] = [:]
        var shared: [String: String] = [:]
        var authShared: [String: [String: String]] = [:]
        var authSecrets: [String: [String: String]] = [:]
        let paths = document.root["paths"] as? [String: Any] ?? [:]
        for path in paths.keys.sorted() {
            guard let item = document.resolve(paths[path]) else { continue }
            for method in methods {
                guard let operation = document.resolve(item[method]) else { continue }
                let group = fileName(for: operation, path: path)
                var request = OpenAPIRequest(method: method.uppercased(), path: path, operation: operation,
                                             pathItem: item, baseVariable: "baseUrl")
                request.name = uniqueName(request.suggestedName, in: &names[group, default: []])
                let imported = request.imported(&document)
                secrets.merge(request.security.secrets) { $1 }
                authShared.merge(request.security.authShared) { $1 }
                authSecrets.merge(request.security.authSecrets) { $1 }
                groups[group, default: []].append(imported)
            }
        }
        // 3.1 webhooks are requests the API sends; they become requests to {{webhookUrl}}, to try a receiver.
        let webhooks = document.root["webhooks"] as? [String: Any] ?? [:]
        for name in webhooks.keys.sorted() {
            guard let item = document.resolve(webhooks[name]) else { continue }
            for method in methods {
                guard let operation = document.resolve(item[method]) else { continue }
                var request = OpenAPIRequest(method: method.uppercased(), path: "", operation: operation,
                                             pathItem: item, baseVariable: "webhookUrl")
                request.name = uniqueName(operation["operationId"] as? String ?? variableName(name),
                                          in: &names["webhooks", default: []])
                groups["webhooks", default: []].append(request.imported(&document))
            }
        }
        if !webhooks.isEmpty { shared["webhookUrl"] = "http://localhost:8080/webhook" }
        if document.version == .swagger2 {
            document.note("Swagger 2.0: formData files, collectionFormat and per-operation consumes/produces are "
                          + "approximated (form fields as urlencoded text, arrays comma-separated)")
        }
        let title = (document.root["info"] as? [String: Any])?["title"] as? String ?? "the API"
        let output = ImportWriter.write(groups.keys.sorted().map { group in
            ImportedFile(name: group + ".http",
                         comments: ["\(DataSpelling.oneLine(title)): \(group) (imported by courier import openapi)"],
                         requests: groups[group] ?? [])
        })
        var publicEnvironments: [String: [String: Any]] = [:]
        var privateEnvironments: [String: [String: Any]] = [:]
        for (name, values) in environments {
            // Server URLs and their variables are data; environment values are read with variables.
            publicEnvironments[name] = values.merging(shared) { old, _ in old }.mapValues(ImportWriter.environmentURL)
            privateEnvironments[name] = secrets
            if !authShared.isEmpty {
                publicEnvironments[name]?["Security"] = ["Auth": authShared.mapValues(OpenAPIOAuth2.spelled)]
                privateEnvironments[name]?["Security"] = ["Auth": authSecrets]
            }
        }
        return OpenAPIConversion(files: output.files, environment: OpenAPIExample.json(publicEnvironments) + "\n",
                                 privateEnvironment: OpenAPIExample.json(privateEnvironments) + "\n",
                                 notes: document.notes + output.notes, requestCount: output.requestCount)
    }

    /// The file an operation goes to: its first tag, else its path's first segment.
    static func fileName(for operation: [String: Any], path: String) -> String {
        if let tag = (operation["tags"] as? [Any])?.first as? String, !tag.isEmpty { return slug(tag) }
        let segment = path.split(separator: "/").first { !$0.hasPrefix("{") }.map(String.init) ?? "default"
        return slug(segment)
    }

    /// Lower-case letters, digits and dashes, for file and environment names.
    static func slug(_ text: String) -> String {
        let mapped = text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let collapsed = String(mapped).split(separator: "-").joined(separator: "-")
        return collapsed.isEmpty ? "default" : collapsed
    }

    /// A name the `.http` parser accepts for a variable or request: letters, digits, `_`, `-`, `.`.
    static func variableName(_ text: String) -> String {
        let mapped = String(text.map { $0.isLetter || $0.isNumber || "_-.".contains($0) ? $0 : "_" })
        return mapped.isEmpty ? "value" : mapped
    }

    static func uniqueName(_ name: String, in taken: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while taken.contains(candidate) { candidate = "\(name)_\(number)"; number += 1 }
        taken.insert(candidate)
        return candidate
    }
}
