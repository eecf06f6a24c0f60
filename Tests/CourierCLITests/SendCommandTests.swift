import CourierTestSupport
import CourierDemo
import Foundation
import Synchronization
import Testing
@testable import CourierHTTP

/// `courier send` as a user runs it: the built binary against the demo server.
@Suite(.serialized) struct SendCommandTests {
    let server: DemoServer

    init() throws { server = try DemoServer.start() }

    func url(_ path: String) -> String { server.baseURL.absoluteString + path }

    @Test func helpIsGeneratedFromTheOptionTable() async throws {
        defer { server.stop() }
        let result = try await CourierCLI.run(["send", "--help"])
        #expect(result.status == 0)
        // The sections in order, a label too long for its column on a line of its own, and what the table
        // adds to the help (default, allowed words, repetition), including short names that used to be hidden.
        #expect(result.stdout.hasPrefix("OVERVIEW: Send one request, curl/HTTPie style, and show its retries and "
                                        + "timing.\n\nUSAGE: courier send [METHOD] URL [ITEM ...] [options]\n\nARGUMENTS:\n"))
        #expect(result.stdout.contains("\n  -H, --header 'Name: value'\n                          Add a request "
                                       + "header (repeatable).\n"))
        #expect(result.stdout.contains("\n  --retry N               Retries after the first attempt; 0 disables "
                                       + "(default: 2).\n"))
        #expect(result.stdout.contains("\n  -k, --insecure          Do not verify the server's TLS certificate.\n"))
        #expect(result.stdout.contains("\n                          default, revalidate, reload, only-if-cached or bypass).\n"))
        #expect(result.stdout.hasSuffix("\n  -h, --help              Show this help.\n\nEXIT CODES:\n  0   a status below 400\n"
                                        + "  1   a status of 400 or more, or a failure without a number of its own\n"
                                        + "  2   a usage error\n  6   the host name does not resolve (dnsFailure)\n"
                                        + "  7   nothing listens on the port (connectionRefused)\n"
                                        + "  8   no route to the host (is this machine offline?) (unreachable)\n"
                                        + "  28  timed out (timedOut)\n  35  TLS: a certificate or handshake failure (tls)\n"))
    }

    @Test func aGetPrintsStatusHeadersPrettyJSONAndOneAttemptLine() async throws {
        defer { server.stop() }
        let result = try await CourierCLI.run(["send", url("/users/1"), "--timing"])
        let lines = result.stdout.components(separatedBy: "\n")
        #expect(result.status == 0)
        #expect(lines.first == "HTTP/1.1 200 OK")
        #expect(lines.contains { $0.hasPrefix("Content-Type: application/json") })
        #expect(lines.contains("  \"id\": 1,"))
        #expect(lines.contains { $0.hasPrefix("attempt 1  200  ") })
        #expect(lines.contains { $0.hasPrefix("DNS lookup") })
        #expect(lines.contains { $0.hasPrefix("Total") })
    }

    @Test func flakyShowsItsRetriesWithDelaysAndTimingsInJSON() async throws {
        defer { server.stop() }
        let result = try await CourierCLI.run(["send", url("/flaky?key=cli-json"), "--json"])
        let object = try CourierCLI.json(result.stdout)
        let attempts = object["attempts"] as? [[String: Any]] ?? []
        #expect(result.status == 0)
        #expect(object["status"] as? Int == 200)
        #expect(object["cache"] as? String == "bypass")
        #expect(object["error"] is NSNull)
        #expect(attempts.map { $0["status"] as? Int } == [503, 503, 200])
        #expect(attempts.map { $0["delay_s"] as? Double } == [1.0, 1.0, nil])
        #expect((attempts.first?["reason"] as? String)?.contains("Retry-After 1 s") == true)
        #expect(attempts.map { $0["reused_connection"] as? Bool } == [false, true, true])
        let timing = attempts.first?["timing"] as? [String: Any] ?? [:]
        #expect(Set(timing.keys) == ["dns_ms", "connect_ms", "tls_ms", "ttfb_ms", "total_ms"])
        #expect((object["headers"] as? [[String]])?.isEmpty == false)
    }

    @Test func aPostToFlakyMakesOneAttemptAndExitsOne() async throws {
        defer { server.stop() }
        let result = try await CourierCLI.run(["send", "POST", url("/flaky?key=cli-post"), "--json"])
        let object = try CourierCLI.json(result.stdout)
        #expect(result.status == 1)
        #expect(object["status"] as? Int == 503)
        #expect((object["attempts"] as? [Any])?.count == 1)
        #expect(server.requestCount(path: "/flaky") == 1)
    }

    @Test func verboseLogsEachAttemptToStandardErrorWithoutSecrets() async throws {
        defer { server.stop() }
        let result = try await CourierCLI.run(["send", url("/flaky?key=cli-verbose"), "-v",
                                                   "-H", "Authorization: Bearer hunter2", "-H", "Accept: application/json"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("→ GET \(url("/flaky?key=REDACTED")) attempt 1"), "\(result.stderr)")
        #expect(result.stderr.contains("\n> Accept: application/json\n"))
        #expect(result.stderr.contains("\n> Authorization: Bearer REDACTED\n"))
        #expect(result.stderr.contains("↻ retry after attempt 1 in 1.00 s: HTTP 503, Retry-After 1 s"))
        #expect(result.stderr.contains("← 200 attempt 3"))
        #expect(!result.stderr.contains("hunter2"))
    }

    @Test func anErrorStatusExitsOne() async throws {
        defer { server.stop() }
        let result = try await CourierCLI.run(["send", url("/status/404")])
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("HTTP/1.1 404"))
        #expect(result.stdout.contains("[http]"))
        let json = try CourierCLI.json(try await CourierCLI.run(["send", url("/status/404"), "--json"]).stdout)
        #expect((json["error"] as? [String: Any])?["kind"] as? String == "http")
        #expect(json["status"] as? Int == 404)
    }

    @Test func theTimeoutEndsASlowRequestAsTimedOut() async throws {
        defer { server.stop() }
        let result = try await CourierCLI.run(["send", url("/slow?ms=20000"), "--timeout", "0.3", "--json"])
        let object = try CourierCLI.json(result.stdout)
        #expect(result.status == 28)
        #expect(object["status"] is NSNull)
        #expect((object["error"] as? [String: Any])?["kind"] as? String == "timedOut")
        #expect(server.requestCount(path: "/slow") == 1)
    }

    @Test func ctrlCCancelsTheRequestAndTheServerSeesItClosed() async throws {
        defer { server.stop() }
        let server = self.server
        let result = try await CourierCLI.run(["send", url("/slow?ms=20000")]) { process in
            _ = await LoopbackServer.eventually { server.requestCount(path: "/slow") == 1 }
            process.signal(SIGINT)
        }
        #expect(result.status == 1)
        #expect(result.stderr.contains("[cancelled]"))
        #expect(await LoopbackServer.eventually { server.abortedCount(path: "/slow") == 1 })
    }

    @Test func aSendWaitsWithOneThreadBesidesTheTransportsAndCtrlCStillCancels() async throws {
        defer { server.stop() }
        let server = self.server
        let seen = SeenThreads()
        // Given a send waiting for a slow answer
        let result = try await CourierCLI.run(["send", url("/slow?ms=20000")]) { process in
            _ = await LoopbackServer.eventually { server.requestCount(path: "/slow") == 1 }
            // Then the process runs two threads: main, which waits and watches Ctrl-C, and the transport's loop,
            // which sends (no pool thread, no thread for Ctrl-C)
            let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/task")
            seen.count.withLock { $0 = tasks?.count ?? 0 }
            process.signal(SIGINT)
        }
        #expect(seen.count.withLock { $0 } == 2)
        // And Ctrl-C still cancels the request
        #expect(result.status == 1)
        #expect(result.stderr.contains("[cancelled]"))
        #expect(await LoopbackServer.eventually { server.abortedCount(path: "/slow") == 1 })
    }

    /// The threads a child process was seen running.
    final class SeenThreads: Sendable {
        let count = Mutex(0)
    }

    @Test func aStoppedServerIsARefusedConnection() async throws {
        let closed = url("/users")
        server.stop()
        let result = try await CourierCLI.run(["send", closed, "--retry", "0", "--json"])
        let object = try CourierCLI.json(result.stdout)
        #expect(result.status == 7)
        #expect((object["error"] as? [String: Any])?["kind"] as? String == "connectionRefused")
        #expect((object["attempts"] as? [Any])?.count == 1)
    }

    @Test(arguments: [
        (["send"], "Error: missing URL; try: courier send https://example.com/users"),
        (["send", "http://x.test", "--bogus"], "Error: unknown option '--bogus'"),
        (["send", "http://x.test", "--retry", "many"], "Error: --retry takes a non-negative number, not 'many'"),
        (["send", "http://x.test", "-H", "NoColon"], "Error: -H takes 'Name: value', not 'NoColon'"),
        (["send", "http://x.test", "--cache-mode", "sometimes"], "Error: --cache-mode takes one of"),
    ])
    func usageErrorsExitTwoAndSayWhatToType(arguments: [String], message: String) async throws {
        defer { server.stop() }
        let result = try await CourierCLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message))
        #expect(result.stderr.contains("Help:  courier send --help"))
    }

    @Test func withACacheDirectoryTheSecondRequestIsAFreshHitThatNeverReachesTheServer() async throws {
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try CourierCLI.json(try await CourierCLI.run(["send", url("/etag"), "--cache-dir", folder.path,
                                                                          "--json"]).stdout)
        let second = try CourierCLI.json(try await CourierCLI.run(["send", url("/etag"), "--cache-dir", folder.path,
                                                                           "--json"]).stdout)
        #expect(first["cache"] as? String == "miss")
        #expect(second["cache"] as? String == "fresh")
        #expect((second["attempts"] as? [Any])?.isEmpty == true)
        #expect(second["status"] as? Int == 200)
        // and it says how old the stored answer is and how long it stays fresh
        #expect((second["age_s"] as? Int).map { $0 >= 0 } == true)
        #expect((second["ttl_s"] as? Int).map { $0 > 0 } == true)
        #expect(server.requestCount(path: "/etag") == 1)
    }

    @Test func withoutCacheFlagsTheCacheIsBypassed() async throws {
        defer { server.stop() }
        let result = try CourierCLI.json(try await CourierCLI.run(["send", url("/etag"), "--json"]).stdout)
        #expect(result["cache"] as? String == "bypass")
    }

    @Test func aBodyFromAFileIsSentAndTheAnswerSavedWithDashO() async throws {
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("body.json")
        let output = folder.appendingPathComponent("answer.json")
        try Data(#"{"name":"Ada"}"#.utf8).write(to: input)
        let result = try await CourierCLI.run(["send", "PUT", url("/echo"), "-d", "@\(input.path)", "--json-body",
                                                   "-o", output.path])
        #expect(result.status == 0)
        #expect(result.stdout.contains("written to \(output.path)"))
        let echoed = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        #expect(echoed.contains("PUT"))
        #expect(echoed.contains("Ada"))
    }
}

/// `-o` into something that is not a regular file: it is written into, never replaced. Renaming the
/// finished body over `/dev/null` once turned the machine's `/dev/null` into a plain file.
@Suite struct SendCommandSpecialOutputTests {
    @Test func dashOIntoAPipeWritesThroughItAndLeavesThePipeInPlace() async throws {
        // Given a named pipe with a reader waiting on it
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-fifo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pipe = folder.appendingPathComponent("out")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        // A reader in a child of its own: were courier to replace the pipe instead of writing into it, the
        // reader would wait to open it forever; its limit kills it and the test fails instead of hanging.
        let reader = try ChildProcess(URL(fileURLWithPath: "/bin/cat"), [pipe.path])
        defer { reader.signalGroup(SIGKILL) }
        // When a body larger than the spill threshold is saved with -o into it
        let result = try await CourierCLI.run(["send", server.baseURL.absoluteString + "/large?mb=1", "-o", pipe.path],
                                              limit: .seconds(60))
        let readerStatus = await reader.finish(limit: .seconds(120))
        let received = reader.stdout.data
        // Then the reader got the whole body and the pipe is still a pipe, with nothing left beside it
        #expect(result.status == 0, "\(result.stderr)")
        #expect(readerStatus == 0, "the reader never saw the writer close the pipe")
        #expect(received.count >= 1 << 20)
        var info = stat()
        #expect(stat(pipe.path, &info) == 0)
        #expect((info.st_mode & S_IFMT) == S_IFIFO)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out"])
    }
}

/// Secrets in response headers, against a loopback server that sets them.
@Suite struct SendCommandSecretTests {
    @Test func cookiesAndTokensAreRedactedUnlessShowSecrets() async throws {
        let server = try LoopbackServer { _ in
            LoopbackServer.Reply(status: 200, headers: [("Set-Cookie", "session=s3cr3t"), ("X-Auth-Token", "t0k3n")],
                                 body: Data("ok".utf8))
        }
        defer { server.stop() }
        let hidden = try await CourierCLI.run(["send", server.url("/").absoluteString])
        #expect(hidden.stdout.contains("Set-Cookie: REDACTED"))
        #expect(!hidden.stdout.contains("s3cr3t"))
        #expect(!hidden.stdout.contains("t0k3n"))
        let hiddenJSON = try await CourierCLI.run(["send", server.url("/").absoluteString, "--json"])
        #expect(!hiddenJSON.stdout.contains("s3cr3t"))
        let shown = try await CourierCLI.run(["send", server.url("/").absoluteString, "--show-secrets"])
        #expect(shown.stdout.contains("Set-Cookie: session=s3cr3t"))
        #expect(shown.stdout.contains("X-Auth-Token: t0k3n"))
    }
}

/// `courier --version`: the version a bug report quotes, also sent in the default User-Agent.
@Suite struct VersionCommandTests {
    @Test("courier --version, -V and version print the version and exit 0")
    func versionIsPrinted() async throws {
        for flag in ["--version", "-V", "version"] {
            // When the user asks for the version
            let result = try await CourierCLI.run([flag])
            // Then it is printed alone, with success
            #expect(result.status == 0, "\(flag)")
            #expect(result.stdout == "courier \(CourierVersion.current)\n", "\(flag)")
        }
    }

    @Test("the default User-Agent names Courier and its version")
    func userAgentCarriesTheVersion() {
        #expect(CurlTransport.Configuration().userAgent == "courier/\(CourierVersion.current)")
    }
}
