import CourierBody
import CourierHTTP
import CourierHistory
import CourierTerminal
import Foundation

/// The recent total times of one request and their percentiles, for the response status line:
/// `▁▂▅▇ p50 12 ms · p95 48 ms`. Percentiles use the nearest-rank method: the p-th percentile of n
/// sorted values is the value at rank ⌈p/100 · n⌉ (1-based), so it is always one of the measured
/// times, never an interpolation between two.
public struct LatencyStats: Sendable, Hashable {
    /// How many recent times are kept when none is given.
    public static let defaultCount = 20
    /// Total times in seconds, oldest first (the sparkline reads left to right).
    public let durations: [Double]

    /// The last `count` of `durations` (seconds, oldest first); non-finite and negative values are dropped.
    public init(durations: [Double], count: Int = LatencyStats.defaultCount) {
        self.durations = Array(durations.filter { $0.isFinite && $0 >= 0 }.suffix(max(0, count)))
    }

    /// From history entries of one request in any order: the last `count` that have a total time.
    public init(entries: [HistoryEntry], count: Int = LatencyStats.defaultCount) {
        let timed = entries.sorted { $0.date < $1.date }.compactMap(\.timing.total)
        self.init(durations: timed, count: count)
    }

    /// From the persisted history of one request (its `# @name`, or method and URL).
    public init(store: HistoryStore, requestKey: String, count: Int = LatencyStats.defaultCount) throws(HistoryError) {
        self.init(entries: try store.list(requestKey: requestKey), count: count)
    }

    public var isEmpty: Bool { durations.isEmpty }

    /// The nearest-rank percentile `p` (0–100) in seconds; nil when there are no times.
    public func percentile(_ p: Double) -> Double? {
        guard !durations.isEmpty else { return nil }
        let sorted = durations.sorted()
        let rank = Int((min(max(p, 0), 100) / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    public var p50: Double? { percentile(50) }
    public var p95: Double? { percentile(95) }

    /// The sparkline of the kept times, at most `width` characters, newest on the right.
    public func sparkline(width: Int = LatencyStats.defaultCount) -> String {
        Sparkline(durations).text(width: width)
    }

    /// The status-line text: `▁▂▅▇ p50 12 ms · p95 48 ms`; empty when there is no time yet.
    public func line(sparklineWidth: Int = LatencyStats.defaultCount) -> String {
        guard let p50, let p95 else { return "" }
        return "\(sparkline(width: sparklineWidth)) p50 \(Self.format(p50)) · p95 \(Self.format(p95))"
    }

    /// Draws `line` at `x`, `y` (the sparkline in `theme.muted`, the figures in `theme.text`); returns the columns used.
    @discardableResult
    public func render(into buffer: inout Buffer, x: Int, y: Int, maxWidth: Int, theme: Theme,
                       sparklineWidth: Int = LatencyStats.defaultCount) -> Int {
        guard let p50, let p95, maxWidth > 0 else { return 0 }
        let spark = sparkline(width: sparklineWidth)
        var used = buffer.write(spark, x: x, y: y, style: theme.muted, maxWidth: maxWidth)
        used += buffer.write(" p50 \(Self.format(p50)) · p95 \(Self.format(p95))", x: x + used, y: y,
                             style: theme.text, maxWidth: maxWidth - used)
        return used
    }

    /// A duration for people (`850 µs`, `12 ms`, `1.25 s`): the explorer's one duration format.
    public static func format(_ seconds: Double) -> String { DurationText.format(seconds: seconds) }
}
