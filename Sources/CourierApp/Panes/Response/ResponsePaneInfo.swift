import CourierBody
import Foundation

/// What the response pane shows above the body: plain values the app fills from an `HTTPResponse`
/// (kept free of CourierHTTP types so the pane can also show a history entry).
public struct ResponsePaneInfo: Sendable, Hashable {
    public var status: Int
    public var reason: String
    /// Total time in seconds, when measured.
    public var duration: Double?
    /// The cache decision's raw value (`fresh`, `miss`, …), coloured by `Theme.cache`.
    public var cacheDecision: String?
    public var headers: [HistoryEntry.Header]
    /// "3 tests passed, 1 failed" when the request's response handlers declared tests.
    public var tests: String?
    /// Whether any of those tests failed (or a handler stopped on an error).
    public var testsFailed = false
    /// The body's size on the wire before a Content-Encoding was decoded; 0 when unknown or not encoded.
    public var wireBytes: Int

    /// Creates the value from its parts.
    public init(status: Int, reason: String, duration: Double? = nil, cacheDecision: String? = nil,
                headers: [HistoryEntry.Header] = [], wireBytes: Int = 0) {
        self.status = status
        self.reason = reason
        self.duration = duration
        self.cacheDecision = cacheDecision
        self.headers = headers
        self.wireBytes = wireBytes
    }

    /// `200 OK`, or just `200` when the server sent no reason phrase (HTTP/2 and HTTP/3 have none).
    public var statusText: String { reason.isEmpty ? "\(status)" : "\(status) \(reason)" }

    /// The Content-Type header's value.
    public var contentType: String? {
        headers.first { $0.name.lowercased() == "content-type" }?.value
    }
}

/// A body still arriving: what the progress line says.
public struct ResponseStreamProgress: Sendable, Hashable {
    public var receivedBytes: Int
    /// From Content-Length, when the server sent one.
    public var expectedBytes: Int?
    /// Bytes per second over the transfer so far.
    public var bytesPerSecond: Double

    /// Creates the value from its parts.
    public init(receivedBytes: Int, expectedBytes: Int? = nil, bytesPerSecond: Double = 0) {
        self.receivedBytes = receivedBytes
        self.expectedBytes = expectedBytes
        self.bytesPerSecond = bytesPerSecond
    }

    /// "Receiving 12.0 MB of 50.0 MB · 8.0 MB/s · Ctrl-C stops".
    public var text: String {
        var parts = ["Receiving \(MediaKind.formatSize(receivedBytes))"]
        if let expected = expectedBytes { parts[0] += " of \(MediaKind.formatSize(expected))" }
        if bytesPerSecond > 0 { parts.append("\(MediaKind.formatSize(Int(bytesPerSecond)))/s") }
        parts.append("Ctrl-C stops")
        return parts.joined(separator: " · ")
    }
}

/// The prompt open at the bottom of the pane.
public struct ResponsePanePrompt: Sendable, Hashable {
    /// The kinds of this value.
    public enum Kind: Sendable, Hashable { case search, filter, goToLine }
    public var kind: Kind
    public var text: String

    /// The prompt's leading label.
    public var label: String {
        switch kind {
        case .search: "/"
        case .filter: "JSONPath: "
        case .goToLine: "Line: "
        }
    }
}
