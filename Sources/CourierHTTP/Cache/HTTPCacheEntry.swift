import CourierMessage
import CourierSecurity
import Foundation

/// One stored response as written to disk: the response's head, the request headers Vary selected,
/// when it was requested and received, and where its body is (inline when small, else a file).
public struct HTTPCacheEntry: Sendable, Hashable, Codable {
    /// `METHOD DIGEST` of the URL, the identity of the entry; checked on load so a file-name clash is a miss.
    public var key: String
    public var method: String
    public var url: String
    public var status: Int
    public var reason: String
    public var httpVersion: String
    /// Response header fields in order, as `[name, value]` pairs.
    public var headerFields: [[String]]
    /// The values of the request headers named by Vary (lower-cased names; secrets as digests).
    public var selectedRequestHeaders: [String: String]
    public var requestTime: Date
    public var responseTime: Date
    /// When a full response (not a 304) was last stored.
    public var storedAt: Date
    public var bodySize: Int
    /// The body when it is small enough to live in the entry itself.
    public var inlineBody: Data?
    /// The body's file name in the cache directory when it is not inline.
    public var bodyFile: String?
    /// The checksum of the body file when it was written; a file that no longer matches is a miss.
    public var bodyChecksum: String?
    /// For a second and later variant of a URL (Vary), the suffix of its file name; nil for the first.
    public var variant: String?
    /// Fields of the response that were not stored because they carry secrets (`Set-Cookie`).
    public var withheldFields: [String]?
    /// How long the full fetch took and how many bytes it moved, to show what a revalidation saved.
    public var fetchSeconds: Double
    public var fetchBytes: Int

    /// The entry for a full response; the body is attached by `HTTPCacheStore.save`.
    public init(method: HTTPMethod, url: URL, response: HTTPResponse, selectedRequestHeaders: [String: String],
                requestTime: Date, responseTime: Date, secrets: Set<String> = []) {
        key = HTTPCacheStore.key(method: method, url: url)
        self.method = method.rawValue
        self.url = SecretPolicy.maskedURL(url.absoluteString, secrets: secrets)
        status = response.status
        reason = response.reason
        httpVersion = response.httpVersion
        headerFields = CachePolicy.storableFields(response.headers).map { [$0.name, $0.value] }
        let withheld = response.headers.map(\.name).filter {
            CachePolicy.isWithheld($0)
        }
        withheldFields = withheld.isEmpty ? nil : Array(Set(withheld)).sorted()
        // A recipient with a clock records when a dateless response arrived (RFC 9110 section 6.6.1).
        if !response.headers.contains("Date") { headerFields.append(["Date", HTTPDate.format(responseTime)]) }
        self.selectedRequestHeaders = selectedRequestHeaders
        self.requestTime = requestTime
        self.responseTime = responseTime
        storedAt = responseTime
        bodySize = response.body.size
        fetchSeconds = response.timing.total.milliseconds / 1000
        fetchBytes = response.timing.bytesReceived > 0 ? response.timing.bytesReceived : response.body.size
    }

    /// The stored response header fields.
    public var headers: HTTPHeaders {
        get { HTTPHeaders(headerFields.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }) }
        set { headerFields = newValue.map { [$0.name, $0.value] } }
    }

    public var vary: Vary { Vary(headers: headers) }

    /// Freshness at `now`.
    public func freshness(now: Date) -> CacheFreshness {
        CacheFreshness(status: status, headers: headers, requestTime: requestTime, responseTime: responseTime, now: now)
    }

    /// Whether this stored response may answer a request with these headers (RFC 9111 section 4.1).
    public func varyMatches(_ request: HTTPHeaders) -> Bool {
        let vary = self.vary
        guard case .fields = vary else { return false }
        return vary.selectedValues(of: request) == selectedRequestHeaders
    }

    /// The validators a conditional request can carry.
    public var etag: String? { headers["ETag"] }
    public var lastModified: String? { headers["Last-Modified"] }
    public var hasValidator: Bool { etag != nil || lastModified != nil }

    /// Whether a 304 applies to this entry: one that names a strong ETag must name the stored one.
    public func isSelected(by update: HTTPHeaders) -> Bool {
        guard let tag = update["ETag"], !tag.hasPrefix("W/") else { return true }
        return tag == etag
    }

    /// Applies the header fields of a 304 (RFC 9111 section 3.2): each field replaces the stored ones of
    /// that name, except those the stored body depends on.
    public mutating func merge304(headers update: HTTPHeaders, receivedAt: Date) {
        var merged = headers
        // The 304 is news from the origin: an Age or Date kept from the first response would make
        // the refreshed entry look as old as that response.
        if !update.contains("Age") { merged.remove("Age") }
        if !update.contains("Date") { merged.set("Date", HTTPDate.format(receivedAt)) }
        var replaced = Set<String>()
        let connectionNamed = CachePolicy.connectionNamedFields(update)
        for field in update {
            let name = field.name.lowercased()
            guard !CachePolicy.notUpdatedBy304.contains(name), !connectionNamed.contains(name),
                  !CachePolicy.isWithheld(name) else { continue }
            // The first field of a name takes the stored field's place; repeats of it are appended.
            if replaced.insert(name).inserted {
                merged.set(field.name, field.value)
            } else {
                merged.add(field.name, field.value)
            }
        }
        headers = merged
    }
}
