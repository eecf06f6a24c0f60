import CourierMessage
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
        guard let date = HTTPDate.parse(value, now: now) else { return nil }
        let seconds = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
