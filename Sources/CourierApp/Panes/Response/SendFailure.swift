import CourierCollections
import CourierHTTP

/// How the last send ended, when it did not give a response.
public struct SendFailure: Sendable, Hashable {
    /// Why the send gave no response.
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// The client core failed (offline, timed out, TLS…).
        case transport(APIError.Kind)
        /// The request names a variable no environment or file defines.
        case unknownVariable
        /// A pre-request script failed, or resolving after it did.
        case script
        /// The environment's client certificate needs its passphrase (`hasCertificatePassphrase`): it is asked.
        case certificatePassphrase
        /// The request could not be built for another reason (bad URL, unreadable body file…).
        case request
        /// The response arrived but its body file could not be read.
        case body
        /// The request reads or replaces a file outside what its collection may touch, which the user may
        /// allow: it is asked.
        case fileAccess(FileAccessRefusal)

        /// The stable name: the `APIError` kind's for a transport failure.
        public var description: String {
            switch self {
            case .transport(let kind): kind.rawValue
            case .unknownVariable: "unknownVariable"
            case .script: "script"
            case .certificatePassphrase: "certificatePassphrase"
            case .request: "request"
            case .body: "body"
            case .fileAccess: "fileAccess"
            }
        }
    }

    public var kind: Kind
    public var message: String
    /// For a TLS failure over the client certificate, what went wrong with it; nil otherwise.
    public var clientCertificate: ClientCertificateProblem?
    public init(kind: Kind, message: String, clientCertificate: ClientCertificateProblem? = nil) {
        self.kind = kind
        self.message = message
        self.clientCertificate = clientCertificate
    }
}
