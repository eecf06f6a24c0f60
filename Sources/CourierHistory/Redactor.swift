import CourierMessage
import CourierSecurity
import Foundation

/// Applies the secret policy before anything is kept: header fields as every writer shows them
/// (`SecretPolicy.maskedHeaderValue`), and any known secret value (tokens, private-environment values, the
/// credentials a request sent) wherever it appears in URLs and body bytes, in every spelling.
public struct Redactor: Sendable {
    /// What replaces a secret: the policy's one mask.
    public static let mask = SecretPolicy.mask

    /// The known secrets, every spelling of each, longest first.
    public let masker: SecretMasker

    /// A redactor for the given secret values (credential headers are always masked).
    public init(secrets: some Sequence<String> = [String]()) {
        masker = SecretMasker(secrets: secrets)
    }

    /// The longest spelling of a secret, in bytes: a body cut shorter than that may hold part of one.
    public var longestSecret: Int { masker.needles.first?.utf8.count ?? 0 }

    /// A header list with credential headers masked and secret values replaced.
    public func headers(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(headers.map { header in
            let value = SecretPolicy.maskedHeaderValue(name: header.name, value: header.value, masker: masker)
            return HTTPHeaders.Field(header.name, value)
        })
    }

    /// Text with every secret value replaced.
    public func text(_ value: String) -> String { masker.mask(value) }

    /// A URL with secret values, secret query parameters and the password of its user info masked.
    public func url(_ value: String) -> String { SecretPolicy.maskedURL(value, masker: masker) }

    /// Body bytes with every secret replaced.
    public func body(_ data: Data) -> Data {
        guard !masker.isEmpty, !data.isEmpty else { return data }
        return data.withUnsafeBytes { Data(masker.masked($0)) }
    }
}
