import CourierMessage
import CourierSecurity
/// The small header fields the cache reads besides Cache-Control: Vary and Pragma.
public enum Vary: Sendable, Hashable {
    /// `Vary: *`: the response depends on something outside the request; it never matches a later one.
    case any
    /// The lower-cased request header names that selected this response (empty: none).
    case fields([String])

    /// The combined Vary fields of a response.
    public init(headers: HTTPHeaders) {
        let names = headers.values(for: "Vary")
            .flatMap { CacheControl.fieldNames($0) }
        if names.contains("*") {
            self = .any
        } else {
            var seen = Set<String>()
            self = .fields(names.filter { seen.insert($0).inserted })
        }
    }

    /// The values a request holds for the selecting headers, combined as RFC 9111 section 4.1 compares them.
    public func selectedValues(of request: HTTPHeaders) -> [String: String] {
        guard case .fields(let names) = self else { return [:] }
        var result: [String: String] = [:]
        for name in names {
            let value = request.combined(name).map { Self.normalise($0, field: name) } ?? ""
            // Secrets are compared by digest so that the entry on disk never holds a credential.
            result[name] = CachePolicy.isWithheld(name) && !value.isEmpty
                ? "digest:" + CachePolicy.digest(value) : value
        }
        return result
    }

    /// Fields whose members carry their own weights (`q=`) and are compared case-insensitively, so their
    /// order and case say nothing: `en, de` selects what `DE, EN` does.
    static let unorderedCaseInsensitiveFields: Set<String> = [
        "accept-encoding", "accept-language", "accept-charset",
    ]

    /// A selecting field's value in the form two requests are compared in (RFC 9111 section 4.1): without
    /// whitespace around commas and, for the fields above, lower-cased with its members sorted.
    static func normalise(_ value: String, field: String) -> String {
        let members = value.split(separator: ",", omittingEmptySubsequences: false).map { $0.cacheTrimmingOWS() }
        guard unorderedCaseInsensitiveFields.contains(field) else { return members.joined(separator: ",") }
        return members.map { $0.lowercased() }.sorted().joined(separator: ",")
    }
}

/// `Pragma: no-cache`, which HTTP/1.0 clients send; it counts only when there is no Cache-Control.
public enum Pragma {
    /// Whether the headers carry `Pragma: no-cache` and no Cache-Control field.
    public static func requestsNoCache(_ headers: HTTPHeaders) -> Bool {
        guard !headers.contains("Cache-Control"), let value = headers.combined("Pragma") else { return false }
        return CacheControl.fieldNames(value).contains("no-cache")
    }
}
