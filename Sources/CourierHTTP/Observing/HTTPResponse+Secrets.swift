import CourierSecurity
import Foundation

extension HTTPResponse {
    /// Whether the response holds any secret `masker` knows, in its body or in the header fields and reason a
    /// cache would keep: the HTTP cache stores no such response. A file body is read in pieces; one that
    /// cannot be read counts as holding one.
    public func echoes(_ masker: SecretMasker) -> Bool {
        guard !masker.isEmpty else { return false }
        if masker.occurs(in: reason) { return true }
        if CachePolicy.storableFields(headers).contains(where: { masker.occurs(in: $0.value) }) { return true }
        switch body {
        case .data(let data):
            return data.withUnsafeBytes { masker.occurs(in: $0) }
        case .file(let url, _):
            return (try? masker.occurs(inFileAt: url)) ?? true
        }
    }
}
