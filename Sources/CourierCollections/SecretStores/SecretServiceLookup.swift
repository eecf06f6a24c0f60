import CSecret
import Foundation

/// Looks a password up in the Secret Service (GNOME Keyring, KeePassXC) through libsecret, loaded with
/// dlopen the first time (see CSecret/shim.h).
enum SecretServiceLookup {
    /// libsecret's functions, loaded once; nil when the library is not installed.
    private static let library: courier_secret_table? = {
        let table = UnsafeMutablePointer<courier_secret_table>.allocate(capacity: 1)
        defer { table.deallocate() }
        return courier_secret_fill(table) ? table.pointee : nil
    }()

    static func password(attributes: [String: String]) throws(SecretStores.Failure) -> String {
        guard let library else {
            throw SecretStores.Failure(store: "secret-service",
                                       reason: "libsecret is not installed (Debian: libsecret-1-0)")
        }
        let table = library.g_hash_table_new(library.g_str_hash, library.g_str_equal)
        let strings = attributes.flatMap { [strdup($0.key), strdup($0.value)] }
        defer {
            library.g_hash_table_unref(table)
            for pointer in strings { free(pointer) }
        }
        for index in stride(from: 0, to: strings.count, by: 2) {
            library.g_hash_table_insert(table, strings[index], strings[index + 1])
        }
        var error: UnsafeMutablePointer<courier_gerror>?
        let found = library.secret_password_lookupv_sync(nil, table, nil, &error)
        if let error {
            let message = courier_gerror_message(error).map { String(cString: $0) } ?? "unknown error"
            library.g_error_free(error)
            throw SecretStores.Failure(store: "secret-service", reason: "\(message); is a Secret Service (GNOME "
                                       + "Keyring, KeePassXC) running and unlocked?")
        }
        guard let found else {
            let pairs = attributes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            throw SecretStores.Failure(store: "secret-service", reason: "no item matches "
                                       + pairs.joined(separator: " ") + " (or the keyring is locked)")
        }
        defer { library.secret_password_free(found) }
        return String(cString: found)
    }
}
