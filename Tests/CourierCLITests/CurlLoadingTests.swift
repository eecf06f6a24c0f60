import CourierTestSupport
import Foundation
import Testing

/// libcurl is loaded by the commands that send and by nothing else: `--version`, `check` and the other
/// commands that never make a request do not pay for loading it and the thirty libraries it brings. Nor for
/// libcrypto, loaded by what hashes, signs or draws random bytes (and by libcurl, for TLS).
/// The dynamic loader says which libraries it opens when `LD_DEBUG=libs` is set (on standard error).
@Suite struct CurlLoadingTests {
    static let loaderTrace = ["LD_DEBUG": "libs"]

    @Test func aCommandThatSendsNothingNeverLoadsLibcurlNorLibcrypto() async throws {
        // Given a request file
        let folder = try TemporaryFolder("curl-loading")
        let file = folder.url.appendingPathComponent("api.http")
        try Data("GET http://127.0.0.1:9/items\n".utf8).write(to: file)
        // When `courier --version` and `courier check` run
        let version = try await CourierCLI.run(["--version"], environment: Self.loaderTrace)
        let check = try await CourierCLI.run(["check", file.path], environment: Self.loaderTrace)
        // Then both work and neither opened libcurl or libcrypto
        #expect(version.status == 0 && version.stdout.hasPrefix("courier "))
        #expect(check.status == 0, "\(check.stderr)")
        #expect(!version.stderr.contains("libcurl.so"), "\(version.stderr.prefix(2000))")
        #expect(!check.stderr.contains("libcurl.so"))
        #expect(!version.stderr.contains("libcrypto.so"), "\(version.stderr.prefix(2000))")
        #expect(!check.stderr.contains("libcrypto.so"))
        // (the trace is there: the loader did report the libraries it did open)
        #expect(version.stderr.contains("libc.so"))
    }

    @Test func sendLoadsLibcurlAndTheResponseArrives() async throws {
        // Given a loopback server
        let server = try LoopbackServer { _ in LoopbackServer.Reply(body: Data("loaded".utf8)) }
        defer { server.stop() }
        // When `courier send` runs
        let result = try await CourierCLI.run(["send", server.url("/x").absoluteString], environment: Self.loaderTrace)
        // Then it loaded libcurl and the answer arrived
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        #expect(result.stderr.contains("libcurl.so.4"))
        #expect(result.stdout.contains("loaded"))
        #expect(server.requestCount(path: "/x") == 1)
    }
}
