@testable import CourierGRPC
import CourierHTTP
import Foundation
import Testing

/// gRPC's 5-byte framing and gzip messages, in any chunking, bounded.
struct FramingTests {
    @Test func framesSplitAtEveryByteDecodeTheSame() throws {
        // Given: three messages, one empty and one compressed-flagged
        let messages: [[UInt8]] = [[1, 2, 3], [], Array(repeating: 9, count: 300)]
        var wire = Data()
        for (index, message) in messages.enumerated() { wire.append(GRPCFraming.frame(message, compressed: index == 2)) }
        for split in 0...wire.count {
            // When
            var decoder = GRPCFrameDecoder(limit: 1000)
            let frames = try decoder.append(wire.prefix(split)) + decoder.append(wire.dropFirst(split))
            // Then
            #expect(frames.map(\.payload) == messages)
            #expect(frames.map(\.compressed) == [false, false, true])
            try decoder.finish()
        }
    }

    @Test func aFourGigabytePrefixIsRefusedFromItsFiveBytes() {
        var decoder = GRPCFrameDecoder(limit: 4 << 20)
        #expect(throws: GRPCError.messageTooLarge(size: 0xFFFF_FFFF, limit: 4 << 20)) {
            try decoder.append([0, 0xFF, 0xFF, 0xFF, 0xFF])
        }
    }

    @Test func aStreamEndingInsideAFrameIsTruncated() throws {
        var inPrefix = GRPCFrameDecoder(limit: 100)
        _ = try inPrefix.append([0, 0, 0])
        #expect(throws: GRPCError.truncatedFrame(received: 3, expected: 5)) { try inPrefix.finish() }
        var inBody = GRPCFrameDecoder(limit: 100)
        _ = try inBody.append([0, 0, 0, 0, 10, 1, 2])
        #expect(throws: GRPCError.truncatedFrame(received: 2, expected: 10)) { try inBody.finish() }
    }

    @Test func aFlagByteOtherThanZeroOrOneIsMalformed() {
        var decoder = GRPCFrameDecoder(limit: 100)
        #expect(throws: GRPCError.self) { try decoder.append([2, 0, 0, 0, 0]) }
    }

    @Test func gzipRoundTripsAndAnInflationPastTheLimitStops() throws {
        let message = [UInt8]("hello gzip ".utf8) + [UInt8](repeating: 0, count: 1 << 20)
        let compressed = try GzipCodec.compress(message)
        #expect(compressed.count < 10_000)
        #expect(try GzipCodec.decompress(compressed, limit: 2 << 20) == message)
        #expect(throws: GRPCError.messageTooLarge(size: 1001, limit: 1000)) {
            try GzipCodec.decompress(compressed, limit: 1000)
        }
        #expect(throws: GRPCError.self) { try GzipCodec.decompress([1, 2, 3, 4], limit: 1000) }
    }

    @Test func timeoutsAreWrittenAsGRPCWantsThem() {
        #expect(GRPCCall.timeoutHeader(.seconds(1.5)) == "1500m")
        #expect(GRPCCall.timeoutHeader(.milliseconds(0)) == "1m")
        #expect(GRPCCall.timeoutHeader(.seconds(200_000)) == "200000S")
    }

    @Test func statusesComeFromTrailersPercentDecoded() throws {
        let status = try #require(GRPCStatus(fields: ["grpc-status": "3", "grpc-message": "bad%20name%3A%20%C3%A9"]))
        #expect(status.code == .invalidArgument)
        #expect(status.description == "INVALID_ARGUMENT: bad name: é")
        #expect(GRPCStatus(fields: ["grpc-status": "99"])?.code == .unknown)
        #expect(GRPCStatus(fields: [:]) == nil)
    }

    @Test func statusesBecomeTheErrorsTheCallerActsOn() {
        #expect(GRPCStatus(code: .unavailable).apiError?.kind == .connectionLost)
        #expect(GRPCStatus(code: .deadlineExceeded).apiError?.kind == .timedOut)
        #expect(GRPCStatus(code: .unauthenticated).apiError?.kind == .unauthorized)
        #expect(GRPCStatus(code: .cancelled).apiError?.kind == .cancelled)
        guard case .http(let status, _, let message)? = GRPCStatus(code: .invalidArgument, message: "no").apiError else {
            Issue.record("INVALID_ARGUMENT is an http error")
            return
        }
        #expect(status == 400)
        #expect(message == "INVALID_ARGUMENT: no")
        #expect(GRPCStatus(code: .ok).apiError == nil)
    }

    @Test func theRetryPolicyRetriesOnlyWhatMayAnswerNextTime() {
        let policy = GRPCRetryPolicy.standard
        #expect(policy.retryReason(status: GRPCStatus(code: .unavailable), error: nil, idempotent: true) == "UNAVAILABLE")
        #expect(policy.retryReason(status: GRPCStatus(code: .unavailable), error: nil, idempotent: false) == nil)
        #expect(policy.retryReason(status: GRPCStatus(code: .invalidArgument), error: nil, idempotent: true) == nil)
        let refused = ConnectFailure(reason: .refused, host: "127.0.0.1", port: 1, underlying: "refused")
        #expect(policy.retryReason(status: nil, error: .transport(.cannotConnect(refused)), idempotent: false) != nil)
        let unresolved = ConnectFailure(reason: .unresolved, host: "nowhere.invalid", port: 1, underlying: "no name")
        #expect(policy.retryReason(status: nil, error: .transport(.cannotConnect(unresolved)), idempotent: true) == nil)
        #expect(policy.retryReason(status: nil, error: .transport(.tls(underlying: "x")), idempotent: true) == nil)
    }

    @Test(arguments: ["localhost:50051", "http://localhost:50051", "grpc://localhost:50051/"])
    func plainTargetsSpeakClearText(_ text: String) throws {
        let target = try GRPCTarget(text)
        #expect(!target.usesTLS)
        #expect(target.url(path: "/a.B/C").absoluteString == "http://localhost:50051/a.B/C")
    }

    @Test func grpcsAndHTTPSTargetsUseTLS() throws {
        #expect(try GRPCTarget("grpcs://api.example:443").url(path: "/a.B/C").absoluteString == "https://api.example:443/a.B/C")
        #expect(try GRPCTarget("https://api.example").usesTLS)
        #expect(throws: GRPCError.self) { try GRPCTarget("localhost:1/extra/path") }
        #expect(throws: GRPCError.self) { try GRPCTarget("") }
    }
}
