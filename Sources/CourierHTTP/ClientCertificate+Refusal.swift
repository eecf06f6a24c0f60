extension ClientCertificate {
    /// Fragments of curl's message when the server ended the TLS handshake because no client certificate
    /// (or none it accepts) was presented. Under TLS 1.3 the alert arrives after the handshake, as a receive
    /// error that would otherwise pass for a dropped connection (and be retried, or reconnected).
    static let refusals: [String] = [
        "alert certificate required", "alert bad certificate", "alert unknown ca", "alert certificate unknown",
    ]

    /// What to tell the user when curl's `message` says the server refused the connection over its client
    /// certificate: that one is required and none was `presented`, or that the one presented was refused.
    /// Nil for any other failure. Used by HTTP transfers and WebSocket handshakes alike.
    public static func refusal(_ message: String, presented: ClientCertificate?) -> String? {
        guard refusals.contains(where: { message.contains($0) }) else { return nil }
        let what = presented.map { "refused the client certificate \($0)" }
            ?? "requires a client certificate and none was presented (--cert, or the environment's SSLConfiguration)"
        return "the server \(what) (\(message))"
    }
}
