import CCurl
import CourierMessage

/// The content and transfer codings libcurl decodes, and what is said of a body it cannot: a coding it
/// does not know (`Content-Encoding: UTF-8`, which real servers send) would fail the whole response, so
/// such a body is passed through as the server sent it, as curl without `--compressed` and browsers do.
public enum ContentCodings {
    /// Lower-cased names libcurl decodes: identity (and its alias none), deflate, gzip (and x-gzip),
    /// and br and zstd when this libcurl was built with them.
    static let decoded: Set<String> = {
        var names: Set<String> = ["identity", "none", "deflate", "gzip", "x-gzip"]
        let features = courier_curl_features()
        if features & CURL_VERSION_BROTLI != 0 { names.insert("br") }
        if features & CURL_VERSION_ZSTD != 0 { names.insert("zstd") }
        return names
    }()

    /// The codings of a response's Content-Encoding and Transfer-Encoding fields that libcurl cannot
    /// decode, as the server spelled them (chunked framing is not a coding of the body).
    public static func undecodable(_ headers: HTTPHeaders) -> [String] {
        func codings(_ field: String) -> [String] {
            headers.values(for: field).flatMap { $0.split(separator: ",") }
                .map { String($0.cacheTrimmingOWS()) }.filter { !$0.isEmpty }
        }
        let content = codings("Content-Encoding").filter { !decoded.contains($0.lowercased()) }
        let transfer = codings("Transfer-Encoding").filter {
            $0.lowercased() != "chunked" && !decoded.contains($0.lowercased())
        }
        return content + transfer
    }

    /// Why a body is shown as it was received, naming the codings; nil when it was decoded.
    public static func note(for headers: HTTPHeaders) -> String? {
        let unknown = undecodable(headers)
        guard !unknown.isEmpty else { return nil }
        let names = unknown.map { "'\($0)'" }.joined(separator: ", ")
        return "body not decoded: unknown coding\(unknown.count == 1 ? "" : "s") \(names)"
    }
}
