import Foundation

/// HTTP dates after RFC 9110 section 5.6.7: IMF-fixdate is generated; IMF-fixdate, the obsolete
/// RFC 850 form and asctime are accepted. Parsing is by hand rather than with DateFormatter so it is
/// locale-free, cheap, and safe to fuzz; anything malformed or out of range gives nil.
public enum HTTPDate {
    /// Day names as the three formats spell them (short for IMF-fixdate and asctime, long for RFC 850).
    static let shortDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Parses any of the three formats; `now` resolves RFC 850's two-digit years (RFC 9110: a year
    /// that appears more than 50 years in the future means the most recent past year with those digits).
    /// The grammar is case-sensitive; `caseSensitive: false` also reads `THU, 18 AUG 2050 02:01:18 gmt`,
    /// as a cache should (RFC 9111 section 4.2).
    public static func parse(_ text: String, now: Date = Date(), caseSensitive: Bool = true) -> Date? {
        var trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.utf8.count <= 64 else { return nil }
        if !caseSensitive { trimmed = canonicalCase(trimmed) }
        let bytes = Array(trimmed.utf8)
        if let comma = bytes.firstIndex(of: UInt8(ascii: ",")) {
            let day = String(decoding: bytes[..<comma], as: UTF8.self)
            let rest = Array(bytes[(comma + 1)...])
            if shortDays.contains(day) { return parseIMF(rest) }
            if longDays.contains(day) { return parseRFC850(rest, now: now) }
            return nil
        }
        return parseAsctime(bytes)
    }

    /// Formats `date` as IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func format(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = floorDiv(seconds, 86_400)
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        // 1970-01-01 was a Thursday, index 3 in a Monday-first list.
        let weekday = Int(((days % 7) + 7 + 3) % 7)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(shortDays[weekday]), \(two(day)) \(months[month - 1]) \(yearText) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }

    /// The names the formats spell, by their lower-cased form.
    private static let names: [String: String] = Dictionary(
        uniqueKeysWithValues: (shortDays + longDays + months + ["GMT"]).map { ($0.lowercased(), $0) })

    /// `text` with every run of letters that names a day, a month or GMT in any case spelled as the
    /// grammar spells it; other text is left alone.
    private static func canonicalCase(_ text: String) -> String {
        var result = ""
        var word = ""
        func flush() {
            result += names[word.lowercased()] ?? word
            word = ""
        }
        for character in text {
            if character.isASCII && character.isLetter {
                word.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return result
    }

    // MARK: - The three formats

    /// ` 06 Nov 1994 08:49:37 GMT` (after the comma).
    private static func parseIMF(_ bytes: [UInt8]) -> Date? {
        var reader = Reader(bytes)
        guard reader.literal(" "), let day = reader.digits(exactly: 2), reader.literal(" "),
              let month = reader.month(), reader.literal(" "), let year = reader.digits(exactly: 4),
              reader.literal(" "), let time = reader.time(), reader.literal(" GMT"), reader.atEnd
        else { return nil }
        return make(year: year, month: month, day: day, time: time)
    }

    /// ` 06-Nov-94 08:49:37 GMT` (after the comma).
    private static func parseRFC850(_ bytes: [UInt8], now: Date) -> Date? {
        var reader = Reader(bytes)
        guard reader.literal(" "), let day = reader.digits(exactly: 2), reader.literal("-"),
              let month = reader.month(), reader.literal("-"), let shortYear = reader.digits(exactly: 2),
              reader.literal(" "), let time = reader.time(), reader.literal(" GMT"), reader.atEnd
        else { return nil }
        let currentYear = civil(fromDays: floorDiv(Int64(now.timeIntervalSince1970), 86_400)).year
        var year = currentYear - currentYear % 100 + shortYear
        if year > currentYear + 50 { year -= 100 }
        return make(year: year, month: month, day: day, time: time)
    }

    /// `Sun Nov  6 08:49:37 1994`: the day of the month is padded with a space, not a zero.
    private static func parseAsctime(_ bytes: [UInt8]) -> Date? {
        var reader = Reader(bytes)
        guard let dayName = reader.letters(3), shortDays.contains(dayName), reader.literal(" "),
              let month = reader.month(), reader.literal(" ") else { return nil }
        let day: Int
        if reader.literal(" ") {
            guard let single = reader.digits(exactly: 1) else { return nil }
            day = single
        } else {
            guard let double = reader.digits(exactly: 2) else { return nil }
            day = double
        }
        guard reader.literal(" "), let time = reader.time(), reader.literal(" "),
              let year = reader.digits(exactly: 4), reader.atEnd else { return nil }
        return make(year: year, month: month, day: day, time: time)
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, UTC)

    private static func make(year: Int, month: Int, day: Int, time: (Int, Int, Int)) -> Date? {
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              time.0 <= 23, time.1 <= 59, time.2 <= 60 else { return nil }
        let days = self.days(year: year, month: month, day: day)
        let seconds = days * 86_400 + Int64(time.0 * 3600 + time.1 * 60 + time.2)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 for a civil date (Howard Hinnant's days_from_civil).
    private static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDiv(y, 400)
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The civil date of a day count since 1970-01-01 (the inverse of `days`).
    private static func civil(fromDays count: Int64) -> (year: Int, month: Int, day: Int) {
        let z = count + 719_468
        let era = floorDiv(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * mp + 2) / 5 + 1)
        let month = Int(mp < 10 ? mp + 3 : mp - 9)
        let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}

/// A cursor over the ASCII bytes of a date.
private struct Reader {
    let bytes: [UInt8]
    var index = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = text.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        if matches { index += count }
        return matches
    }

    mutating func digits(exactly count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<count {
            let byte = bytes[index + offset]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        index += count
        return value
    }

    mutating func letters(_ count: Int) -> String? {
        guard index + count <= bytes.count else { return nil }
        let slice = bytes[index..<(index + count)]
        guard slice.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7a }) else { return nil }
        index += count
        return String(decoding: slice, as: UTF8.self)
    }

    /// A three-letter month name, case-sensitive as the grammar requires; 1-based.
    mutating func month() -> Int? {
        guard let name = letters(3), let position = HTTPDate.months.firstIndex(of: name) else { return nil }
        return position + 1
    }

    /// `HH:MM:SS`, ranges checked by the caller.
    mutating func time() -> (Int, Int, Int)? {
        guard let hour = digits(exactly: 2), literal(":"), let minute = digits(exactly: 2), literal(":"),
              let second = digits(exactly: 2) else { return nil }
        return (hour, minute, second)
    }
}
