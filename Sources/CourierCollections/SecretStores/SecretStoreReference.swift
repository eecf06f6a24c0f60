import CourierBody

/// An environment value that names where a secret is kept instead of holding it, written in
/// `http-client.private.env.json` as an object with `secretStore`:
///
///     "token": {"secretStore": "pass", "path": "work/api-token"}
///     "token": {"secretStore": "secret-service", "attributes": {"service": "api", "account": "ada"}}
///     "token": {"secretStore": "1password", "reference": "op://Work/API/token"}
///
/// The secret is read when a request uses the variable, held in memory for the rest of the process, and
/// never written anywhere (history, cache, exports and output mask it as every private value).
public enum SecretStoreReference: Sendable, Hashable, CustomStringConvertible {
    /// `pass show PATH`: the first line of the entry.
    case pass(path: String)
    /// The Secret Service (GNOME Keyring, KeePassXC) through libsecret: the item with these attributes.
    case secretService(attributes: [String: String])
    /// 1Password's `op read REFERENCE`.
    case onePassword(reference: String)

    /// The key that marks an environment value as a reference.
    public static let key = "secretStore"

    /// The store's name as written in the file.
    public var store: String {
        switch self {
        case .pass: "pass"
        case .secretService: "secret-service"
        case .onePassword: "1password"
        }
    }

    public var description: String {
        switch self {
        case .pass(let path): "pass \(path)"
        case .secretService(let attributes):
            "secret-service "
                + attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        case .onePassword(let reference): "1password \(reference)"
        }
    }

    /// The reference an environment value's object makes, nil when it has no `secretStore`; a reason when it
    /// has one that cannot be read.
    static func parse(_ members: [(key: String, value: JSONValue)]) -> Result<SecretStoreReference, Failure>? {
        guard let store = members.first(where: { $0.key == key })?.value else { return nil }
        func string(_ name: String) -> String? {
            members.first { $0.key == name }?.value.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        }
        switch store.stringValue {
        case "pass":
            guard let path = string("path") else { return .failure(Failure("pass needs \"path\": \"folder/entry\"")) }
            return .success(.pass(path: path))
        case "secret-service":
            let attributes = members.first { $0.key == "attributes" }?.value.objectValue ?? []
            let pairs = attributes.compactMap { member in member.value.stringValue.map { (member.key, $0) } }
            guard !pairs.isEmpty, pairs.count == attributes.count else {
                let wanted = "\"attributes\": {\"service\": \"…\", …} (string values)"
                return .failure(Failure("secret-service needs \(wanted)"))
            }
            return .success(.secretService(attributes: Dictionary(pairs) { $1 }))
        case "1password":
            guard let reference = string("reference"), reference.hasPrefix("op://") else {
                return .failure(Failure("1password needs \"reference\": \"op://vault/item/field\""))
            }
            return .success(.onePassword(reference: reference))
        default:
            return .failure(Failure("unknown secretStore \(store.compactJSON); use \"pass\", \"secret-service\" or "
                                    + "\"1password\""))
        }
    }

    /// Why a reference cannot be read.
    struct Failure: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
