import CourierMessage
import Foundation

/// How fresh a stored response is, after RFC 9111 section 4.2, computed from its headers, when it
/// was requested and received, and the current time. Pure: the clock is a parameter.
public struct CacheFreshness: Sendable, Hashable {
    /// Where the freshness lifetime came from.
    public enum Source: String, Sendable, Hashable {
        case maxAge = "max-age"
        case expires = "Expires"
        case heuristic
        /// No explicit or heuristic freshness: the response is stale at once.
        case none
    }

    /// Freshness lifetime in seconds.
    public var lifetime: Double
    /// Current age in seconds.
    public var age: Double
    public var source: Source

    /// Remaining freshness in seconds; negative when stale.
    public var ttl: Double { lifetime - age }
    public var isFresh: Bool { lifetime > age }
    /// How long past its lifetime the response is, 0 while fresh.
    public var staleness: Double { max(0, age - lifetime) }

    /// Freshness from figures already worked out.
    public init(lifetime: Double, age: Double, source: Source) {
        self.lifetime = lifetime
        self.age = age
        self.source = source
    }

    /// Freshness of a response received at `responseTime` for a request sent at `requestTime`, at `now`.
    public init(status: Int, headers: HTTPHeaders, requestTime: Date, responseTime: Date, now: Date) {
        let (lifetime, source) = Self.lifetime(status: status, headers: headers, responseTime: responseTime)
        self.init(lifetime: lifetime,
                  age: Self.currentAge(headers: headers, requestTime: requestTime, responseTime: responseTime, now: now),
                  source: source)
    }

    // MARK: - Section 4.2.1: freshness lifetime (a private cache, so s-maxage is ignored)

    /// The freshness lifetime in seconds and where it came from.
    public static func lifetime(status: Int, headers: HTTPHeaders, responseTime: Date) -> (Double, Source) {
        let control = CacheControl(headers: headers) ?? CacheControl()
        switch control.maxAge {
        case .value(let seconds): return (Double(seconds), .maxAge)
        case .invalid: return (0, .maxAge)  // invalid freshness information: treat as stale
        case .absent: break
        }
        let expiresValues = headers.values(for: "Expires")
        if let first = expiresValues.first {
            // Conflicting duplicates or an unparseable date (such as "0") mean already expired.
            guard expiresValues.allSatisfy({ $0 == first }), let expires = parseDate(first) else {
                return (0, .expires)
            }
            return (max(0, expires.timeIntervalSince(dateValue(headers, responseTime: responseTime))), .expires)
        }
        // Heuristics apply to statuses cacheable by default, and to any status marked public (section 4.2.2).
        if CachePolicy.heuristicallyCacheable.contains(status) || control.isPublic,
           let modifiedText = headers["Last-Modified"], let modified = parseDate(modifiedText) {
            let since = dateValue(headers, responseTime: responseTime).timeIntervalSince(modified)
            return (min(CachePolicy.heuristicCap, max(0, since) * CachePolicy.heuristicFraction), .heuristic)
        }
        return (0, .none)
    }

    /// Whether the response carries explicit freshness (max-age or Expires), which makes statuses that
    /// are not cacheable by default storable.
    public static func hasExplicitFreshness(_ headers: HTTPHeaders) -> Bool {
        let control = CacheControl(headers: headers) ?? CacheControl()
        return control.maxAge != .absent || headers.contains("Expires")
    }

    // MARK: - Section 4.2.3: age

    /// `current_age` of RFC 9111 section 4.2.3.
    public static func currentAge(headers: HTTPHeaders, requestTime: Date, responseTime: Date, now: Date) -> Double {
        // Date counts whole seconds, cut down: against the clock's fractions of a second it would make every
        // response up to a second old on arrival, a large share of a short max-age. Compared at its own
        // resolution, a response dated this second has no apparent age.
        let receivedSecond = Date(timeIntervalSince1970: responseTime.timeIntervalSince1970.rounded(.down))
        let apparentAge = max(0, receivedSecond.timeIntervalSince(dateValue(headers, responseTime: responseTime)))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedAgeValue = Double(ageValue(headers)) + responseDelay
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        let residentTime = max(0, now.timeIntervalSince(responseTime))
        return correctedInitialAge + residentTime
    }

    /// The Age field in seconds; an invalid value counts as 0. A list (`Age: 7200, 0`, or several Age
    /// lines) counts by its first member (RFC 9111 section 5.1).
    public static func ageValue(_ headers: HTTPHeaders) -> Int {
        guard let field = headers["Age"] else { return 0 }
        let first = field.split(separator: ",", omittingEmptySubsequences: false).first ?? Substring(field)
        return CacheControl.deltaSeconds(String(first.cacheTrimmingOWS())) ?? 0
    }

    /// The Date field, or the time the response arrived when it is missing or invalid.
    public static func dateValue(_ headers: HTTPHeaders, responseTime: Date) -> Date {
        headers["Date"].flatMap { parseDate($0) } ?? responseTime
    }

    /// An HTTP-date as a cache reads it: day, month and zone names in any case (RFC 9111 section 4.2).
    static func parseDate(_ text: String) -> Date? { HTTPDate.parse(text, caseSensitive: false) }
}
