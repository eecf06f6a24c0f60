import Foundation

/// Which environment a run without `--env` uses when the files define more than one, from what the tools
/// the files were written for do when none is chosen, and never one that may reach a server elsewhere unless
/// the project itself names it as its default.
extension EnvironmentSet {
    /// An environment chosen without `--env`, and why: said on standard error, so the user knows where the
    /// requests went and how to choose another.
    public struct DefaultChoice: Sendable, Hashable {
        public enum Reason: Sendable, Hashable {
            /// The only environment the files define.
            case sole
            /// httpyac's `httpyac.environmentSelectedOnStart` in `.vscode/settings.json` (the file's path).
            case selectedOnStart(path: String)
            /// Named `default`: kulala.nvim's `default_env` when none is selected.
            case namedDefault
            /// Every address it holds is on this machine (loopback), and it is the only such environment or
            /// the one named like a local one (`local`, `dev`, …).
            case local(addresses: [String])
        }

        public var name: String
        public var reason: Reason

        /// Why it was chosen, after "using 'NAME', ".
        public var explanation: String {
            switch reason {
            case .sole: "the only environment the environment files define"
            case .selectedOnStart(let path):
                "which \(path) selects on start (httpyac.environmentSelectedOnStart)"
            case .namedDefault: "the environment named default (kulala.nvim's default_env)"
            case .local(let addresses):
                "whose addresses are all on this machine (\(addresses.joined(separator: ", ")))"
            }
        }
    }

    /// The environment a project's editor settings select when it opens, and the settings file saying so.
    struct StartSelection: Sendable, Hashable {
        var name: String
        var path: String
    }

    /// The VS Code setting in which httpyac's extension names the environments selected when a workspace opens.
    static let selectedOnStartKey = "httpyac.environmentSelectedOnStart"

    /// Environment names taken for local ones, in order of preference when several point at this machine.
    static let localNames = ["local", "localhost", "dev", "development", "docker"]

    /// The environment a run without `--env` uses, in this order: the only one defined; none when httpyac's
    /// `$default` applies; the one `.vscode/settings.json` selects on start; one named `default`; the one whose
    /// addresses are all on this machine (the only such one, or among several the first named `local`,
    /// `localhost`, `dev`, `development`, `docker`). nil otherwise: the user must say `--env NAME`.
    public var defaultChoice: DefaultChoice? {
        guard !layers.contains(where: { $0.environments[Self.defaultName] != nil }) else { return nil }
        if let sole = soleEnvironment { return DefaultChoice(name: sole, reason: .sole) }
        let defined = names
        if let start = startSelection, defined.contains(start.name) {
            return DefaultChoice(name: start.name, reason: .selectedOnStart(path: start.path))
        }
        // A project's `.env.example` is the application's own template, not an environment written for requests:
        // only environment files' environments are chosen by name or address.
        let written = Set(layers.filter { !$0.isDotenv }.flatMap(\.environments.keys))
        if written.contains("default") { return DefaultChoice(name: "default", reason: .namedDefault) }
        var local: [(name: String, addresses: [String])] = []
        for name in defined where written.contains(name) {
            guard let values = try? environment(named: name).values,
                  let addresses = Self.localAddresses(values.mapValues(\.value)) else { continue }
            local.append((name, addresses))
        }
        let preferred = local.count == 1 ? local.first : Self.localNames.lazy.compactMap { wanted in
            local.first { $0.name.lowercased() == wanted }
        }.first ?? local.first { $0.name.lowercased().hasPrefix("local") }
        guard let preferred else { return nil }
        return DefaultChoice(name: preferred.name, reason: .local(addresses: preferred.addresses))
    }

    /// The distinct hosts (with their ports) that `values` hold, when every one of them is on this machine and
    /// there is at least one; nil when any is elsewhere or there is none.
    static func localAddresses(_ values: [String: String]) -> [String]? {
        var found: [String] = []
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let address = address(key: key, value: value) else { continue }
            guard isLoopback(address.host) else { return nil }
            if !found.contains(address.shown) { found.append(address.shown) }
        }
        return found.isEmpty ? nil : found
    }

    /// Keys whose values are addresses even without a scheme (`"host": "localhost"`).
    private static let addressKeyWords = ["host", "url", "uri", "endpoint", "domain", "server", "address", "origin"]

    /// The host a value names: any value with a scheme (`http://…`, `ws://…`), or a value of an address-like key
    /// (`host`, `baseUrl`, …). Values still holding variables, numbers, lists and words with spaces name none.
    static func address(key: String, value: String) -> (host: String, shown: String)? {
        let text = value.trimmingCharacters(in: .whitespaces)
        // A list (`http://localhost:3000,https://app.example.com`, allowed origins) is not where requests go.
        guard !text.isEmpty, !text.contains("{{"), !text.contains(" "), !text.contains(","),
              !text.allSatisfy(\.isNumber) else { return nil }
        var rest = Substring(text)
        if let scheme = text.range(of: "://") {
            rest = text[scheme.upperBound...]
        } else {
            let lowered = key.lowercased()
            guard addressKeyWords.contains(where: lowered.contains) else { return nil }
        }
        let authority = rest.prefix { !"/?#".contains($0) }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        let host: Substring
        if hostAndPort.hasPrefix("[") {
            host = hostAndPort.dropFirst().prefix { $0 != "]" }
        } else {
            host = hostAndPort.prefix { $0 != ":" }
        }
        guard !host.isEmpty else { return nil }
        return (host.lowercased(), String(hostAndPort).lowercased())
    }

    /// Whether `host` is this machine: `localhost` and its subdomains, 127.0.0.0/8, `::1`, and `0.0.0.0`
    /// (which a client reaches on this machine).
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" || host == "0.0.0.0" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber)
        }
    }

    /// httpyac's `httpyac.environmentSelectedOnStart` in the nearest `.vscode/settings.json` of `folders`
    /// (nearest last), when it names one environment: the name and the settings file.
    static func selectedOnStart(in folders: [URL]) -> StartSelection? {
        for folder in folders.reversed() {
            let url = folder.appendingPathComponent(VSCodeSettings.relativePath)
            guard let data = try? Data(contentsOf: url), data.range(of: Data(selectedOnStartKey.utf8)) != nil,
                  let object = try? JSONSerialization.jsonObject(with: VSCodeSettings.strict(data)) as? [String: Any]
            else { continue }
            let written = object[selectedOnStartKey]
            let names = (written as? [String]) ?? ((written as? String).map { [$0] } ?? [])
            // httpyac merges several selected environments; Courier selects one, so a list of several is not
            // taken as a choice.
            guard names.count == 1, let name = names.first else { return nil }
            return StartSelection(name: name, path: url.path)
        }
        return nil
    }
}
