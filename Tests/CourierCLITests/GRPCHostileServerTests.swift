import CourierTestSupport
import Foundation
import Testing

/// `courier grpc` against a server that misbehaves on purpose (Tests/Servers/grpc/hostile_server.py, raw
/// HTTP/2): every answer ends in bounded time with a clear error, never a hang or a huge allocation.
@Suite(.enabled(if: CourierCLI.isBuilt, "the courier binary is not built"))
struct GRPCHostileServerTests {
    func grpc(_ arguments: [String]) async throws -> ChildResult {
        let address = try await PythonTestServer.hostileGRPC.address()
        var full = arguments
        full.insert(address, at: 1)
        return try await CourierCLI.run(["grpc"] + full, limit: .seconds(120))
    }

    @Test func reflectionWhoseFilesImportEachOtherEndsAndDescribesBoth() async throws {
        // When: a.proto imports b.proto, which imports a.proto; A holds a B, which holds an A
        let list = try await grpc(["list"])
        let message = try await grpc(["describe", "hostile.A"])
        // Then
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout == "hostile.Cycle\n")
        #expect(message.status == 0, "\(message.stderr)")
        #expect(message.stdout.contains("hostile.B b = 1;"))
        #expect(message.stdout.contains(#""a": {}"#), "the template stops where A recurs")
    }

    @Test func messagesOfTypesThatContainEachOtherGoBothWays() async throws {
        let result = try await grpc(["call", "hostile.Cycle/Call", "-d", #"{"b": {"a": {"label": "x"}}}"#, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix(#"{"message":{"b":{"a":{"label":"x"}}}}"#))
    }

    @Test func aLengthPrefixOf4GBIsRefusedAtOnce() async throws {
        let result = try await grpc(["call", "hostile.Cycle/Huge"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("a message of 4294967295 bytes is over the 4194304-byte limit"),
                "\(result.stderr)")
    }

    @Test func aStreamThatEndsInsideAMessageIsATruncatedFrame() async throws {
        let result = try await grpc(["call", "hostile.Cycle/Truncated"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("the stream ended inside a message: 10 of 100 bytes arrived"), "\(result.stderr)")
    }

    @Test func aReplyNestedDeeperThanTheLimitIsRefused() async throws {
        let result = try await grpc(["call", "hostile.Cycle/Deep"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("nested more than 100 levels deep"), "\(result.stderr)")
    }
}
