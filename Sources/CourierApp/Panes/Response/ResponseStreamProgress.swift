import CourierBody

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

    /// "Receiving 12.0 MB of 50.0 MB · 8.0 MB/s · Ctrl-C stops", naming the key that stops it.
    public func text(stopKey: String) -> String {
        var parts = ["Receiving \(MediaKind.formatSize(receivedBytes))"]
        if let expected = expectedBytes { parts[0] += " of \(MediaKind.formatSize(expected))" }
        if bytesPerSecond > 0 { parts.append("\(MediaKind.formatSize(Int(bytesPerSecond)))/s") }
        parts.append("\(stopKey) stops")
        return parts.joined(separator: " · ")
    }
}
