import Foundation

/// Where httpyac and kulala.nvim keep environments besides the JetBrains files: `.httpyac.json`'s (or
/// `package.json`'s `httpyac`) `environments` and `defaultHeaders` (`httpyac.config.js` is JavaScript and is
/// not read) and `.env` files (`.env` for every environment, `dev.env` or `.env.dev` for one).
extension EnvironmentSet {
    /// httpyac's JSON configuration file.
    static let httpyacConfigName = ".httpyac.json"
    /// The files whose folder httpyac takes for the project's root, where it reads its configuration.
    public static let httpyacRootMarkers = [
        ".httpyac.js", ".httpyac.cjs", ".httpyac.config.js", ".httpyac.config.cjs", "httpyac.config.js",
        "httpyac.config.cjs", httpyacConfigName, "httpyac.config.json",
    ]
    /// The key of its environments.
    static let httpyacEnvironmentsKey = "environments"
    /// The key of the headers it sends with every request.
    static let httpyacDefaultHeadersKey = "defaultHeaders"

    /// The environments of `folder/.httpyac.json` (or of the `httpyac` object of `folder/package.json`), as a
    /// public layer, with its `defaultHeaders` as headers of every environment; nil when there is no such
    /// file or it has neither. A `.httpyac.json` that is not JSON, or whose environments are not objects, is
    /// an error naming it; a `package.json` that cannot be read is not httpyac's and is passed over.
    static func httpyacLayer(in folder: URL) throws(CollectionError) -> Layer? {
        let url = folder.appendingPathComponent(httpyacConfigName)
        let package = folder.appendingPathComponent("package.json")
        let object: [String: Any]
        let path: String
        if FileManager.default.fileExists(atPath: url.path) {
            let data: Data
            do { data = try Data(contentsOf: url) } catch {
                throw .badEnvironmentFile(path: url.path, reason: "cannot read: \(error.localizedDescription)")
            }
            guard let read = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw .badEnvironmentFile(path: url.path, reason: "not a JSON object")
            }
            (object, path) = (read, url.path)
        } else if let data = try? Data(contentsOf: package),
                  let manifest = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let httpyac = manifest["httpyac"] as? [String: Any] {
            (object, path) = (httpyac, package.path)
        } else {
            return nil
        }
        let headers = object[httpyacDefaultHeadersKey] as? [String: Any]
        guard let written = object[httpyacEnvironmentsKey] ?? headers.map({ _ in [String: Any]() }) else { return nil }
        guard var environments = written as? [String: Any] else {
            throw .badEnvironmentFile(path: path,
                                      reason: "'\(httpyacEnvironmentsKey)' is not an object of environments")
        }
        if let headers {
            // Sent with every request that does not set them, as kulala's default headers are.
            var shared = environments[sharedName] as? [String: Any] ?? [:]
            let existing = shared[kulalaDefaultHeaders] as? [String: Any] ?? [:]
            shared[kulalaDefaultHeaders] = headers.merging(existing) { $1 }
            environments[sharedName] = shared
        }
        guard let encoded = try? JSONSerialization.data(withJSONObject: environments) else {
            throw .badEnvironmentFile(path: path,
                                      reason: "'\(httpyacEnvironmentsKey)' is not an object of environments")
        }
        return try parse(encoded, path: path)
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
