import Foundation

/// Date texts of the dynamic variables: RFC 1123, ISO 8601, and the Day.js-style patterns
/// (`YYYY-MM-DD HH:mm:ss`) that VS Code REST Client files write in `$datetime "…"`.
enum DateText {
    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August",
                             "September", "October", "November", "December"]
    static let dayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// `Tue, 14 Nov 2023 22:13:20 GMT` in UTC; with an offset (`+0100`) in another zone.
    static func rfc1123(_ date: Date, zone: TimeZone) -> String {
        let suffix = zone.secondsFromGMT(for: date) == 0 ? "GMT" : format(date, pattern: "ZZ", zone: zone)
        return format(date, pattern: "ddd, DD MMM YYYY HH:mm:ss ", zone: zone) + suffix
    }

    /// `2023-11-14T22:13:20.000Z` in UTC, `2023-11-14T23:13:20+01:00` in another zone.
    static func iso8601(_ date: Date, zone: TimeZone, milliseconds: Bool) -> String {
        let base = format(date, pattern: milliseconds ? "YYYY-MM-DDTHH:mm:ss.SSS" : "YYYY-MM-DDTHH:mm:ss", zone: zone)
        return base + (zone.secondsFromGMT(for: date) == 0 ? "Z" : format(date, pattern: "Z", zone: zone))
    }

    /// Formats with Day.js tokens: YYYY YY M MM MMM MMMM D DD d ddd dddd H HH h hh m mm s ss SSS A a Z ZZ X x;
    /// text in `[brackets]` and any other character is written as is.
    static func format(_ date: Date, pattern: String, zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .weekday, .hour, .minute, .second, .nanosecond],
                                            from: date)
        let year = parts.year ?? 1970, month = parts.month ?? 1, day = parts.day ?? 1
        let hour = parts.hour ?? 0, minute = parts.minute ?? 0, second = parts.second ?? 0
        let millisecond = (parts.nanosecond ?? 0) / 1_000_000
        let weekday = (parts.weekday ?? 1) - 1
        let offset = zone.secondsFromGMT(for: date) / 60
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(abs(value))
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
        }
        func zoneText(colon: Bool) -> String {
            (offset < 0 ? "-" : "+") + pad(abs(offset) / 60, 2) + (colon ? ":" : "") + pad(abs(offset) % 60, 2)
        }
        let hour12 = hour % 12 == 0 ? 12 : hour % 12
        // Longest tokens first, so that MMMM is not read as MM twice.
        let tokens: [(String, () -> String)] = [
            ("YYYY", { pad(year, 4) }), ("YY", { pad(year % 100, 2) }),
            ("MMMM", { monthNames[month - 1] }), ("MMM", { String(monthNames[month - 1].prefix(3)) }),
            ("MM", { pad(month, 2) }), ("M", { String(month) }),
            ("DD", { pad(day, 2) }), ("D", { String(day) }),
            ("dddd", { dayNames[weekday] }), ("ddd", { String(dayNames[weekday].prefix(3)) }),
            ("d", { String(weekday) }),
            ("HH", { pad(hour, 2) }), ("H", { String(hour) }), ("hh", { pad(hour12, 2) }), ("h", { String(hour12) }),
            ("mm", { pad(minute, 2) }), ("m", { String(minute) }), ("ss", { pad(second, 2) }), ("s", { String(second) }),
            ("SSS", { pad(millisecond, 3) }), ("A", { hour < 12 ? "AM" : "PM" }), ("a", { hour < 12 ? "am" : "pm" }),
            ("ZZ", { zoneText(colon: false) }), ("Z", { zoneText(colon: true) }),
            ("X", { String(Int64(date.timeIntervalSince1970.rounded(.down))) }),
            ("x", { String(Int64((date.timeIntervalSince1970 * 1000).rounded(.down))) }),
        ]
        var result = ""
        var rest = Substring(pattern)
        outer: while let first = rest.first {
            if first == "[", let close = rest.firstIndex(of: "]") {
                result += rest[rest.index(after: rest.startIndex)..<close]
                rest = rest[rest.index(after: close)...]
                continue
            }
            for (token, value) in tokens where rest.hasPrefix(token) {
                result += value()
                rest = rest.dropFirst(token.count)
                continue outer
            }
            result.append(first)
            rest = rest.dropFirst()
        }
        return result
    }
}
