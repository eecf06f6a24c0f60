import CCrypto
import Foundation

/// The demo's OAuth 2.0 state: authorization codes waiting for their token request, and device codes
/// waiting for the user (the demo approves one once its page is opened, or by itself after a few seconds,
/// so a terminal alone can finish the flow).
struct DemoOAuthStore {
    struct Code { let challenge: String?; let redirect: String; let client: String }
    struct Device { let userCode: String; let client: String; let created: Date; var approved: Bool; var polls: Int }

    /// Seconds after which a device code approves itself.
    static let selfApproval: TimeInterval = 4

    private var codes: [String: Code] = [:]
    private var devices: [String: Device] = [:]

    mutating func issueCode(challenge: String?, redirect: String, client: String) -> String {
        let code = Self.random("code")
        codes[code] = Code(challenge: challenge, redirect: redirect, client: client)
        return code
    }

    /// The code's record, once: a code is good for one token request, with the verifier of its challenge.
    mutating func redeem(_ code: String, verifier: String?, redirect: String?) -> Code? {
        guard let found = codes.removeValue(forKey: code), redirect == found.redirect else { return nil }
        if let challenge = found.challenge { guard let verifier, Self.s256(verifier) == challenge else { return nil } }
        return found
    }

    mutating func issueDevice(client: String, now: Date) -> (deviceCode: String, userCode: String) {
        let deviceCode = Self.random("dc")
        let letters = Array("BCDFGHJKLMNPQRSTVWXZ")
        let userCode = String((0..<4).map { _ in letters.randomElement()! }) + "-"
            + String((0..<4).map { _ in letters.randomElement()! })
        devices[deviceCode] = Device(userCode: userCode, client: client, created: now, approved: false, polls: 0)
        return (deviceCode, userCode)
    }

    /// Approves the device code the user typed; false when none has it.
    mutating func approve(userCode: String) -> Bool {
        guard let key = devices.first(where: { $0.value.userCode == userCode.uppercased() })?.key else { return false }
        devices[key]?.approved = true
        return true
    }

    /// What a poll gets: the client's user once approved, else why it must wait (RFC 8628 section 3.5).
    enum Poll { case approved(client: String), pending, slowDown, unknown }

    mutating func poll(_ deviceCode: String, now: Date) -> Poll {
        guard var device = devices[deviceCode] else { return .unknown }
        device.polls += 1
        if now.timeIntervalSince(device.created) >= Self.selfApproval { device.approved = true }
        devices[deviceCode] = device
        if device.approved {
            devices[deviceCode] = nil
            return .approved(client: device.client)
        }
        return device.polls == 1 ? .slowDown : .pending
    }

    /// `BASE64URL(SHA256(verifier))`.
    static func s256(_ verifier: String) -> String {
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        let bytes = Array(verifier.utf8)
        _ = SHA256(bytes, bytes.count, &digest)
        return Data(digest).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    private static func random(_ prefix: String) -> String {
        prefix + "_" + (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined()
    }
}
