import CourierBody
import Foundation

/// A variable's value and whether it must be hidden when requests are printed or stored.
public struct VariableValue: Sendable, Hashable {
    public var value: String
    /// Values from `http-client.private.env.json` (and the process environment) are secret.
    public var isSecret: Bool
    /// Where the value is kept instead (`{"secretStore": "pass", …}`): read when a request uses it.
    public var store: SecretStoreReference?
    public init(_ value: String, isSecret: Bool = false, store: SecretStoreReference? = nil) {
        self.value = value
        self.isSecret = isSecret
        self.store = store
    }
}

/// The variables of one selected environment, already merged from every environment file.
public struct Environment: Sendable, Hashable {
    /// nil when no environment was selected (only `$shared` values apply).
    public var name: String?
    public var values: [String: VariableValue]
    /// Client certificates and verification from the environment files (`SSLConfiguration`,
    /// `rest-client.certificates`).
    public var tls: TLSSettings
    public init(name: String? = nil, values: [String: VariableValue] = [:], tls: TLSSettings = .none) {
        self.name = name
        self.values = values
        self.tls = tls
    }

    /// No environment at all.
    public static let none = Environment()

    /// The private values (`http-client.private.env.json`): secrets in every output, used or not.
    public var secretValues: Set<String> {
        Set(values.values.filter { $0.isSecret && !$0.value.isEmpty }.map(\.value))
    }
}

/// Every environment file that applies to a `.http` file, and the environments they define.
///
/// Clashes are settled in this order: a named environment beats `$shared`; then the private file beats
/// the public one; then a file in a nearer folder beats one further up. So a private `$shared` value
/// loses to a public `dev` value, and a private `dev` value beats everything.
public struct EnvironmentSet: Sendable, Hashable {
    /// The environment file names Courier reads, public first.
    public static let publicFileName = "http-client.env.json"
    public static let privateFileName = "http-client.private.env.json"
    /// The environment every other one inherits from.
    public static let sharedName = "$shared"

    /// One environment file's environments, farthest folder first.
    struct Layer: Sendable, Hashable {
        var path: String
        var isPrivate: Bool
        var environments: [String: [String: String]]
        /// Each environment's `SSLConfiguration`.
        var tls: [String: TLSSettings.Layer] = [:]
        /// The REST Client's certificates by host (settings files only).
        var hostCertificates: [String: TLSSettings.Certificate] = [:]
        /// A `.env` file (httpyac, kulala.nvim): below every environment file, its values secret.
        var isDotenv = false
        /// Each environment's values kept in a secret store (`SecretStoreReference`), by variable.
        var references: [String: [String: SecretStoreReference]] = [:]
        /// What the file asks that Courier does not do (httpyac's configuration): said, never silently dropped.
        var notes: [Diagnostic] = []
        /// Why a private file holds no values: it could not be read (encrypted, not JSON).
        var unreadReason: String?

        /// When the layer is merged: dotenv files first, then public files, then private ones.
        var pass: Int { isDotenv ? 0 : (isPrivate ? 2 : 1) }
    }

    var layers: [Layer]
    /// httpyac's `environmentSelectedOnStart` from the nearest `.vscode/settings.json` (`defaultChoice`).
    var startSelection: StartSelection?

    /// The files found, farthest first.
    public var files: [String] { layers.map(\.path) }

    /// Warnings about settings the files hold that Courier reads only in part.
    public var warnings: [Diagnostic] { layers.flatMap(\.notes) }

    /// Private environment files that could not be read, each with why: their values are missing.
    public var unreadFiles: [(path: String, reason: String)] {
        layers.compactMap { layer in layer.unreadReason.map { (layer.path, $0) } }
    }

    /// httpyac's environment used only when none is selected.
    public static let defaultName = "$default"
    /// kulala.nvim's name for `$shared`.
    public static let kulalaSharedName = "$kulalaShared"
    /// kulala.nvim's default headers, an object in an environment: sent unless the request sets them.
    public static let kulalaDefaultHeaders = "$kulalaDefaultHeaders"
    /// The JSON Schema link editors (and kulala.nvim's environment manager) put at the top of the file; not an
    /// environment.
    static let schemaKey = "$schema"

    /// Names of the environments defined, sorted, without `$shared` and `$default`.
    public var names: [String] {
        Set(layers.flatMap(\.environments.keys))
            .subtracting([Self.sharedName, Self.defaultName, Self.kulalaSharedName]).sorted()
    }

    /// The environment a run without `--env` uses: the only one the environment files define (`.env.NAME`
    /// files, such as a project's `.env.example`, do not count), when they define exactly one and no httpyac
    /// `$default` (which is what httpyac uses then); nil otherwise. A file written for one `dev` environment
    /// runs as its author runs it, without knowing its name.
    public var soleEnvironment: String? {
        guard !layers.contains(where: { $0.environments[Self.defaultName] != nil }) else { return nil }
        let defined = Set(layers.filter { !$0.isDotenv }.flatMap(\.environments.keys))
            .subtracting([Self.sharedName, Self.kulalaSharedName])
        return defined.count == 1 ? defined.first : nil
    }

    /// Finds the environment files beside `fileURL` and in every parent folder up to `root` (inclusive).
    public static func discover(near fileURL: URL, root: URL) throws(CollectionError) -> EnvironmentSet {
        var folders: [URL] = []
        var folder = fileURL.deletingLastPathComponent().standardizedFileURL
        let rootPath = root.standardizedFileURL.path
        while true {
            folders.append(folder)
            if folder.path == rootPath || !folder.path.hasPrefix(rootPath) || folder.path == "/" { break }
            folder = folder.deletingLastPathComponent().standardizedFileURL
        }
        // httpyac also reads the root's `env` folder: its `.env` files and JetBrains files, below the others.
        let envFolder = URL(fileURLWithPath: rootPath).appendingPathComponent("env")
        var layers: [Layer] = dotenvLayers(in: envFolder) + (try jetBrainsLayers(in: envFolder))
        for folder in folders.reversed() {
            layers += dotenvLayers(in: folder)
            if let httpyac = try httpyacLayer(in: folder) { layers.append(httpyac) }
            // The VS Code REST Client's environments come first, so a JetBrains file beside them wins a clash.
            let settings = folder.appendingPathComponent(VSCodeSettings.relativePath)
            if FileManager.default.fileExists(atPath: settings.path) {
                let found = try VSCodeSettings.read(settings)
                if found.environments != nil || !found.certificates.isEmpty {
                    var layer = Layer(path: settings.path, isPrivate: false, environments: [:])
                    if let json = found.environments { layer = try parse(json, path: settings.path) }
                    layer.hostCertificates = found.certificates
                    layers.append(layer)
                }
            }
            layers += try jetBrainsLayers(in: folder)
        }
        return EnvironmentSet(layers: layers, startSelection: selectedOnStart(in: folders))
    }

    /// `http-client.env.json` and `http-client.private.env.json` of `folder`, those that exist.
    private static func jetBrainsLayers(in folder: URL) throws(CollectionError) -> [Layer] {
        var layers: [Layer] = []
        for (name, isPrivate) in [(publicFileName, false), (privateFileName, true)] {
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { continue }
            var layer: Layer
            do { layer = try read(url) } catch {
                // A private file kept encrypted in the repository (git-crypt, SOPS) is unreadable until
                // unlocked: the requests that do not need its values still run.
                guard isPrivate, let unread = unreadablePrivateLayer(url, error: error) else { throw error }
                layer = unread
            }
            layer.isPrivate = isPrivate
            layers.append(layer)
        }
        return layers
    }

    /// Builds a set from JSON texts, for tests and for environments held in memory.
    public static func from(publicJSON: String?, privateJSON: String? = nil) throws(CollectionError) -> EnvironmentSet {
        var layers: [Layer] = []
        if let publicJSON { layers.append(try parse(Data(publicJSON.utf8), path: publicFileName)) }
        if let privateJSON {
            var layer = try parse(Data(privateJSON.utf8), path: privateFileName)
            layer.isPrivate = true
            layers.append(layer)
        }
        return EnvironmentSet(layers: layers)
    }

    /// The merged values of `name` (nil: `$shared` only). An unknown name is an error listing the known ones.
    public func environment(named name: String?) throws(CollectionError) -> Environment {
        if let name, name != Self.sharedName, !names.contains(name) {
            throw .unknownEnvironment(name: name, available: names)
        }
        var values: [String: VariableValue] = [:]
        var tlsLayers: [TLSSettings.Layer] = []
        let environmentNames = [Self.sharedName, Self.kulalaSharedName] + (name.map { [$0] } ?? [Self.defaultName])
        for environmentName in environmentNames {
            for pass in 0..<3 {
                for layer in layers where layer.pass == pass {
                    for (key, value) in layer.environments[environmentName] ?? [:] {
                        values[key] = VariableValue(value, isSecret: layer.isPrivate)
                    }
                    for (key, reference) in layer.references[environmentName] ?? [:] {
                        // A shared file must not make Courier read the user's stores: only the private one may.
                        guard layer.isPrivate else {
                            throw .badEnvironmentFile(
                                path: layer.path, reason: "'\(key)' in '\(environmentName)' names a secret store; "
                                    + "store references belong in \(Self.privateFileName)")
                        }
                        values[key] = VariableValue("", isSecret: true, store: reference)
                    }
                    if let tls = layer.tls[environmentName] { tlsLayers.append(tls) }
                }
            }
        }
        var tls = TLSSettings.merged(tlsLayers)
        // Nearer settings files win a host both name.
        for layer in layers { tls.hostCertificates.merge(layer.hostCertificates) { $1 } }
        return Environment(name: name, values: values, tls: tls)
    }

    static func read(_ url: URL) throws(CollectionError) -> Layer {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .badEnvironmentFile(path: url.path, reason: "cannot read: \(error.localizedDescription)")
        }
        return try parse(data, path: url.path)
    }

    /// How deeply an environment file may nest objects and arrays; deeper files are refused before they
    /// are parsed, so no value tree is built (or torn down) recursively beyond it.
    static let maximumNesting = 64

    /// Reads one environment file into a (public) layer: its variables, and its `SSLConfiguration`s apart.
    static func parse(_ data: Data, path: String) throws(CollectionError) -> Layer {
        guard nestingDepth(data, limit: maximumNesting) <= maximumNesting else {
            throw .badEnvironmentFile(path: path, reason: "nested more than \(maximumNesting) levels deep")
        }
        // Visual Studio saves these files with a byte order mark, and people comment lines out (the IDEs' JSON
        // editors allow it): both are read, as `.vscode/settings.json` is.
        let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
        let plain = VSCodeSettings.strict(data.starts(with: byteOrderMark) ? data.dropFirst(byteOrderMark.count) : data)
        guard let json = try? JSONValue.parse(plain) else {
            throw .badEnvironmentFile(path: path, reason: "not valid JSON (comments and trailing commas allowed)")
        }
        guard let environments = json.objectValue else {
            throw .badEnvironmentFile(path: path, reason: "expected an object of environments, {\"dev\": {...}}")
        }
        var layer = Layer(path: path, isPrivate: false, environments: [:])
        for (name, body) in environments where name != schemaKey {
            guard let members = body.objectValue else {
                throw .badEnvironmentFile(path: path, reason: "environment '\(name)' is not an object")
            }
            var values: [String: String] = [:]
            var references: [String: SecretStoreReference] = [:]
            for (key, value) in members {
                guard let object = value.objectValue, let parsed = SecretStoreReference.parse(object) else { continue }
                switch parsed {
                case .success(let reference): references[key] = reference
                case .failure(let failure):
                    throw .badEnvironmentFile(path: path, reason: "'\(key)' in '\(name)': \(failure.reason)")
                }
            }
            if !references.isEmpty { layer.references[name] = references }
            // TLS settings are not variables, nor are secret store references.
            flatten(members.filter { $0.key != TLSSettings.jetBrainsKey && references[$0.key] == nil }, prefix: "",
                    into: &values)
            layer.environments[name] = values
            if let tls = members.first(where: { $0.key == TLSSettings.jetBrainsKey })?.value {
                layer.tls[name] = try TLSSettings.layer(tls, path: path)
            }
        }
        return layer
    }

    /// Nested objects become dotted names (`{"auth": {"user": "a"}}` gives `auth.user`) and stay
    /// reachable as a whole under their own name as JSON. A `null` is a name declared without a value (a
    /// placeholder for the user to fill, often in the private file): it is not set, so `{{host}}` is reported
    /// as unknown instead of sending to a host called `null`, and another layer's value shows through.
    static func flatten(_ members: [(key: String, value: JSONValue)], prefix: String, into values: inout [String: String]) {
        for (key, value) in members where value != .null {
            values[prefix + key] = value.text
            if let nested = value.objectValue { flatten(nested, prefix: prefix + key + ".", into: &values) }
        }
    }

    /// The deepest nesting of `{` and `[` outside strings, counting stops once past `limit`.
    static func nestingDepth(_ data: Data, limit: Int) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in data {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                deepest = max(deepest, depth)
                if deepest > limit { return deepest }
            case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}
