import Foundation
import Testing
@testable import CourierWebSocket

/// Decodes every frame `bytes` hold, fed in chunks of `chunk` bytes.
func decodeAll(_ bytes: [UInt8], role: WebSocketRole = .client, chunk: Int = 1,
               maxMessageSize: Int = 1 << 20) throws(WebSocketError) -> [WebSocketIncoming] {
    var reader = MessageReader(role: role, maxMessageSize: maxMessageSize)
    var result: [WebSocketIncoming] = []
    var offset = 0
    while offset < bytes.count {
        let end = min(bytes.count, offset + chunk)
        reader.append(Array(bytes[offset..<end]))
        offset = end
        while let item = try reader.next() { result.append(item) }
    }
    return result
}

/// The close code a byte sequence is rejected with, or nil when it decodes.
func rejection(_ bytes: [UInt8], role: WebSocketRole = .client, maxMessageSize: Int = 1 << 20) -> WebSocketCloseCode? {
    do {
        _ = try decodeAll(bytes, role: role, chunk: 3, maxMessageSize: maxMessageSize)
        return nil
    } catch {
        if case .protocolViolation(let code, _) = error { return code }
        return nil
    }
}

@Suite struct FrameEncoderTests {
    @Test func unmaskedShortTextFrameIsTheExampleFromRFC6455() {
        // Given "Hello" as a single server frame (RFC 6455 section 5.7)
        var bytes: [UInt8] = []
        // When it is encoded without a mask
        FrameEncoder.append(WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)), maskKey: nil, to: &bytes)
        // Then the bytes are those of the RFC's example
        #expect(bytes == [0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f])
    }

    @Test func maskedShortTextFrameIsTheMaskedExampleFromRFC6455() {
        // Given the RFC's mask key 37 fa 21 3d
        var bytes: [UInt8] = []
        // When "Hello" is encoded as a client frame with it
        FrameEncoder.append(WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)),
                            maskKey: [0x37, 0xfa, 0x21, 0x3d], to: &bytes)
        // Then the header has the mask bit and the payload is XORed with the key
        #expect(bytes == [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58])
    }

    @Test func lengthsUseTheSevenSixteenAndSixtyFourBitForms() {
        // Given payloads at each boundary
        func header(_ count: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            FrameEncoder.append(WebSocketFrame(opcode: .binary, payload: [UInt8](repeating: 0, count: count)),
                                maskKey: nil, to: &bytes)
            return Array(bytes.prefix(10))
        }
        // Then 125 fits the 7-bit form, 126 and 65,535 the 16-bit form, 65,536 the 64-bit form
        #expect(Array(header(125).prefix(2)) == [0x82, 125])
        #expect(Array(header(126).prefix(4)) == [0x82, 126, 0x00, 0x7E])
        #expect(Array(header(65_535).prefix(4)) == [0x82, 126, 0xFF, 0xFF])
        #expect(header(65_536) == [0x82, 127, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00])
    }

    @Test func clientMessagesAreMaskedWithAFreshKeyAndRoundTrip() throws {
        // Given a message encoded twice by a client
        var first: [UInt8] = []
        var second: [UInt8] = []
        FrameEncoder.append(.text("same text"), role: .client, to: &first)
        FrameEncoder.append(.text("same text"), role: .client, to: &second)
        // Then both carry the mask bit, their masked bytes differ, and a server decodes both
        #expect(first[1] & 0x80 != 0)
        #expect(first != second)
        #expect(try decodeAll(first, role: .server) == [.message(.text("same text"))])
        #expect(try decodeAll(second, role: .server, chunk: 4) == [.message(.text("same text"))])
    }

    @Test func fragmentedEncodingSplitsIntoContinuationFrames() throws {
        // When a 10-byte binary message is encoded in 4-byte fragments by the server
        var bytes: [UInt8] = []
        FrameEncoder.append(.binary(Data(0..<10)), role: .server, fragmentSize: 4, to: &bytes)
        // Then three frames: binary without FIN, continuation without FIN, continuation with FIN
        #expect(bytes == [0x02, 4, 0, 1, 2, 3, 0x00, 4, 4, 5, 6, 7, 0x80, 2, 8, 9])
        #expect(try decodeAll(bytes) == [.message(.binary(Data(0..<10)))])
    }

    @Test func closeFrameCarriesCodeAndReasonCutToTheControlLimit() {
        // Given a reason far longer than a control frame allows
        let frame = WebSocketFrame.close(code: .goingAway, reason: String(repeating: "é", count: 100))
        // Then the payload is the code in network order and at most 123 bytes of whole characters
        #expect(Array(frame.payload.prefix(2)) == [0x03, 0xE9])
        #expect(frame.payload.count == 124)
        #expect(WebSocketFrame.close(code: .abnormal).payload.isEmpty)
    }
}

@Suite struct FrameDecoderTests {
    @Test func decodesTheRFCExampleFedOneByteAtATime() throws {
        #expect(try decodeAll([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f]) == [.message(.text("Hello"))])
    }

    @Test func decodesSixteenAndSixtyFourBitLengths() throws {
        // Given a 256-byte binary frame (16-bit length) and a 65,536-byte one (64-bit length)
        let short: [UInt8] = [0x82, 0x7E, 0x01, 0x00] + [UInt8](repeating: 7, count: 256)
        let long: [UInt8] = [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0] + [UInt8](repeating: 9, count: 65_536)
        // Then both decode whole, whatever the chunking
        #expect(try decodeAll(short, chunk: 5) == [.message(.binary(Data(repeating: 7, count: 256)))])
        #expect(try decodeAll(long, chunk: 1000) == [.message(.binary(Data(repeating: 9, count: 65_536)))])
    }

    @Test func reassemblesFragmentsWithAPingBetweenThem() throws {
        // Given "Hel" (text, no FIN), a ping "x", then "lo" (continuation, FIN) — RFC 6455 section 5.7
        let bytes: [UInt8] = [0x01, 0x03, 0x48, 0x65, 0x6c, 0x89, 0x01, 0x78, 0x80, 0x02, 0x6c, 0x6f]
        // Then the ping comes out first and the message whole after it
        #expect(try decodeAll(bytes) == [.ping([0x78]), .message(.text("Hello"))])
    }

    @Test func pongAndCloseFramesAreParsed() throws {
        #expect(try decodeAll([0x8A, 0x02, 0x01, 0x02]) == [.pong([1, 2])])
        #expect(try decodeAll([0x88, 0x04, 0x03, 0xE8, 0x6f, 0x6b]) == [.close(code: .normal, reason: "ok")])
        #expect(try decodeAll([0x88, 0x00]) == [.close(code: nil, reason: "")])
    }

    @Test func reservedBitsAreAProtocolError() {
        #expect(rejection([0xC1, 0x01, 0x41]) == .protocolError)  // RSV1
        #expect(rejection([0xA1, 0x01, 0x41]) == .protocolError)  // RSV2
        #expect(rejection([0x91, 0x01, 0x41]) == .protocolError)  // RSV3
    }

    @Test func unknownOpcodesAreAProtocolError() {
        #expect(rejection([0x83, 0x00]) == .protocolError)  // 0x3, reserved data opcode
        #expect(rejection([0x8B, 0x00]) == .protocolError)  // 0xB, reserved control opcode
    }

    @Test func maskedServerFramesAndUnmaskedClientFramesAreRefused() {
        // Given the RFC's masked "Hello" arriving at a client, and the unmasked one arriving at a server
        let masked: [UInt8] = [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58]
        #expect(rejection(masked, role: .client) == .protocolError)
        #expect(rejection([0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f], role: .server) == .protocolError)
        #expect(rejection(masked, role: .server) == nil)
    }

    @Test func controlFramesMustBeShortAndUnfragmented() {
        // A ping announcing 126 bytes, and a ping without FIN
        #expect(rejection([0x89, 0x7E, 0x00, 0x7E] + [UInt8](repeating: 0, count: 126)) == .protocolError)
        #expect(rejection([0x09, 0x00]) == .protocolError)
        #expect(rejection([0x89, 0x7D] + [UInt8](repeating: 0, count: 125)) == nil)
    }

    @Test func continuationRulesAreEnforced() {
        // A continuation with nothing to continue
        #expect(rejection([0x80, 0x01, 0x41]) == .protocolError)
        // A new text frame while a fragmented one is unfinished
        #expect(rejection([0x01, 0x01, 0x41, 0x81, 0x01, 0x42]) == .protocolError)
    }

    @Test func sixtyFourBitLengthWithTheTopBitSetIsRefused() {
        #expect(rejection([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 1]) == .protocolError)
    }

    @Test func oversizedFramesAndMessagesCloseWith1009() {
        // A single 200-byte frame, and 3 fragments of 60 bytes, against a 150-byte limit
        let single: [UInt8] = [0x82, 0x7E, 0x00, 0xC8] + [UInt8](repeating: 0, count: 200)
        let piece = [UInt8](repeating: 0x41, count: 60)
        let fragmented: [UInt8] = [0x01, 60] + piece + [0x00, 60] + piece + [0x80, 60] + piece
        #expect(rejection(single, maxMessageSize: 150) == .messageTooBig)
        #expect(rejection(fragmented, maxMessageSize: 150) == .messageTooBig)
        #expect(rejection(fragmented, maxMessageSize: 180) == nil)
    }

    @Test func invalidUTF8InTextClosesWith1007() {
        #expect(rejection([0x81, 0x02, 0xC3, 0x28]) == .invalidPayload)          // bad continuation byte
        #expect(rejection([0x81, 0x02, 0xC0, 0xAF]) == .invalidPayload)          // overlong "/"
        #expect(rejection([0x81, 0x03, 0xED, 0xA0, 0x80]) == .invalidPayload)    // UTF-16 surrogate
        #expect(rejection([0x81, 0x04, 0xF4, 0x90, 0x80, 0x80]) == .invalidPayload)  // above U+10FFFF
        #expect(rejection([0x81, 0x01, 0xE2]) == .invalidPayload)                // ends mid-sequence
        #expect(rejection([0x82, 0x02, 0xC3, 0x28]) == nil)                      // binary is not checked
    }

    @Test func utf8IsValidatedAcrossFragments() throws {
        // Given "€" (E2 82 AC) split across two fragments: valid
        #expect(try decodeAll([0x01, 0x01, 0xE2, 0x80, 0x02, 0x82, 0xAC]) == [.message(.text("€"))])
        // Given a bad byte in the first fragment: refused before the message finishes
        var reader = MessageReader(role: .client)
        reader.append([0x01, 0x02, 0xE2, 0x28])
        #expect(throws: WebSocketError.protocolViolation(code: .invalidPayload, reason: "text message is not valid UTF-8")) {
            try reader.next()
        }
        // Given a message whose last fragment ends inside a sequence
        #expect(rejection([0x01, 0x01, 0xE2, 0x80, 0x01, 0x82]) == .invalidPayload)
    }

    @Test func closeFramePayloadRulesAreEnforced() {
        #expect(rejection([0x88, 0x01, 0x03]) == .protocolError)                    // 1-byte payload
        #expect(rejection([0x88, 0x02, 0x03, 0xED]) == .protocolError)              // 1005 is local only
        #expect(rejection([0x88, 0x02, 0x03, 0xEE]) == .protocolError)              // 1006 is local only
        #expect(rejection([0x88, 0x02, 0x03, 0xE7]) == .protocolError)              // 999
        #expect(rejection([0x88, 0x03, 0x03, 0xE8, 0xFF]) == .invalidPayload)       // reason not UTF-8
        #expect(rejection([0x88, 0x02, 0x0F, 0xA0]) == nil)                         // 4000, application range
    }
}
