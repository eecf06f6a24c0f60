import Foundation

/// Builds request URLs from parts with URLComponents, never by string concatenation.
public enum URLBuilder {
    /// `base` with `path` appended (one slash between) and `query` items added after any it has.
    /// A `+` in a name or value is sent as `%2B`: URLComponents leaves it alone, and servers read a
    /// literal `+` in a query as a space.
    public static func url(_ base: URL, path: String = "", query: [(name: String, value: String?)] = []) -> URL? {
        guard var components = URLComponents(url: base, resolvingAgainstBaseURL: false) else { return nil }
        if !path.isEmpty {
            let head = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
            let tail = path.hasPrefix("/") ? String(path.dropFirst()) : path
            components.path = head + "/" + tail
        }
        if !query.isEmpty {
            components.queryItems = (components.queryItems ?? []) + query.map { URLQueryItem(name: $0.name, value: $0.value) }
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        }
        return components.url
    }
}
