import Foundation

/// Reads a Retry-After field (RFC 9110 section 10.2.3): delay-seconds or an HTTP-date.
public enum RetryAfter {
    /// The wait the field asks for, or nil when absent or unreadable. A date in the past is zero.
    public static func delay(in headers: HTTPHeaders, now: Date) -> Duration? {
        guard let value = headers["Retry-After"]?.trimmingSpaces, !value.isEmpty else { return nil }
        if value.allSatisfy(\.isASCIIDigit) {
            guard let seconds = Int64(value) else { return nil }
            return .seconds(seconds)
        }
        guard let date = parseHTTPDate(value) else { return nil }
        let seconds = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// The three date shapes RFC 9110 section 5.6.7 requires recipients to accept.
    static let dateFormats = [
        "EEE, dd MMM yyyy HH:mm:ss zzz",   // IMF-fixdate, the one senders must use
        "EEEE, dd-MMM-yy HH:mm:ss zzz",    // obsolete RFC 850
        "EEE MMM d HH:mm:ss yyyy",         // obsolete asctime
    ]

    static func parseHTTPDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in dateFormats {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
