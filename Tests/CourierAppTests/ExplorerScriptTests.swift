import CourierApp
import CourierCollections
import CourierHTTP
import CourierScript
import CourierTerminal
import Foundation
import Testing

/// The explorer runs a request's scripts in the send task, keeps their globals for the session and shows
/// their tests in the Response pane's status line and the Log pane.
@Suite("scripts in the explorer", .serialized)
struct ExplorerScriptTests {
    @Test func aHandlerTokenIsSentByTheNextRequestAndTheTestsAreShown() async throws {
        // Given a file whose login handler stores a token and declares a passing and a failing test
        let harness = try RunnerHarness()
        defer { harness.stop() }
        let file = harness.folder.appendingPathComponent("auth.http")
        try Data("""
            # @name login
            POST {{base}}/auth/login

            > {%
                client.global.set("token", response.body.access_token);
                client.test("login ok", () => client.assert(response.status === 200, "status " + response.status));
                client.test("long lived", () => client.assert(response.body.expires_in > 3600, "expires in 60 s"));
            %}

            ###
            # @name me
            GET {{base}}/me
            Authorization: Bearer {{token}}

            """.utf8).write(to: file)
        harness.runner.perform([.loadCollection(path: file.path)])
        let collection = try #require(await harness.waitFor {
            if case .collectionLoaded(let collection) = $0 { collection } else { nil }
        })
        let login = RequestRef(file: collection.files[0].path, index: 0)
        // When login is sent
        harness.runner.perform([.send(generation: 1, job: SendJob(ref: login, draft: try #require(collection.request(login)),
                                                                  environment: nil))])
        let (id, report) = try #require(await harness.waitFor {
            if case .scriptsRan(let id, let report) = $0 { (id, report) } else { nil }
        })
        // Then the tests come back, the Response pane's status line and the Log pane say so
        #expect(report.testSummary == "1 test passed, 1 failed")
        #expect(report.tests.map(\.message) == ["", "expires in 60 s"])
        let pane = try #require(await harness.waitFor {
            if case .responsePaneReady(1, let pane) = $0 { pane } else { nil }
        })
        #expect(pane.info.tests == "1 test passed, 1 failed")
        #expect(pane.info.testsFailed)
        var log = LogPaneState(timeZone: TimeZone(identifier: "UTC")!)
        for action in harness.actions() {
            if case .clientEvent(let event) = action { log.apply(event, now: Date()) }
        }
        log.recordScripts(report, for: id)
        var buffer = Buffer(size: Size(width: 100, height: 6))
        LogPaneView.render(log, RenderContext(focused: true, area: buffer.area), into: &buffer)
        let screen = buffer.text
        #expect(screen.contains("✗ 1 test passed, 1 failed"), "\(screen)")
        let detail = log.detailLines(try #require(log.attempts.last), theme: .dark).map(\.plainText)
        #expect(detail.contains("  ✓ login ok"))
        #expect(detail.contains("  ✗ long lived: expires in 60 s"))

        // When `me` is sent next in the same session
        let me = RequestRef(file: collection.files[0].path, index: 1)
        harness.runner.perform([.send(generation: 2, job: SendJob(ref: me, draft: try #require(collection.request(me)),
                                                                  environment: nil))])
        let answered = try #require(await harness.waitFor {
            if case .responsePaneReady(2, let pane) = $0 { pane } else { nil }
        })
        // Then the global the handler set went out as its bearer token
        #expect(answered.info.status == 200)
        let sent = try #require(harness.server.log.first { $0.path == "/me" })
        #expect(sent.header("Authorization")?.hasPrefix("Bearer at_") == true)
    }

    @Test func aHandlerThatLoopsForeverIsStoppedOffTheUIThread() async throws {
        let harness = try RunnerHarness()
        defer { harness.stop() }
        let file = harness.folder.appendingPathComponent("loop.http")
        try Data("""
            # @script-timeout 0.3
            GET {{base}}/users

            > {% while (true) {} %}
            """.utf8).write(to: file)
        harness.runner.perform([.loadCollection(path: file.path)])
        let collection = try #require(await harness.waitFor {
            if case .collectionLoaded(let collection) = $0 { collection } else { nil }
        })
        let ref = RequestRef(file: collection.files[0].path, index: 0)
        // perform returns at once: the script runs in the send task
        harness.runner.perform([.send(generation: 1, job: SendJob(ref: ref, draft: try #require(collection.request(ref)),
                                                                  environment: nil))])
        let report = try #require(await harness.waitFor {
            if case .scriptsRan(_, let report) = $0 { report } else { nil }
        })
        guard case .timeLimit = report.error?.reason else {
            Issue.record("expected a time limit, got \(String(describing: report.error))")
            return
        }
        let pane = try #require(await harness.waitFor {
            if case .responsePaneReady(1, let pane) = $0 { pane } else { nil }
        })
        #expect(pane.info.tests?.contains("script stopped after its time limit of 0.3 s") == true)
    }

    @Test func aPreRequestScriptThatThrowsFailsTheSendWithItsLineAndNothingIsSent() async throws {
        let harness = try RunnerHarness()
        defer { harness.stop() }
        let file = harness.folder.appendingPathComponent("pre.http")
        try Data("""
            < {%
                request.variables.set("id", missing.value);
            %}
            GET {{base}}/users/{{id}}
            """.utf8).write(to: file)
        harness.runner.perform([.loadCollection(path: file.path)])
        let collection = try #require(await harness.waitFor {
            if case .collectionLoaded(let collection) = $0 { collection } else { nil }
        })
        let ref = RequestRef(file: collection.files[0].path, index: 0)
        harness.runner.perform([.send(generation: 1, job: SendJob(ref: ref, draft: try #require(collection.request(ref)),
                                                                  environment: nil))])
        let failure = try #require(await harness.waitFor {
            if case .sendFailed(1, let failure) = $0 { failure } else { nil }
        })
        #expect(failure.kind == .script)
        #expect(failure.message.hasPrefix("\(file.path):2: ReferenceError"), "\(failure.message)")
        #expect(harness.server.log.isEmpty)
    }
}
