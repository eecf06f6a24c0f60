import CourierBody
import CourierSecurity
import Foundation

/// The body's bytes with known secrets masked, for the hex view: a secret spans several hex rows, so the
/// rows cannot be masked one by one. Made in `update` once per body size and set of secrets
/// (`ResponsePaneState.maskHex(with:)`), and only for bodies up to `maxBytes` (a larger body's hex view
/// masks row by row, like the text views).
public struct MaskedHexBytes: Sendable, Hashable {
    /// The largest body copied to be masked for the hex view.
    public static let maxBytes = 16 << 20

    public let masker: SecretMasker
    /// The body's size when masked: a body still arriving is masked again as it grows.
    public let size: Int
    public let bytes: Data

    init(body: BodyDocument, masker: SecretMasker) {
        let data = body.bytes
        self.masker = masker
        size = data.count
        bytes = data.withUnsafeBytes { bytes in masker.occurs(in: bytes) ? Data(masker.masked(bytes)) : data }
    }
}
