import CourierTestSupport
import Foundation
import Testing

/// `courier grpc` against a real grpcio server with reflection (Tests/Servers/grpc), started once per test
/// process: every call kind, the proto3 JSON mapping both ways (the server decodes what Courier sent and
/// sends it back), statuses, metadata, compression and schemas from .proto files.
@Suite(.enabled(if: CourierCLI.isBuilt, "the courier binary is not built"))
struct GRPCCommandTests {
    static let proto = CourierCLI.packageRoot.appendingPathComponent("Tests/Servers/grpc/courier_test.proto").path

    func grpc(_ arguments: [String], environment: [String: String] = [:]) async throws -> ChildResult {
        let address = try await PythonTestServer.grpc.address()
        var full = arguments
        full.insert(address, at: 1)
        return try await CourierCLI.run(["grpc"] + full, environment: environment)
    }

    @Test func listNamesTheServicesTheServerReflects() async throws {
        // When
        let result = try await grpc(["list"])
        // Then
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").contains("courier.test.Echo"))
    }

    @Test func listWithAServiceNamesItsMethods() async throws {
        let result = try await grpc(["list", "courier.test.Echo", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let methods = result.json?["methods"] as? [String] ?? []
        #expect(methods.contains("courier.test.Echo.Say") && methods.contains("courier.test.Echo.Chat"))
    }

    @Test func aUnaryCallSendsEveryKindOfFieldAndPrintsTheReplyAsProto3JSON() async throws {
        // Given: a request using every mapping rule, which the server decodes and echoes back
        let request = #"""
            {"message": "hi", "big": "9007199254740993", "numbers": [1, 2, 3], "tallies": {"a": 1, "b": 2},
             "mood": "GRUMPY", "blob": "AAEC/w==", "code": 7, "inner": {"label": "x", "child": {"label": "y"}},
             "at": "2024-05-01T12:00:00.250+02:00", "wait": "1.5s", "extra": {"k": [1, "a", null, true], "n": {}},
             "maybe": 0, "mask": "fooBar,baz.quxQuux", "ratio": 0.25, "signed_big": "-5", "note": "",
             "any": {"@type": "type.googleapis.com/courier.test.Inner", "label": "z"},
             "items": [{"label": "one"}, {}]}
            """#
        // When
        let result = try await grpc(["call", "courier.test.Echo/Say", "-d", request, "--json"])
        // Then
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.jsonLines
        #expect(lines.count == 2)
        let echo = (lines.first?["message"] as? [String: Any])?["echo"] as? [String: Any] ?? [:]
        #expect(echo["big"] as? String == "9007199254740993")
        #expect(echo["numbers"] as? [Int] == [1, 2, 3])
        #expect(echo["tallies"] as? [String: Int] == ["a": 1, "b": 2])
        #expect(echo["mood"] as? String == "GRUMPY")
        #expect(echo["blob"] as? String == "AAEC/w==")
        #expect(echo["code"] as? Int == 7)
        #expect(((echo["inner"] as? [String: Any])?["child"] as? [String: Any])?["label"] as? String == "y")
        #expect(echo["at"] as? String == "2024-05-01T10:00:00.250Z")
        #expect(echo["wait"] as? String == "1.500s")
        #expect(echo["maybe"] as? Int == 0, "a wrapper keeps its zero")
        #expect(echo["mask"] as? String == "fooBar,baz.quxQuux")
        #expect(echo["signedBig"] as? String == "-5")
        #expect(echo["note"] as? String == "", "a proto3 optional field keeps its presence")
        #expect((echo["any"] as? [String: Any])?["label"] as? String == "z")
        #expect(result.stdout.contains(#""k":[1,"a",null,true]"#) && result.stdout.contains(#""n":{}"#))
        #expect((echo["items"] as? [[String: Any]])?.count == 2)
        #expect(lines.last?["status"] as? String == "OK")
    }

    @Test func aServerStreamPrintsEachMessageAsItArrives() async throws {
        // When: three replies a second apart
        let address = try await PythonTestServer.grpc.address()
        let child = try CourierCLI.start(["grpc", "call", address, "courier.test.Echo/Count", "-d",
                                          #"{"message": "n", "count": 3, "wait": "1s"}"#, "--json"])
        // Then: the first is printed before the stream ends
        let first = await child.stdout.wait { $0.contains(#""n 1""#) }
        #expect(first)
        let status = await child.finish(limit: .seconds(120))
        #expect(status == 0)
        let lines = child.stdout.text.split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines.last?.contains(#""status":"OK""#) == true)
    }

    @Test func aClientStreamSendsEveryMessageOfData() async throws {
        let result = try await grpc(["call", "courier.test.Echo.Sum", "-d", #"{"count": 2, "message": "a"}"#,
                                     "-d", #"{"count": 5, "message": "b"} {"count": 1, "message": "c"}"#])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""total": "8""#))
        #expect(result.stdout.contains(#""count": 3"#))
    }

    @Test func aBidirectionalStreamAnswersEachMessage() async throws {
        let result = try await grpc(["call", "courier.test.Echo/Chat", "-d", #"{"message":"a"}{"message":"b"}"#,
                                     "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("re: a") && result.stdout.contains("re: b"))
    }

    @Test func invalidArgumentIsReportedWithTheServersMessageAndExitCode1() async throws {
        let result = try await grpc(["call", "courier.test.Echo/Fail", "-d", #"{"message":"bad"}"#])
        #expect(result.status == 1)
        #expect(result.stderr.contains("Error: INVALID_ARGUMENT: message must not be 'bad'"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aMistakeInTheRequestJSONNamesTheFieldAndTheAllowedValues() async throws {
        let unknownEnum = try await grpc(["call", "courier.test.Echo/Say", "-d", #"{"inner": {"mood": 1}}"#])
        #expect(unknownEnum.status == 1)
        #expect(unknownEnum.stderr.contains("$.inner: courier.test.Inner has no field 'mood' (fields: label, child)"),
                "\(unknownEnum.stderr)")
        let badEnum = try await grpc(["call", "courier.test.Echo/Say", "-d", #"{"mood": "SAD"}"#])
        #expect(badEnum.stderr.contains("'SAD' is not a value of courier.test.Mood (values: MOOD_UNSPECIFIED, HAPPY, GRUMPY)"))
        let oneof = try await grpc(["call", "courier.test.Echo/Say", "-d", #"{"name": "a", "code": 1}"#])
        #expect(oneof.stderr.contains("'name' and 'code' are both in oneof choice"), "\(oneof.stderr)")
    }

    @Test func metadataReachesTheServerAndCredentialsAreMaskedInVerboseOutput() async throws {
        let result = try await grpc(["call", "courier.test.Echo/Metadata", "-H", "x-team: blue",
                                     "-H", "authorization: Bearer t0psecret", "-v"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""x-team": "blue""#))
        #expect(!result.stdout.contains("t0psecret"), "the server's echo of the token is masked")
        #expect(result.stdout.contains("REDACTED"))
        #expect(result.stderr.contains("grpc-status: 0"))
    }

    @Test func gzipCompressesRequestsAndReadsCompressedReplies() async throws {
        let result = try await grpc(["call", "courier.test.Echo/Say", "-d", #"{"message":"gzip"}"#, "--gzip", "-v"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""message": "gzip""#))
        #expect(result.stderr.contains("grpc-encoding: gzip"), "the reply came compressed: \(result.stderr)")
    }

    @Test func aReplyOverTheMessageSizeLimitIsRefused() async throws {
        let result = try await grpc(["call", "courier.test.Echo/Say", "-d", #"{"message":"big","count":5000}"#,
                                     "--max-message-size", "1000"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("is over the 1000-byte limit"), "\(result.stderr)")
    }

    @Test func unavailableIsRetriedForAnIdempotentMethodOnly() async throws {
        // Given: a message the server fails with UNAVAILABLE the first time it sees it
        let token = "unavailable-once"
        // When: not idempotent, then idempotent
        let once = try await grpc(["call", "courier.test.Echo/Say", "-d", #"{"message":"\#(token)"}"#, "-v"])
        let again = try await grpc(["call", "courier.test.Echo/Say", "-d", #"{"message":"\#(token)"}"#, "-v",
                                    "--idempotent"])
        // Then: the first was tried once and failed; the second succeeded (the server now answers)
        #expect(once.status == 1)
        #expect(once.stderr.contains("UNAVAILABLE: try again"))
        #expect(!once.stderr.contains("attempt 2"))
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test func retriesStopAtTheirCount() async throws {
        // Given: a message the server always fails with UNAVAILABLE
        let result = try await grpc(["call", "courier.test.Echo/Say", "-d", #"{"message":"unavailable"}"#, "-v",
                                     "--idempotent", "--retry", "2"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("attempt 2"))
        #expect(!result.stderr.contains("attempt 3"))
    }

    @Test func describeWritesAMethodAndATemplateOfItsRequest() async throws {
        let result = try await grpc(["describe", "courier.test.Echo.Count", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect((result.json?["text"] as? String)?.contains("returns (stream courier.test.EchoReply)") == true)
        let template = result.json?["template"] as? [String: Any] ?? [:]
        #expect(template["mood"] as? String == "MOOD_UNSPECIFIED")
        #expect(template["at"] as? String == "1970-01-01T00:00:00Z")
        #expect((template["inner"] as? [String: Any])?["child"] as? [String: Any] == nil
                || ((template["inner"] as? [String: Any])?["child"] as? [String: Any])?.isEmpty == true,
                "a message inside itself stops at {}")
    }

    @Test func protoFilesGiveTheSchemaThroughProtoc() async throws {
        let result = try await grpc(["call", "courier.test.Echo/Say", "--proto", Self.proto, "-d", #"{"message":"p"}"#])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#""message": "p""#))
    }

    @Test func withoutProtocAProtoFileIsAClearError() async throws {
        let result = try await grpc(["call", "courier.test.Echo/Say", "--proto", Self.proto],
                                    environment: ["PATH": "/nonexistent"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("needs protoc, which is not installed: apt-get install protobuf-compiler"),
                "\(result.stderr)")
    }

    @Test func aServerStreamThatNeverEndsStopsAtTheDeadline() async throws {
        let result = try await grpc(["call", "courier.test.Echo/Forever", "--timeout", "1", "--json"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("tick 1"))
        #expect(result.stdout.contains("DEADLINE_EXCEEDED") || result.stderr.contains("timed out"),
                "\(result.stdout.suffix(300)) \(result.stderr)")
    }

    @Test func ctrlCCancelsAStreamThatNeverEnds() async throws {
        let address = try await PythonTestServer.grpc.address()
        let child = try CourierCLI.start(["grpc", "call", address, "courier.test.Echo/Forever", "--json"])
        #expect(await child.stdout.wait { $0.contains("tick 2") })
        child.signal(SIGINT)
        let status = await child.finish(limit: .seconds(60))
        #expect(status == 130)
    }

    @Test func grpcsSpeaksHTTP2OverTLSVerifiedAgainstCacert() async throws {
        // Given: the same server over TLS with a self-signed certificate
        let folder = try TemporaryFolder("grpc-tls")
        let certificate = try await SelfSignedCertificate.make(in: folder.url)
        let server = PythonTestServer(script: "Tests/Servers/grpc/grpc_server.py",
                                      arguments: ["--tls", certificate.certificate.path, certificate.key.path],
                                      imports: "grpc")
        let port = try await server.port()
        defer { Task { await server.stop() } }
        // When: trusted with --cacert, and not trusted
        let trusted = try await CourierCLI.run(["grpc", "call", "grpcs://127.0.0.1:\(port)", "courier.test.Echo/Say",
                                                "-d", #"{"message":"tls"}"#, "--cacert", certificate.certificate.path])
        let untrusted = try await CourierCLI.run(["grpc", "list", "grpcs://127.0.0.1:\(port)"])
        // Then
        #expect(trusted.status == 0, "\(trusted.stderr)")
        #expect(trusted.stdout.contains(#""message": "tls""#))
        #expect(untrusted.status == 1)
        #expect(untrusted.stderr.contains("TLS"), "\(untrusted.stderr)")
    }
}
