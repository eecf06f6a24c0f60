import CourierBody
import CourierSecurity
import Foundation
import Synchronization

/// The body's bytes with known secrets masked, for the hex view: a secret spans several hex rows, so the
/// rows cannot be masked one by one. Made once per body size and set of secrets, and only for bodies up to
/// `maxBytes` (a larger body's hex view masks row by row, like the text views).
final class MaskedHexBytes: Sendable {
    /// The largest body copied to be masked for the hex view.
    static let maxBytes = 16 << 20

    private struct Made { var masker: SecretMasker; var size: Int; var bytes: Data }
    private let made = Mutex<Made?>(nil)

    /// The bytes the hex view shows for `body` with `masker`'s secrets masked.
    func bytes(of body: BodyDocument, masker: SecretMasker) -> Data {
        let data = body.bytes
        guard data.count <= Self.maxBytes else { return data }
        if let made = made.withLock({ $0 }), made.masker == masker, made.size == data.count { return made.bytes }
        let masked = data.withUnsafeBytes { bytes in masker.occurs(in: bytes) ? Data(masker.masked(bytes)) : data }
        made.withLock { $0 = Made(masker: masker, size: data.count, bytes: masked) }
        return masked
    }
}
