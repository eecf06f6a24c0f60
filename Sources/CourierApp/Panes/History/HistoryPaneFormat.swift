import CourierBody
import CourierHTTP
import CourierHistory
import Foundation

/// How history entries read in the pane: times, statuses, durations and sizes as short text.
enum HistoryPaneFormat {
    /// `2026-01-01 12:00:05` in `zone`.
    static func clock(_ date: Date, zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : "\($0)" } ?? "00" }
        return "\(c.year ?? 0)-\(two(c.month))-\(two(c.day)) \(two(c.hour)):\(two(c.minute)):\(two(c.second))"
    }

    /// `200 OK`, or the error when the request failed before a response.
    static func status(_ entry: HistoryEntry) -> String {
        guard let response = entry.response else { return entry.error.map { "Error: \($0)" } ?? "no response" }
        guard let reason = response.reason, !reason.isEmpty else { return "\(response.status)" }
        return "\(response.status) \(reason)"
    }

    /// The total time, or `–` when it was not measured.
    static func duration(_ entry: HistoryEntry) -> String {
        entry.timing.total.map(LatencyStats.format) ?? "–"
    }

    /// The received body size, or `–` without a response.
    static func size(_ entry: HistoryEntry) -> String {
        entry.response.map { MediaKind.formatSize($0.bodyBytes) } ?? "–"
    }

    /// The request's name when saved, else its path and query.
    static func label(_ entry: HistoryEntry) -> String {
        if let name = entry.request.name, !name.isEmpty { return name }
        guard let components = URLComponents(string: entry.request.url), !components.percentEncodedPath.isEmpty
                || components.percentEncodedQuery != nil else { return entry.request.url }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        return path + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}
