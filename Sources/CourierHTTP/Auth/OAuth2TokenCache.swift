import CourierSecurity
import Foundation

/// Keeps OAuth 2.0 tokens between runs, one file per environment and configuration in
/// `$XDG_STATE_HOME/courier/auth` (default `~/.local/state/courier/auth`): 0600 files in a 0700 folder,
/// written whole through `AtomicFile`. Like the cookie jar it holds the tokens themselves, to send them
/// again; everything that shows them (`courier auth ls`) masks them.
public final class OAuth2TokenCache: Sendable {
    /// What one file holds.
    public struct Entry: Codable, Sendable, Hashable {
        public var configuration: String
        public var environment: String
        public var tokenURL: String
        public var grant: String
        public var credentials: Credentials
        public var savedAt: Date
    }

    public let directory: URL

    /// A cache in `directory`, or in the default XDG folder when nil.
    public init(directory: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.directory = directory ?? StateFolder.url("auth", environment: environment)
    }

    /// The credentials kept for `configuration`, when a file has them.
    func credentials(for configuration: OAuth2Configuration) -> Credentials? {
        guard let data = try? Data(contentsOf: file(for: configuration)),
              let entry = try? Self.decoder.decode(Entry.self, from: data) else { return nil }
        return entry.credentials
    }

    /// Keeps `credentials` for `configuration`; a cache that cannot be written leaves the tokens to this run.
    func save(_ credentials: Credentials, for configuration: OAuth2Configuration, now: Date) {
        let entry = Entry(configuration: configuration.id, environment: configuration.environment,
                          tokenURL: configuration.tokenURL.absoluteString, grant: configuration.grant.rawValue,
                          credentials: credentials, savedAt: now)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try AtomicFile.write(Self.encoder.encode(entry), to: file(for: configuration), mode: 0o600)
        } catch {
            // Not kept: the next run signs in again.
        }
    }

    /// Every kept entry, by environment then configuration.
    public func entries() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.compactMap { name in
            (try? Data(contentsOf: directory.appendingPathComponent(name))).flatMap {
                try? Self.decoder.decode(Entry.self, from: $0)
            }
        }.sorted { ($0.environment, $0.configuration) < ($1.environment, $1.configuration) }
    }

    /// Removes the kept tokens of `environment` (every environment when nil); how many files went.
    @discardableResult
    public func clear(environment: String? = nil) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var removed = 0
        for name in names where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let url = directory.appendingPathComponent(name)
            if let environment {
                guard let data = try? Data(contentsOf: url), let entry = try? Self.decoder.decode(Entry.self, from: data),
                      entry.environment == environment else { continue }
            }
            if unlink(url.path) == 0 { removed += 1 }
        }
        return removed
    }

    /// `ENV.ID.KEY.json`, names made safe to stay inside the folder.
    func file(for configuration: OAuth2Configuration) -> URL {
        func safe(_ text: String) -> String {
            String(text.map { $0.isLetter || $0.isNumber || "-_".contains($0) ? $0 : "_" }.prefix(64))
        }
        let name = "\(safe(configuration.environment)).\(safe(configuration.id)).\(configuration.cacheKey).json"
        return directory.appendingPathComponent(name)
    }

    private static var encoder: JSONEncoder { JSONCoding.stateFileEncoder }
    private static var decoder: JSONDecoder { JSONCoding.stateFileDecoder }
}
