import CourierTestSupport
import Foundation
import Testing

@Suite("courier serve-demo")
struct ServeDemoCommandTests {
    @Test func helpDescribesTheOptions() async throws {
        try #require(CourierCLI.isBuilt)
        let result = try await CourierCLI.run(["serve-demo", "--help"])
        #expect(result.status == 0)
        #expect(result.stdout == """
        OVERVIEW: Run the embedded demo HTTP server alone.

        Serves the demo API (/users, /auth/login, /etag, /events, /chaos/*, /ws/echo, …) on a loopback
        address until interrupted. GET / lists every endpoint.

        USAGE: courier serve-demo [options]

        OPTIONS:
          -p, --port N            TCP port to listen on (default: 0, any free port).
          --host H                IPv4 address to bind. Other addresses expose the demo server to the network
                                  (default: 127.0.0.1).
          -h, --help              Show this help.

        """)
    }

    @Test func badArgumentsAreUsageErrorsWithAHint() async throws {
        try #require(CourierCLI.isBuilt)
        let port = try await CourierCLI.run(["serve-demo", "--port", "http"])
        #expect(port.status == 2)
        #expect(port.stderr == "Error: --port takes a number from 0 to 65535, not 'http'\nHelp:  courier serve-demo --help\n")
        let unknown = try await CourierCLI.run(["serve-demo", "--verbose"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("Error: unknown option '--verbose'"))
        let host = try await CourierCLI.run(["serve-demo", "--host", "example.com"])
        #expect(host.status == 1)
        #expect(host.stderr.contains("not an IPv4 address: example.com"))
    }

    @Test func itPrintsTheBaseURLServesAndStopsOnSIGTERM() async throws {
        try #require(CourierCLI.isBuilt)
        // Given `courier serve-demo` on any free port
        let server = try CourierCLI.start(["serve-demo"])
        defer { server.signalGroup(SIGKILL) }
        // When its first line names the URL
        #expect(await server.stdout.wait { $0.contains("\n") })
        let line = server.stdout.text.split(separator: "\n").first.map(String.init) ?? ""
        #expect(line.hasPrefix("Courier demo server listening on http://127.0.0.1:"))
        let port = try #require(UInt16(line.split(separator: ":").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))
        // Then the demo API answers there
        let fetched = try await CourierCLI.run(["send", "http://127.0.0.1:\(port)/users/1"])
        #expect(fetched.status == 0)
        #expect(fetched.stdout.hasPrefix("HTTP/1.1 200"))
        // And SIGTERM ends it with exit code 0
        server.signal(SIGTERM)
        #expect(await server.finish() == 0)
    }
}
