import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// `courier run` against a server that sets a new cookie on every response (a load balancer's stickiness
/// cookie): the jar is not synced to disk after each one, yet holds the last value once the run ends.
@Suite struct CookieJarRunSavingTests {
    @Test func aCookieSetOnEveryResponseIsSavedWithItsLastValueWhenTheRunEnds() async throws {
        // Given a server whose every response sets `lb` to the next number
        let served = Atomic(0)
        let server = try LoopbackServer { _ in
            let count = served.add(1, ordering: .relaxed).newValue
            return LoopbackServer.Reply(headers: [("Set-Cookie", "lb=n\(count); Path=/")], body: Data("ok".utf8))
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("cookie-run")
        let requests = (0..<40).map { "### r\($0)\nGET \(server.url("/item").absoluteString)\n" }.joined(separator: "\n")
        try Data(requests.utf8).write(to: folder.url.appendingPathComponent("many.http"))
        // When the 40 requests run
        let run = try await CourierCLI.run(["run", "many.http", "--quiet"], in: folder.url,
                                           environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path])
        #expect(run.status == 0, "\(run.stderr)")
        // Then the jar on disk holds the cookie the last response set
        let jar = folder.url.appendingPathComponent("state/courier/cookies/default.json")
        let saved = try String(contentsOf: jar, encoding: .utf8)
        #expect(saved.contains("\"n40\""), "\(saved)")
    }
}
