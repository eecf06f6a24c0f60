import Glibc

/// Text built in a fixed, preallocated byte buffer with integer arithmetic only, so a signal handler can
/// format a crash report: no allocation, no locks, no locale, no Foundation. The same code formats the
/// report's start-up fields and file name outside any handler, which also exercises it once before a crash.
public struct SignalSafeText {
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// Bytes written so far; whatever does not fit is dropped.
    public private(set) var count = 0

    /// Writes into `buffer`, which the caller owns and keeps alive.
    public init(buffer: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.buffer = buffer
        self.capacity = capacity
    }

    /// Appends one byte.
    public mutating func append(byte: UInt8) {
        guard count < capacity else { return }
        buffer[count] = byte
        count += 1
    }

    /// Appends a literal.
    public mutating func append(_ text: StaticString) {
        append(bytes: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Appends `length` bytes from `bytes`.
    public mutating func append(bytes: UnsafePointer<UInt8>, count length: Int) {
        var index = 0
        while index < length {
            append(byte: bytes[index])
            index += 1
        }
    }

    /// Appends `value` in decimal, padded with zeros to at least `width` digits.
    public mutating func append(decimal value: Int, width: Int = 1) {
        var magnitude = value
        if value < 0 {
            append(byte: UInt8(ascii: "-"))
            // Int.min has no positive counterpart; a crash report never needs it.
            magnitude = value == Int.min ? Int.max : -value
        }
        var divisor = 1
        var digits = 1
        while magnitude / divisor >= 10 || digits < width {
            divisor *= 10
            digits += 1
        }
        while divisor > 0 {
            append(byte: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: (magnitude / divisor) % 10))
            divisor /= 10
        }
    }

    /// Appends the UTC time of `epochSeconds`: `2026-11-29T20:55:01Z`, or `20261129T205501Z` when `compact`
    /// (for file names, which then sort by time).
    public mutating func append(utc epochSeconds: Int, compact: Bool = false) {
        let date = CivilDate(epochSeconds: epochSeconds)
        append(decimal: date.year, width: 4)
        if !compact { append(byte: UInt8(ascii: "-")) }
        append(decimal: date.month, width: 2)
        if !compact { append(byte: UInt8(ascii: "-")) }
        append(decimal: date.day, width: 2)
        append(byte: UInt8(ascii: "T"))
        append(decimal: date.hour, width: 2)
        if !compact { append(byte: UInt8(ascii: ":")) }
        append(decimal: date.minute, width: 2)
        if !compact { append(byte: UInt8(ascii: ":")) }
        append(decimal: date.second, width: 2)
        append(byte: UInt8(ascii: "Z"))
    }

    /// Writes the text to `fd` (retrying short writes) and empties the buffer. Async-signal-safe.
    public mutating func flush(to fd: Int32) {
        var offset = 0
        while offset < count {
            let written = write(fd, buffer + offset, count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        count = 0
    }

    /// The text as a String, for start-up code and tests (allocates: never call it in a handler).
    public var string: String {
        String(decoding: UnsafeBufferPointer(start: buffer, count: count), as: UTF8.self)
    }
}

/// A UTC calendar date and time from seconds since 1970, by integer arithmetic on the proleptic
/// Gregorian calendar (days are shifted to start the year in March, so leap days fall at a year's end).
struct CivilDate: Equatable {
    var year = 1970, month = 1, day = 1, hour = 0, minute = 0, second = 0

    init(epochSeconds: Int) {
        var days = epochSeconds / 86_400
        var seconds = epochSeconds % 86_400
        if seconds < 0 {
            seconds += 86_400
            days -= 1
        }
        hour = seconds / 3_600
        minute = seconds % 3_600 / 60
        second = seconds % 60
        // 719,468 days from 0000-03-01 to 1970-01-01; eras are 400-year cycles of 146,097 days.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }
}
