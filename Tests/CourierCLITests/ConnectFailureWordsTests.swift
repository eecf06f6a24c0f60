import CourierTestSupport
import Foundation
import Testing

/// A failed connection says where to look: nothing listening on the port, a name that does not resolve, no
/// route. Each is its own kind in `--json`, its own words on standard error and its own exit status.
@Suite("Connect failures by reaction")
struct ConnectFailureWordsTests {
    /// Whether a child can be given a network namespace of its own (root and util-linux's unshare): inside,
    /// even the loopback interface is down, so 127.0.0.1 has no route and no packet leaves the process.
    static let canUnshareNetwork = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")

    @Test func aClosedPortSaysNothingListensThereIsRetriedAndExitsSeven() async throws {
        // Given a port on 127.0.0.1 nothing listens on
        let port = LoopbackSocket.closedPort()

        // When courier sends a GET there, as text and as JSON
        let text = try await CourierCLI.run(["send", "http://127.0.0.1:\(port)/users"])
        let json = try await CourierCLI.run(["send", "--json", "http://127.0.0.1:\(port)/users"])

        // Then the words name the port, the kind is connectionRefused, three attempts were made, and the exit is 7
        #expect(text.stderr.contains("Error: nothing listens on 127.0.0.1:\(port) [connectionRefused]"), "\(text.stderr)")
        #expect(!text.stderr.contains("offline"))
        #expect(text.status == 7)
        let object = try CourierCLI.json(json.stdout)
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["kind"] as? String == "connectionRefused")
        #expect(error["message"] as? String == "nothing listens on 127.0.0.1:\(port)")
        #expect((object["attempts"] as? [Any])?.count == 3)
        #expect(json.status == 7)
    }

    @Test func aNameThatDoesNotResolveSaysSoIsSentOnceAndExitsSix() async throws {
        // When courier sends to a name under .invalid, which never resolves (RFC 6761)
        let result = try await CourierCLI.run(["send", "--json", "http://courier-test.invalid/users"])

        // Then it cannot resolve the name, does not retry (and says why), and exits 6
        let object = try CourierCLI.json(result.stdout)
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["kind"] as? String == "dnsFailure")
        #expect(error["message"] as? String == "cannot resolve courier-test.invalid")
        let attempts = try #require(object["attempts"] as? [[String: Any]])
        #expect(attempts.count == 1)
        #expect((attempts.first?["retry_declined"] as? String)?.hasPrefix("dnsFailure is not retried") == true)
        #expect(result.status == 6)
    }

    @Test(.enabled(if: canUnshareNetwork, "needs root and unshare for a network namespace without routes"))
    func noRouteToTheAddressIsUnreachableAndExitsEight() async throws {
        // Given courier in a network namespace of its own, where no interface is up
        let unshare = URL(fileURLWithPath: "/usr/bin/unshare")
        let arguments = ["-n", CourierCLI.executable.path, "send", "--json", "--retry", "0", "http://127.0.0.1:9/"]

        // When it sends
        let result = try await ChildProcess.run(unshare, arguments, environment: CourierCLI.baseEnvironment)

        // Then there is no route: kind unreachable, words that point at the network, exit 8
        let object = try CourierCLI.json(result.stdout)
        let error = try #require(object["error"] as? [String: Any], "\(result.stdout)\(result.stderr)")
        #expect(error["kind"] as? String == "unreachable")
        #expect(error["message"] as? String
                == "no route to 127.0.0.1:9: the network is unreachable (is this machine offline?)")
        #expect(result.status == 8)
    }

    @Test func aRunWhoseRequestsAllFindNothingListeningExitsSevenAndMixedFailuresExitOne() async throws {
        // Given a file of two requests to a closed port, and one whose second request goes to a name that
        // does not resolve
        let port = LoopbackSocket.closedPort()
        let folder = try TemporaryFolder("connect-failure-run")
        let closed = "# @max-attempts 1\nGET http://127.0.0.1:\(port)/a\n\n###\n# @max-attempts 1\n"
        let same = try folder.write("same.http", closed + "GET http://127.0.0.1:\(port)/b\n")
        let mixed = try folder.write("mixed.http", closed + "GET http://courier-test.invalid/b\n")

        // When each runs
        let sameResult = try await CourierCLI.run(["run", same.path])
        let mixedResult = try await CourierCLI.run(["run", mixed.path])

        // Then the run of like failures ends with their number, the mixed one with 1
        #expect(sameResult.status == 7, "\(sameResult.stdout)\(sameResult.stderr)")
        #expect(sameResult.stdout.contains("Error: nothing listens on 127.0.0.1:\(port) [connectionRefused]"))
        #expect(mixedResult.status == 1)
        #expect(mixedResult.stdout.contains("Error: cannot resolve courier-test.invalid [dnsFailure]"))
    }

    @Test func theHelpListsTheExitCodes() async throws {
        // When the help of send is printed
        let result = try await CourierCLI.run(["send", "--help"])

        // Then every code is there with the kind it stands for
        for line in ["  7   nothing listens on the port (connectionRefused)", "  6   the host name does not resolve (dnsFailure)",
                     "  8   no route to the host (is this machine offline?) (unreachable)", "  28  timed out (timedOut)",
                     "  35  TLS: a certificate or handshake failure (tls)"] {
            #expect(result.stdout.contains(line), "\(line)")
        }
    }
}
