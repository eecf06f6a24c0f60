import CourierHTTP
import CourierMessage
import Foundation
import Testing
@testable import CourierWebSocket

/// One encoder reused over a whole stream (as `courier ws --json` uses it) writes exactly the lines
/// `jsonLine` writes event by event: the cached second never leaks into the next one.
@Suite struct EventJSONEncoderTests {
    static let url = URL(string: "ws://127.0.0.1:1/ws/echo")!

    static func message(_ text: String, at seconds: Double, direction: WebSocketMessageEvent.Direction = .incoming)
        -> WebSocketEvent {
        .message(WebSocketMessageEvent(direction: direction, message: .text(text),
                                       time: Date(timeIntervalSince1970: seconds)))
    }

    @Test func aReusedEncoderWritesTheSameLinesAsJSONLineAcrossSecondsDaysAndBackwardsClocks() {
        // Given messages within one second, across a second, a minute, a day and a year, and a clock
        // that goes back, with state events in between
        let times = [1_764_440_000.25, 1_764_440_000.875, 1_764_440_001.0, 1_764_440_059.5, 1_764_440_060.125,
                     1_767_225_599.875, 1_767_225_600.0, 1_764_440_000.5, 0.0, 253_402_300_799.5]
        var events: [WebSocketEvent] = [.connecting(url: Self.url, attempt: 1), .connected(url: Self.url, protocol: "chat")]
        for (index, time) in times.enumerated() {
            events.append(Self.message("tick \(index) \"q\" \\ \u{1}\u{7F} é 😀", at: time,
                                       direction: index.isMultiple(of: 3) ? .outgoing : .incoming))
        }
        events += [.ping(time: Date()), .pong(roundTrip: 0.0042), .reconnecting(delay: 2, attempt: -3),
                   .closed(WebSocketCloseInfo(code: .normal, reason: "done\n", wasClean: true,
                                              error: .connectionLost(message: "gone"))),
                   .error(.handshakeRejected(status: 401, headers: HTTPHeaders(), body: Data()))]
        // When one encoder writes them all into one buffer, one line each
        var encoder = WebSocketEventJSONEncoder()
        var buffer: [UInt8] = Array("already there\n".utf8)
        for event in events {
            encoder.append(event, to: &buffer)
            buffer.append(10)
        }
        // Then every line is what jsonLine gives for the event alone, and what was in the buffer stays
        let expected = "already there\n" + events.map { $0.jsonLine + "\n" }.joined()
        #expect(String(decoding: buffer, as: UTF8.self) == expected)
        #expect(expected.contains(#""time":"2025-12-31T23:59:59.875Z""#))
        #expect(expected.contains(#""time":"2026-01-01T00:00:00.000Z""#))
        #expect(expected.contains(#""time":"1970-01-01T00:00:00.000Z""#))
        #expect(expected.contains(#""time":"9999-12-31T23:59:59.500Z""#))
        #expect(expected.contains(#""attempt":-3"#))
    }

    @Test func numbersAndTimestampsAreWrittenDigitByDigit() {
        let event = Self.message("x", at: 1_764_440_000.0625)
        #expect(event.jsonLine == #"{"type":"message","dir":"in","text":"x","size":1,"time":"2025-11-29T18:13:20.062Z"}"#)
        #expect(WebSocketEvent.connecting(url: Self.url, attempt: 0).jsonLine
                == #"{"type":"connecting","url":"ws://127.0.0.1:1/ws/echo","attempt":0}"#)
        #expect(WebSocketEvent.closed(WebSocketCloseInfo(code: .init(rawValue: 4999))).jsonLine
                == #"{"type":"close","code":4999,"reason":"","clean":false,"by_user":false}"#)
    }
}
