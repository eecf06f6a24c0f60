/// The one way Courier writes a duration, in every pane and every command: `873 µs`, `4.2 ms`, `12 ms`,
/// `1.34 s`, `2 min 05 s`.
public enum DurationText {
    /// `seconds` for people, in the largest unit that keeps three significant digits.
    public static func format(seconds: Double) -> String {
        switch seconds {
        case ...0: "0 ms"
        // The bounds sit where rounding would otherwise print `1000 µs`, `10.0 ms` or `1000 ms`.
        case ..<0.000_999_5: "\(Int((seconds * 1_000_000).rounded())) µs"
        case ..<0.009_95: decimal(seconds * 1000, places: 1) + " ms"
        case ..<0.999_5: "\(Int((seconds * 1000).rounded())) ms"
        case ..<60: decimal(seconds, places: 2) + " s"
        default: "\(Int(seconds) / 60) min " + (Int(seconds) % 60 < 10 ? "0" : "") + "\(Int(seconds) % 60) s"
        }
    }

    /// A `Duration` for people.
    public static func format(_ duration: Duration) -> String {
        format(seconds: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    /// `value` with `places` decimals (1 to 3), without Foundation's format machinery: `String(format:)` starts
    /// CoreFoundation, which every `courier send` paid for at its end only to print an attempt's time.
    public static func decimal(_ value: Double, places: Int) -> String {
        let scale = places == 1 ? 10.0 : (places == 2 ? 100.0 : 1000.0)
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        let fraction = String(scaled % Int64(scale))
        let padded = String(repeating: "0", count: max(0, min(places, 3) - fraction.count)) + fraction
        return (value < 0 && scaled != 0 ? "-" : "") + "\(whole).\(padded)"
    }
}
