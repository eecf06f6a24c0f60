import CourierTestSupport
import Foundation
import Testing

/// libcurl is loaded by the commands that send and by nothing else: `--version`, `check` and the other
/// commands that never make a request do not pay for loading it and the thirty libraries it brings. Nor for
/// libcrypto, loaded by what hashes, signs or draws random bytes (and by libcurl, for TLS). Likewise ncursesw
/// (and libtinfo with it) is loaded by the explorer when it draws, libyaml by the first YAML read, zlib by the
/// first gzip gRPC message (or with libcurl, which uses it too).
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
        // nor any other library loaded on first use: before `main` only libc, libm and libgcc_s
        for library in ["libncursesw", "libtinfo", "libyaml", "libz.so"] {
            #expect(!version.stderr.contains(library), "\(library)")
        }
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
        // and nothing of the explorer's curses or of the YAML reader
        #expect(!result.stderr.contains("libncursesw"), "\(result.stderr.prefix(2000))")
        #expect(!result.stderr.contains("libtinfo"))
        #expect(!result.stderr.contains("libyaml"))
    }

    @Test func aYAMLDescriptionLoadsLibyamlWhenItIsReadAndImports() async throws {
        // Given an OpenAPI description in YAML
        let folder = try TemporaryFolder("yaml-loading")
        let description = folder.url.appendingPathComponent("api.yaml")
        let yaml = """
            openapi: 3.0.3
            info: {title: Items, version: "1"}
            servers: [{url: "http://127.0.0.1:9"}]
            paths:
              /items:
                get: {operationId: listItems, responses: {"200": {description: ok}}}
            """
        try Data(yaml.utf8).write(to: description)
        // When it is imported
        let output = folder.url.appendingPathComponent("out")
        let result = try await CourierCLI.run(["import", "openapi", description.path, "-o", output.path],
                                              environment: Self.loaderTrace)
        // Then libyaml was loaded for it, the request came out of it, and curses stayed unloaded
        #expect(result.status == 0, "\(result.stderr.suffix(2000))")
        #expect(result.stderr.contains("libyaml-0.so.2"))
        #expect(!result.stderr.contains("libncursesw"))
        let files = try FileManager.default.subpathsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".http") }
        let text = try files.map { try String(contentsOf: output.appendingPathComponent($0), encoding: .utf8) }.joined()
        #expect(text.contains("/items"), "\(files)")
    }
}
