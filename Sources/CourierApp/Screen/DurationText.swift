import Foundation

/// The one way the explorer writes a duration, in every pane: `873 µs`, `4.2 ms`, `12 ms`, `1.34 s`,
/// `2 min 05 s`.
public enum DurationText {
    /// `seconds` for people, in the largest unit that keeps three significant digits.
    public static func format(seconds: Double) -> String {
        switch seconds {
        case ...0: "0 ms"
        // The bounds sit where rounding would otherwise print `1000 µs`, `10.0 ms` or `1000 ms`.
        case ..<0.000_999_5: "\(Int((seconds * 1_000_000).rounded())) µs"
        case ..<0.009_95: String(format: "%.1f ms", seconds * 1000)
        case ..<0.999_5: "\(Int((seconds * 1000).rounded())) ms"
        case ..<60: String(format: "%.2f s", seconds)
        default: String(format: "%d min %02d s", Int(seconds) / 60, Int(seconds) % 60)
        }
    }

    /// A `Duration` for people.
    public static func format(_ duration: Duration) -> String {
        format(seconds: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }
}
