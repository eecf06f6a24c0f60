import Foundation
@testable import CourierHistory

/// A history entry whose request carries a bearer token and a private value in its URL and headers, and
/// whose response sets a cookie: what the history tests record and then look for in every output.
public enum HistorySample {
    public static let token = "s3cr3t-token-VALUE"
    public static let privateValue = "private-env-password-42"

    public static func entry(_ name: String = "getUser", status: Int = 200, date: Date = Date()) -> HistoryEntry {
        HistoryEntry(
            date: date,
            request: .init(method: "GET", url: "https://api.example.com/users/1?api_key=\(privateValue)&q=x", name: name,
                           collectionPath: "demo.http",
                           headers: [.init("Authorization", "Bearer \(token)"), .init("X-Trace", "t-\(privateValue)")]),
            response: .init(status: status, reason: "OK",
                            headers: [.init("Set-Cookie", "session=abcdef"), .init("Content-Type", "application/json")]),
            timing: .init(total: 0.0123, dns: 0.001), cacheDecision: "miss")
    }
}
