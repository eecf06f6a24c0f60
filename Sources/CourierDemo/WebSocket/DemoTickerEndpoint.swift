import CourierWebSocket
import Foundation

/// `/ws/ticker?rate=N`: after `{"subscribe":"SYM"}` (or a list of symbols) the server pushes JSON
/// ticks for every subscribed symbol N times a second; `rate=0` or `rate=max` sends as fast as the
/// socket takes them (for the benchmark). `{"unsubscribe":"SYM"}` stops a symbol; `size=N` pads each
/// tick to N bytes. Anything else is answered with an error message and ignored.
struct DemoTickerEndpoint {
    /// Ticks per symbol per second; nil floods.
    let rate: Double?
    /// Pads each tick to this many bytes when set.
    let size: Int?
    private var symbols: [String] = []
    private var sequence = 0
    /// Ticks built per write when flooding, so the benchmark is not bound by syscalls.
    private static let floodBatch = 256

    init(request: DemoRequest) {
        let rateText = request.queryValue("rate") ?? "1"
        if rateText == "max" { rate = nil } else if let value = Double(rateText), value > 0 { rate = min(value, 100_000) } else {
            rate = rateText == "0" ? nil : 1
        }
        size = request.queryValue("size").flatMap(Int.init).map { min(max($0, 0), 1 << 16) }
    }

    /// Serves until the client leaves or closes, or until `until` passes (the chaos endpoint's drop).
    /// Returns true when it stopped because the deadline passed.
    mutating func serve(_ peer: DemoWebSocketPeer, until deadline: Date? = nil) -> Bool {
        var nextTick = Date()
        while true {
            if let deadline, Date() >= deadline { return true }
            var waitMs: Int32 = 100
            if !symbols.isEmpty {
                waitMs = rate == nil ? 0 : Int32(max(0, nextTick.timeIntervalSinceNow * 1000).rounded(.up))
            }
            if let deadline { waitMs = min(waitMs, Int32(max(0, deadline.timeIntervalSinceNow * 1000))) }
            switch peer.read(timeoutMs: waitMs) {
            case .ended: return false
            case .idle: break
            case .incoming(let items):
                for item in items {
                    switch item {
                    case .message(let message): handleCommand(message, peer: peer)
                    case .ping(let payload): peer.send(control: WebSocketFrame(opcode: .pong, payload: payload))
                    case .pong: continue
                    case .close(let code, let reason):
                        peer.sendClose(code: code, reason: reason)
                        return false
                    }
                }
                if peer.isFinished { return false }
            }
            guard !symbols.isEmpty else { continue }
            if let rate {
                guard Date() >= nextTick else { continue }
                nextTick = max(nextTick.addingTimeInterval(1 / rate), Date().addingTimeInterval(-1))
                var bytes: [UInt8] = []
                for symbol in symbols { appendTick(symbol, to: &bytes) }
                guard peer.write(bytes) else { return false }
            } else {
                var bytes: [UInt8] = []
                bytes.reserveCapacity(Self.floodBatch * ((size ?? 80) + 4))
                for index in 0..<Self.floodBatch { appendTick(symbols[index % symbols.count], to: &bytes) }
                guard peer.write(bytes) else { return false }
            }
        }
    }

    private mutating func handleCommand(_ message: WebSocketMessage, peer: DemoWebSocketPeer) {
        guard case .text(let text) = message,
              let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            peer.send(.text(#"{"type":"error","message":"send {\"subscribe\":\"SYM\"} or {\"unsubscribe\":\"SYM\"}"}"#))
            return
        }
        for symbol in Self.symbols(object["subscribe"]) where !symbols.contains(symbol) {
            symbols.append(symbol)
            peer.send(.text(#"{"type":"subscribed","symbol":"\#(symbol)"}"#))
        }
        for symbol in Self.symbols(object["unsubscribe"]) {
            symbols.removeAll { $0 == symbol }
            peer.send(.text(#"{"type":"unsubscribed","symbol":"\#(symbol)"}"#))
        }
    }

    /// Symbols from a string or a list of strings, limited to safe characters.
    private static func symbols(_ value: Any?) -> [String] {
        let list: [String] = (value as? String).map { [$0] } ?? (value as? [String]) ?? []
        return list.map { String($0.uppercased().filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }.prefix(12)) }
            .filter { !$0.isEmpty }
    }

    /// One tick: a deterministic price walk so that runs can be compared.
    private mutating func appendTick(_ symbol: String, to bytes: inout [UInt8]) {
        sequence += 1
        let cents = 10_000 + (sequence * 7_919) % 5_000
        let price = "\(cents / 100).\(String(format: "%02d", cents % 100))"
        var text = #"{"type":"tick","symbol":"\#(symbol)","seq":\#(sequence),"price":\#(price)"#
        if let size, size > text.utf8.count + 10 {
            text += #","pad":""# + String(repeating: "x", count: size - text.utf8.count - 10) + "\""
        }
        text += "}"
        FrameEncoder.append(.text(text), role: .server, to: &bytes)
    }
}
