import Foundation

/// A parser for the ISO 8601 date-times APIs send: `2024-05-01T12:30:00Z`, with or without
/// fractional seconds, with `Z` or a `±hh:mm` / `±hhmm` / `±hh` offset, a space instead of `T`,
/// and a bare date `2024-05-01` (midnight UTC). Pure arithmetic, so it is safe on any thread.
public enum ISO8601 {
    /// The date, or nil when `text` is not one of the accepted shapes.
    public static func parse(_ text: String) -> Date? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
              let month = scanner.number(digits: 2), scanner.skip("-"),
              let day = scanner.number(digits: 2),
              (1...12).contains(month), (1...31).contains(day) else { return nil }
        var seconds = Double(daysFromCivil(year: year, month: month, day: day)) * 86_400
        if scanner.atEnd { return Date(timeIntervalSince1970: seconds) }
        guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
              let hour = scanner.number(digits: 2), scanner.skip(":"),
              let minute = scanner.number(digits: 2), hour < 24, minute < 60 else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        if scanner.skip(":") {
            guard let second = scanner.number(digits: 2), second <= 60 else { return nil }
            seconds += Double(second)
            if scanner.skip(".") || scanner.skip(",") {
                guard let fraction = scanner.fraction() else { return nil }
                seconds += fraction
            }
        }
        if scanner.atEnd { return Date(timeIntervalSince1970: seconds) }
        if scanner.skip("Z") || scanner.skip("z") {
            return scanner.atEnd ? Date(timeIntervalSince1970: seconds) : nil
        }
        let sign: Double
        if scanner.skip("+") { sign = 1 } else if scanner.skip("-") { sign = -1 } else { return nil }
        guard let offsetHours = scanner.number(digits: 2) else { return nil }
        _ = scanner.skip(":")
        let offsetMinutes = scanner.atEnd ? 0 : scanner.number(digits: 2)
        guard let offsetMinutes, scanner.atEnd, offsetHours < 24, offsetMinutes < 60 else { return nil }
        return Date(timeIntervalSince1970: seconds - sign * Double(offsetHours * 3600 + offsetMinutes * 60))
    }

    /// Days since 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// Reads fixed-width numbers and punctuation from ASCII bytes.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Character) -> Bool {
        guard index < bytes.count, let ascii = character.asciiValue, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    mutating func number(digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + digits] {
            guard (48...57).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        index += digits
        return value
    }

    /// The digits after a decimal point, as a fraction of a second.
    mutating func fraction() -> Double? {
        var value = 0.0
        var scale = 0.1
        let start = index
        while index < bytes.count, (48...57).contains(bytes[index]) {
            value += Double(bytes[index] - 48) * scale
            scale /= 10
            index += 1
        }
        return index > start ? value : nil
    }
}
