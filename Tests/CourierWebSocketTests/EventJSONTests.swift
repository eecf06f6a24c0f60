import CourierHTTP
import CourierMessage
import Foundation
import Testing
@testable import CourierWebSocket

@Suite struct EventJSONTests {
    static let url = URL(string: "ws://127.0.0.1:1/ws/echo")!
    static let time = Date(timeIntervalSince1970: 1_764_440_000.25)

    @Test func messagesCarryDirectionTextOrBase64SizeAndTime() {
        let text = WebSocketEvent.message(WebSocketMessageEvent(direction: .incoming,
                                                                message: .text("say \"hi\"\n\u{1B}[31m"), time: Self.time))
        #expect(text.jsonLine
                == #"{"type":"message","dir":"in","text":"say \"hi\"\n\u001b[31m","size":14,"time":"2025-11-29T18:13:20.250Z"}"#)
        let binary = WebSocketEvent.message(WebSocketMessageEvent(direction: .outgoing, message: .binary(Data([0, 255])),
                                                                  time: Self.time, isSubscription: true))
        #expect(binary.jsonLine
                == #"{"type":"message","dir":"out","base64":"AP8=","size":2,"time":"2025-11-29T18:13:20.250Z","subscription":true}"#)
    }

    @Test func stateEventsHaveStableShapes() {
        #expect(WebSocketEvent.connected(url: Self.url, protocol: nil).jsonLine
                == #"{"type":"open","url":"ws://127.0.0.1:1/ws/echo","protocol":null}"#)
        #expect(WebSocketEvent.closed(WebSocketCloseInfo(code: .goingAway, reason: "bye", byUser: true, wasClean: true)).jsonLine
                == #"{"type":"close","code":1001,"reason":"bye","clean":true,"by_user":true}"#)
        #expect(WebSocketEvent.reconnecting(delay: 1.5, attempt: 3).jsonLine
                == #"{"type":"reconnecting","in":1.500,"attempt":3}"#)
        #expect(WebSocketEvent.pong(roundTrip: 0.0012).jsonLine == #"{"type":"pong","rtt_ms":1.200}"#)
        #expect(WebSocketEvent.error(.handshakeRejected(status: 403, headers: HTTPHeaders(), body: Data("no".utf8))).jsonLine
                == #"{"type":"error","kind":"handshakeRejected","message":"the server refused the upgrade with HTTP 403: no","status":403}"#)
    }

    @Test func everyLineIsValidJSON() throws {
        let events: [WebSocketEvent] = [
            .connecting(url: Self.url, attempt: 1), .ping(time: Self.time),
            .message(WebSocketMessageEvent(direction: .incoming, message: .text("\u{0}\u{7F}é😀"), time: Self.time)),
            .error(.connectionLost(message: "tab\there")),
        ]
        for event in events {
            #expect(try JSONSerialization.jsonObject(with: Data(event.jsonLine.utf8)) is [String: Any])
        }
    }
}
