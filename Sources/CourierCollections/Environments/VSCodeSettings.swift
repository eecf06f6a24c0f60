import Foundation

/// The VS Code REST Client keeps its environments in `.vscode/settings.json` under
/// `rest-client.environmentVariables` (with `$shared`, like the JetBrains files). Courier reads them as one
/// more public environment file, so a REST Client workspace runs with `--env` as it is.
enum VSCodeSettings {
    /// Where VS Code keeps a workspace's settings, relative to the workspace folder.
    static let relativePath = ".vscode/settings.json"
    /// The setting holding the REST Client's environments.
    static let environmentsKey = "rest-client.environmentVariables"

    /// What Courier reads from one settings file: the REST Client's environments (as environment-file JSON)
    /// and its client certificates by host.
    struct Found {
        var environments: Data?
        var certificates: [String: TLSSettings.Certificate] = [:]
    }

    /// The REST Client settings of the file at `url`. Settings files are JSON with comments and trailing
    /// commas; both are allowed.
    static func read(_ url: URL) throws(CollectionError) -> Found {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .badEnvironmentFile(path: url.path, reason: "cannot read: \(error.localizedDescription)")
        }
        // Settings that do not mention the REST Client are not Courier's business, even when malformed.
        let keys = [environmentsKey, TLSSettings.restClientKey]
        guard keys.contains(where: { data.range(of: Data($0.utf8)) != nil }) else { return Found() }
        let plain = strict(data)
        guard let object = try? JSONSerialization.jsonObject(with: plain) as? [String: Any] else {
            throw .badEnvironmentFile(path: url.path, reason: "not valid JSON (comments and trailing commas allowed)")
        }
        var result = Found()
        if let found = object[environmentsKey] {
            guard let environments = found as? [String: Any],
                  let encoded = try? JSONSerialization.data(withJSONObject: resolvingSharedReferences(environments)) else {
                throw .badEnvironmentFile(path: url.path, reason: "'\(environmentsKey)' is not an object of environments")
            }
            result.environments = encoded
        }
        if let found = object[TLSSettings.restClientKey] {
            guard let hosts = found as? [String: Any] else {
                throw .badEnvironmentFile(path: url.path, reason: "'\(TLSSettings.restClientKey)' is not an object of hosts")
            }
            // The workspace is the folder holding `.vscode`.
            let workspace = url.deletingLastPathComponent().deletingLastPathComponent()
            result.certificates = try TLSSettings.hostCertificates(hosts, workspace: workspace, path: url.path)
        }
        return result
    }

    /// `text` without `//` and `/* */` comments and without commas right before `}` or `]`; strings untouched.
    static func strict(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        var inString = false
        /// Where a comma was copied while only blanks and comments followed it.
        var pendingComma: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                output.append(byte)
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    output.append(bytes[index + 1])
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if byte == UInt8(ascii: "/") && next == UInt8(ascii: "/") {
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            }
            if byte == UInt8(ascii: "/") && next == UInt8(ascii: "*") {
                index += 2
                while index + 1 < bytes.count && !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) {
                    index += 1
                }
                index = min(index + 2, bytes.count)
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                output.append(byte)
                index += 1
                continue
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let comma = pendingComma { output[comma] = UInt8(ascii: " ") }
            case UInt8(ascii: "\""):
                inString = true
            default:
                break
            }
            pendingComma = byte == UInt8(ascii: ",") ? output.count : nil
            output.append(byte)
            index += 1
        }
        return Data(output)
    }

    /// REST Client environments refer to shared values as `{{$shared name}}`: each reference is replaced by
    /// the `$shared` environment's value (left as it is when there is none, so it is reported where used).
    static func resolvingSharedReferences(_ environments: [String: Any]) -> [String: Any] {
        let shared = environments[EnvironmentSet.sharedName] as? [String: Any] ?? [:]
        var result = environments
        for (name, body) in environments where name != EnvironmentSet.sharedName {
            guard var values = body as? [String: Any] else { continue }
            for (key, value) in values {
                if let text = value as? String, text.contains("$shared") { values[key] = replacing(text, shared) }
            }
            result[name] = values
        }
        return result
    }

    private static func replacing(_ text: String, _ shared: [String: Any]) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            result += rest[..<open.lowerBound]
            let inside = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            let key = inside.hasPrefix("$shared ") ? inside.dropFirst(8).trimmingCharacters(in: .whitespaces) : nil
            if let key, let value = shared[key].map({ $0 as? String ?? "\($0)" }) {
                result += value
            } else {
                result += rest[open.lowerBound..<close.upperBound]
            }
            rest = rest[close.upperBound...]
        }
        return result + rest
    }
}
