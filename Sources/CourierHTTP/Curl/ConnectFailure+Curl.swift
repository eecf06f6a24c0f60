import CCurl
import Foundation

extension ConnectFailure {
    /// The connect failure libcurl reported, or nil when `code` is not about making a connection.
    /// `osErrno` is `CURLINFO_OS_ERRNO`, which tells a refused port from a missing route; the host and port
    /// come from curl's message, which names the host it tried (a proxy's when one is set), else from `url`.
    /// Measured against libcurl 7.88.1: `Failed to connect to HOST port PORT after N ms: …`,
    /// `Could not resolve host: NAME`, `Could not resolve proxy: NAME`.
    public static func fromCurl(code: UInt32, osErrno: Int, message: String, url: URL?) -> ConnectFailure? {
        let urlHost = url?.host.map { $0.hasPrefix("[") ? String($0.dropFirst().dropLast()) : $0 } ?? ""
        let urlPort = url.map { $0.port ?? (["https", "wss"].contains($0.scheme?.lowercased() ?? "") ? 443 : 80) }
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST.rawValue:
            let host = text(after: "Could not resolve host: ", in: message) ?? urlHost
            return ConnectFailure(reason: .unresolved, host: host, port: nil, underlying: message)
        case CURLE_COULDNT_RESOLVE_PROXY.rawValue:
            let host = text(after: "Could not resolve proxy: ", in: message) ?? ""
            return ConnectFailure(reason: .unresolved, host: host, port: nil, isProxy: true, underlying: message)
        case CURLE_COULDNT_CONNECT.rawValue:
            let (host, port) = connectTarget(in: message) ?? (urlHost, urlPort)
            let reason: Reason = switch Int32(truncatingIfNeeded: osErrno) {
            case ECONNREFUSED: .refused
            case ENETUNREACH: .networkUnreachable
            case EHOSTUNREACH: .hostUnreachable
            default: .other
            }
            return ConnectFailure(reason: reason, host: host, port: port,
                                  isProxy: !urlHost.isEmpty && host != urlHost, underlying: message)
        default:
            return nil
        }
    }

    /// The host and port of `Failed to connect to HOST port PORT after …`.
    private static func connectTarget(in message: String) -> (String, Int?)? {
        guard let start = message.range(of: "Failed to connect to ") else { return nil }
        let rest = message[start.upperBound...]
        guard let portWord = rest.range(of: " port ") else { return nil }
        let host = String(rest[..<portWord.lowerBound])
        let port = Int(rest[portWord.upperBound...].prefix { $0.isNumber })
        return host.isEmpty ? nil : (host, port)
    }

    /// The word after `prefix` in `message` (up to a space), or nil when `message` does not contain it.
    private static func text(after prefix: String, in message: String) -> String? {
        guard let range = message.range(of: prefix) else { return nil }
        let word = message[range.upperBound...].prefix { !$0.isWhitespace }
        return word.isEmpty ? nil : String(word)
    }
}
