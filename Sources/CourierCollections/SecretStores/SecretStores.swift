import Foundation
import Synchronization

/// Reads secrets from the stores environment values name (`SecretStoreReference`), each once per process:
/// the value is kept in memory only, so a run that sends twenty requests asks `pass` (and gpg-agent) once.
public enum SecretStores {
    /// Why a store gave no value: said as `pass: …`, naming the store and what to do.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var store: String
        public var reason: String
        public var description: String { "\(store): \(reason)" }
    }

    private static let cache = Mutex<[SecretStoreReference: String]>([:])

    /// From now on, store commands run without the terminal: the explorer draws on it, so a passphrase
    /// prompt there would draw over the screen and read its keys. A locked store then fails and says so.
    public static func keepOffTheTerminal() {
        SecretCommand.offTheTerminal.store(true, ordering: .relaxed)
    }

    /// The secret, from the cache or its store.
    public static func value(of reference: SecretStoreReference) throws(Failure) -> String {
        if let known = cache.withLock({ $0[reference] }) { return known }
        let value: String
        switch reference {
        case .pass(let path):
            value = try command("pass", ["show", path], store: "pass", missing: "pass is not installed (Debian: pass)")
                .split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        case .onePassword(let reference):
            value = try command("op", ["read", "--no-newline", reference], store: "1password",
                                missing: "the 1Password CLI 'op' is not installed")
        case .secretService(let attributes):
            value = try SecretServiceLookup.password(attributes: attributes)
        }
        guard !value.isEmpty else {
            throw Failure(store: reference.store, reason: "\(reference) holds an empty value")
        }
        cache.withLock { $0[reference] = value }
        return value
    }

    /// The standard output of `program ARGUMENTS`, without its last line break; a failure quoting its
    /// standard error when it exits with a status other than 0.
    static func command(_ program: String, _ arguments: [String], store: String,
                        missing: String) throws(Failure) -> String {
        let result: SecretCommand.Result
        do { result = try SecretCommand.run(program, arguments) } catch {
            throw Failure(store: store, reason: missing)
        }
        guard result.status == 0 else {
            let message = String(decoding: result.stderr, as: UTF8.self).split(separator: "\n").first.map(String.init)
            throw Failure(store: store, reason: "\(program) \(arguments.first ?? "") failed (exit \(result.status))"
                          + (message.map { ": \($0)" } ?? "") + "; is the store unlocked?"
                          + (SecretCommand.offTheTerminal.load(ordering: .relaxed)
                             ? " (the explorer cannot ask for a passphrase: unlock it in a shell first)" : ""))
        }
        var text = String(decoding: result.stdout, as: UTF8.self)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }
}
