import Foundation

/// Latencies counted in log-spaced buckets, HDR-style: every bucket is under 1/128 of its value wide, so a
/// percentile read from it is within 0.4% of the exact one (the bucket's middle is reported), in a fixed
/// amount of memory however many requests are counted. Values are nanoseconds.
public struct LatencyHistogram: Sendable, Equatable {
    /// Values below this are counted exactly; above, each power of two is cut into `subBuckets` buckets.
    private static let exactBelow: UInt64 = 256
    private static let subBuckets: UInt64 = 128

    private var counts: [UInt64] = []
    public private(set) var count: UInt64 = 0
    public private(set) var min: UInt64 = .max
    public private(set) var max: UInt64 = 0
    public private(set) var sum: Double = 0

    public init() {}

    /// Counts one value.
    public mutating func record(_ value: UInt64) {
        let index = Self.index(of: value)
        if index >= counts.count { counts.append(contentsOf: repeatElement(0, count: index + 1 - counts.count)) }
        counts[index] += 1
        count += 1
        sum += Double(value)
        if value < min { min = value }
        if value > max { max = value }
    }

    /// Counts a duration, in nanoseconds (a negative one as 0).
    public mutating func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 || seconds > 0 else { return record(0) }
        record(UInt64(seconds) * 1_000_000_000 &+ UInt64(Swift.max(0, attoseconds / 1_000_000_000)))
    }

    /// Adds another histogram's counts to this one.
    public mutating func merge(_ other: LatencyHistogram) {
        if other.counts.count > counts.count {
            counts.append(contentsOf: repeatElement(0, count: other.counts.count - counts.count))
        }
        for (index, value) in other.counts.enumerated() { counts[index] += value }
        count += other.count
        sum += other.sum
        min = Swift.min(min, other.min)
        max = Swift.max(max, other.max)
    }

    /// The value at `percent` (0...100) by nearest rank: the smallest value with at least that share of the
    /// values at or below it. Nil when nothing was counted.
    public func percentile(_ percent: Double) -> UInt64? {
        guard count > 0 else { return nil }
        let rank = Swift.max(1, UInt64((percent / 100 * Double(count)).rounded(.up)))
        var seen: UInt64 = 0
        for (index, value) in counts.enumerated() where value > 0 {
            seen += value
            if seen >= rank { return Swift.min(Swift.max(Self.middle(of: index), min), max) }
        }
        return max
    }

    /// The mean, in nanoseconds; nil when nothing was counted.
    public var mean: Double? { count > 0 ? sum / Double(count) : nil }

    /// The counts from the smallest value to the largest in `columns` log-spaced columns, for a small
    /// picture of the distribution; each column holds the values up to its bound.
    public func columns(_ columns: Int) -> [(upTo: UInt64, count: UInt64)] {
        guard count > 0, columns > 0 else { return [] }
        let low = Double(Swift.max(min, 1)), high = Double(Swift.max(max, min + 1))
                let bounds = (1...columns).map { column -> UInt64 in
            column == columns ? max : UInt64(low * pow(high / low, Double(column) / Double(columns)))
        }
        var result = bounds.map { (upTo: $0, count: UInt64(0)) }
        for (index, value) in counts.enumerated() where value > 0 {
            let middle = Self.middle(of: index)
            let column = bounds.firstIndex { middle <= $0 } ?? columns - 1
            result[column].count += value
        }
        return result
    }

    static func index(of value: UInt64) -> Int {
        if value < exactBelow { return Int(value) }
        let shift = UInt64(64 - value.leadingZeroBitCount - 8)
        let top = value >> shift
        return Int(exactBelow + (shift - 1) * subBuckets + (top - subBuckets))
    }

    /// The middle of the values counted at `index`.
    static func middle(of index: Int) -> UInt64 {
        let index = UInt64(index)
        if index < exactBelow { return index }
        let shift = (index - exactBelow) / subBuckets + 1
        let top = (index - exactBelow) % subBuckets + subBuckets
        return (top << shift) + ((1 << shift) - 1) / 2
    }
}
