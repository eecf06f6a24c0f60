import Foundation

/// Where httpyac and kulala.nvim keep environments besides the JetBrains files: `.httpyac.json`'s
/// `environments` (JSON; `httpyac.config.js` is JavaScript and is not read) and `.env` files (`.env` for every
/// environment, `dev.env` or `.env.dev` for one).
extension EnvironmentSet {
    /// httpyac's JSON configuration file.
    static let httpyacConfigName = ".httpyac.json"
    /// The key of its environments.
    static let httpyacEnvironmentsKey = "environments"

    /// The environments of `folder/.httpyac.json`, as a public layer; nil when the file is absent or has
    /// none. A file that is not JSON, or whose environments are not objects, is an error naming it.
    static func httpyacLayer(in folder: URL) throws(CollectionError) -> Layer? {
        let url = folder.appendingPathComponent(httpyacConfigName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .badEnvironmentFile(path: url.path, reason: "cannot read: \(error.localizedDescription)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw .badEnvironmentFile(path: url.path, reason: "not a JSON object")
        }
        guard let environments = object[httpyacEnvironmentsKey] else { return nil }
        guard environments is [String: Any],
              let encoded = try? JSONSerialization.data(withJSONObject: environments) else {
            throw .badEnvironmentFile(path: url.path,
                                      reason: "'\(httpyacEnvironmentsKey)' is not an object of environments")
        }
        return try parse(encoded, path: url.path)
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
