/// Timestamp and Duration text as proto3 JSON writes them: RFC 3339 in UTC with 0, 3, 6 or 9 fractional
/// digits, and seconds with an `s` suffix. Calendar arithmetic is done here (proleptic Gregorian, UTC), so
/// no formatter, locale or time zone is involved.
enum ProtoTime {
    /// Seconds of 0001-01-01T00:00:00Z and of 9999-12-31T23:59:59Z: the range a Timestamp may hold.
    static let minimumSeconds: Int64 = -62_135_596_800
    static let maximumSeconds: Int64 = 253_402_300_799
    /// Durations hold about ±10,000 years.
    static let maximumDurationSeconds: Int64 = 315_576_000_000

    static func timestamp(seconds: Int64, nanos: Int32) -> String? {
        guard (minimumSeconds...maximumSeconds).contains(seconds), (0..<1_000_000_000).contains(nanos) else {
            return nil
        }
        var days = seconds / 86_400
        var rest = seconds % 86_400
        if rest < 0 { rest += 86_400; days -= 1 }
        let (year, month, day) = civil(fromDays: days)
        let time = pad(Int(rest / 3600), 2) + ":" + pad(Int(rest / 60 % 60), 2) + ":" + pad(Int(rest % 60), 2)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + time + fraction(nanos) + "Z"
    }

    static func duration(seconds: Int64, nanos: Int32) -> String? {
        guard abs(seconds) <= maximumDurationSeconds, abs(nanos) < 1_000_000_000,
              seconds == 0 || nanos == 0 || (seconds < 0) == (nanos < 0) else { return nil }
        let negative = seconds < 0 || nanos < 0
        return (negative ? "-" : "") + String(abs(seconds)) + fraction(abs(nanos)) + "s"
    }

    static func parseTimestamp(_ text: String) -> (Int64, Int32)? {
        let chars = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= chars.count else { return nil }
            var value = 0
            for byte in chars[from..<from + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard chars.count >= 20, chars[4] == 45, chars[7] == 45, chars[10] == 84 || chars[10] == 116,
              chars[13] == 58, chars[16] == 58,
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        var index = 19
        var nanos: Int32 = 0
        if index < chars.count, chars[index] == 46 {
            index += 1
            var digits = 0
            while index < chars.count, (48...57).contains(chars[index]) {
                guard digits < 9 else { return nil }
                nanos = nanos * 10 + Int32(chars[index] - 48)
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in digits..<9 { nanos *= 10 }
        }
        var offset = 0
        guard index < chars.count else { return nil }
        if chars[index] == 90 || chars[index] == 122 {
            index += 1
        } else if chars[index] == 43 || chars[index] == 45, let hours = number(index + 1, 2),
                  index + 3 < chars.count, chars[index + 3] == 58, let minutes = number(index + 4, 2) {
            offset = (hours * 60 + minutes) * 60 * (chars[index] == 45 ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == chars.count else { return nil }
        let days = days(fromCivil: year, month, day)
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        guard (minimumSeconds...maximumSeconds).contains(seconds) else { return nil }
        return (seconds, nanos)
    }

    static func parseDuration(_ text: String) -> (Int64, Int32)? {
        guard text.hasSuffix("s") else { return nil }
        var body = Substring(text.dropLast())
        let negative = body.hasPrefix("-")
        if negative { body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigitCharacter),
              let seconds = Int64(whole), seconds <= maximumDurationSeconds else { return nil }
        var nanos: Int32 = 0
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy(\.isASCIIDigitCharacter),
                  let value = Int32(fraction) else { return nil }
            nanos = value
            for _ in fraction.count..<9 { nanos *= 10 }
        }
        return negative ? (-seconds, -nanos) : (seconds, nanos)
    }

    private static func fraction(_ nanos: Int32) -> String {
        if nanos == 0 { return "" }
        if nanos % 1_000_000 == 0 { return "." + pad(Int(nanos / 1_000_000), 3) }
        if nanos % 1000 == 0 { return "." + pad(Int(nanos / 1000), 6) }
        return "." + pad(Int(nanos), 9)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// Howard Hinnant's days-from-civil and its inverse.
    private static func civil(fromDays days: Int64) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (Int(yoe + era * 400 + (month <= 2 ? 1 : 0)), Int(month), Int(day))
    }

    private static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}

extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
