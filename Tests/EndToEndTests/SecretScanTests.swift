import CourierTestSupport
import Foundation
import Testing

/// The done-when of issue #33's masking items: distinct secrets planted in a collection (a Bearer header, URL
/// user info, an `access_token` query, X-Api-Key, a private environment value, a script's secret global, a
/// cookie, a cookie from the jar) are sent by `courier run` (text, `--json`, `--report junit`, the cache), by
/// `courier send` on the same URLs, checked by `courier check` and sent by the explorer (history), to a
/// loopback server that echoes everything back and redirects with user info. Every output and every file
/// Courier wrote (cache entries with their inline bodies decoded, history, jars, the report, `>>` outputs)
/// is then scanned for every secret, raw, base64 and percent-encoded.
@Suite(.serialized, .enabled(if: Reliability.hasCourier, "the courier binary is not built"))
struct SecretScanTests {
    @Test("No output and no file Courier writes holds a secret a request sent, whichever way it was sent")
    func everyWriterMasksTheRequestsSecrets() async throws {
        // Given the echoing server and the collection that sends every kind of secret
        let sandbox = try SecretScanSandbox()
        defer { sandbox.remove() }
        let secrets = sandbox.secrets
        let plain = sandbox.base()
        let userInfo = sandbox.base(withUserInfo: true)
        let echo = "\(userInfo)/echo?access_token=\(secrets.accessToken)&page=1"
        let headers = ["-H", "X-Api-Key: \(secrets.apiKey)", "-H", "Cookie: session=\(secrets.cookie)"]
        let bearer = ["-H", "Authorization: Bearer \(secrets.bearer)"]
        let report = sandbox.root.appendingPathComponent("report.xml").path
        let runs: [[String]] = [
            ["run", "api.http", "--env", "dev"],
            ["run", "api.http", "--env", "dev", "--json"],
            ["run", "api.http", "--env", "dev", "--report", "junit", report],
            ["run", "api.http", "--env", "dev", "--cache-mode", "default"],
            ["check", "api.http", "--env", "dev"],
            ["send"] + headers + [echo],
            ["send", "--json"] + headers + [echo],
            ["send", "-v", "--timing", "--cache-mode", "default"] + headers + [echo],
            ["send", "POST"] + bearer + ["-d", #"{"sent": "\#(secrets.bearer)"}"#, "\(plain)/echo"],
            ["send", "--json", "POST"] + bearer + ["-d", #"{"sent": "\#(secrets.bearer)"}"#, "\(plain)/echo"],
            ["send", "\(userInfo)/redirect"],
            ["send", "--json", "--cache-mode", "default", "\(userInfo)/redirect"],
        ]
        var findings: [String] = []

        // When each command runs in the collection's folder
        for arguments in runs {
            let result = try await Reliability.runCourier(arguments, environment: sandbox.environment,
                                                          in: sandbox.project)
            #expect(result.status != 2 && result.status != -1, "\(arguments): \(result.stderrText)")
            findings += sandbox.findings(in: result.stdout, label: "stdout of \(arguments.prefix(3))")
            findings += sandbox.findings(in: result.stderr, label: "stderr of \(arguments.prefix(3))")
            if arguments.starts(with: ["send", "-v"]) {
                // The cache kept no copy of the echo, and said why
                #expect(result.stdoutText.contains("cache: not-stored: the response echoes a credential the request sent"),
                        "\(result.stdoutText)")
            }
        }

        // And the explorer sends the echo request, which history keeps
        if Reliability.hasTmux {
            let exports = sandbox.environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
            let session = try await ReliabilityTmux(command: "cd '\(sandbox.project.path)' && \(exports) "
                + "TERM=tmux-256color '\(Reliability.courier.path)' api.http --env dev", width: 160, height: 48)
            defer { session.kill() }
            #expect(await session.open("echo", steps: 0), "\(session.lastScreen)")
            await session.send("Enter")
            #expect(await session.waitFor("200 OK"), "\(session.lastScreen)")
            // The Response pane and below (the Request pane above shows the file as written, to edit it)
            let screen = await session.screen()
            let response = screen.range(of: "3 Response").map { String(screen[$0.lowerBound...]) } ?? screen
            findings += sandbox.findings(in: Data(response.utf8), label: "explorer's Response and Log panes")
            await session.send("q")
            #expect(await session.waitForExit(), "q did not end the explorer: \(session.lastScreen)")
            // Whose every command finds and prints nothing secret: `history search SECRET` finds no entry
            var history: [[String]] = [["history"], ["history", "--json"]]
            history += secrets.named.map { ["history", "search", "--json", $0.value] }
            for arguments in history {
                let result = try await Reliability.runCourier(arguments, environment: sandbox.environment)
                findings += sandbox.findings(in: result.stdout, label: "stdout of \(arguments.prefix(3))")
                if arguments.contains("search") {
                    #expect(result.stdoutText.isEmpty, "\(arguments) found \(result.stdoutText)")
                }
            }
            let listed = try await Reliability.runCourier(["history", "--json"], environment: sandbox.environment)
            #expect(!listed.stdoutText.isEmpty, "the explorer kept no history: the scan proves nothing")
        }

        // Then the server received every secret
        let received = sandbox.server.requests
        let basic = "Basic " + Data("\(secrets.user):\(secrets.password)".utf8).base64EncodedString()
        #expect(received.contains { $0.headers["authorization"] == basic }, "no Basic credentials reached the server")
        #expect(received.contains { $0.headers["authorization"] == "Bearer \(secrets.bearer)" })
        #expect(received.contains { $0.query.contains("access_token=\(secrets.accessToken)") })
        #expect(received.contains { $0.headers["x-api-key"] == secrets.apiKey })
        #expect(received.contains { $0.headers["x-note"] == secrets.privateValue })
        #expect(received.contains { $0.headers["x-upstream"] == secrets.global })
        #expect(received.contains { $0.headers["cookie"]?.contains("sid=\(secrets.jarCookie)") == true })

        // And no file Courier wrote holds one (the jar keeps the cookie it sends again, and only that)
        let written = sandbox.writtenFiles()
        for file in written {
            let allowed: Set<String> = file.path.contains("/cookies/") ? ["jar cookie"] : []
            findings += sandbox.findings(in: file.data, label: file.path, allowed: allowed)
        }
        for folder in ["/cache/", "/out/", "report.xml"] {
            #expect(written.contains { $0.path.contains(folder) }, "nothing written in \(folder): the scan proves nothing")
        }
        let leaks = findings.joined(separator: "\n")
        #expect(findings.isEmpty, "\(findings.count) leaks:\n\(leaks)")
    }

    @Test("--show-secrets prints the echoed secrets and writes them to the >> output, so the scan can see them")
    func showSecretsKeepsThem() async throws {
        // Given the same sandbox
        let sandbox = try SecretScanSandbox()
        defer { sandbox.remove() }

        // When the bearer request runs with --show-secrets
        let result = try await Reliability.runCourier(["run", "api.http", "--env", "dev", "--name", "bearer",
                                                       "--show-secrets"],
                                                      environment: sandbox.environment, in: sandbox.project)

        // Then its output and its >> file hold the token and the private value
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.contains("Bearer \(sandbox.secrets.bearer)"), "\(result.stdoutText)")
        let saved = try Data(contentsOf: sandbox.project.appendingPathComponent("out/bearer.json"))
        #expect(!sandbox.findings(in: saved, label: "").isEmpty, "\(String(decoding: saved, as: UTF8.self))")
        #expect(String(decoding: saved, as: UTF8.self).contains(sandbox.secrets.privateValue))
    }

    @Test("Cache files are 0600 in a 0700 folder and never hard-linked to the -o output, fresh or served")
    func cacheBodiesAreNotTheUsersOutputFile() async throws {
        // Given a server whose 400 KB body may be cached (a body that size arrives in a file, and is stored
        // in one), and a temporary folder that is the output's folder (where a cached body is handed out)
        let sandbox = try SecretScanSandbox()
        defer { sandbox.remove() }
        let url = sandbox.base() + "/big"
        let environment = sandbox.environment.merging(["TMPDIR": sandbox.project.path]) { $1 }

        // When it is fetched into a file twice, the second time from the cache
        for name in ["first.bin", "second.bin"] {
            let result = try await Reliability.runCourier(["send", "--cache-mode", "default", "-o", name, url],
                                                          environment: environment, in: sandbox.project)
            #expect(result.status == 0, "\(result.stderrText)")
        }
        #expect(sandbox.server.requestCount(path: "/big") == 1, "the second fetch was not served by the cache")

        // Then each output is a file of its own, and the cache's files are private and linked nowhere else
        let cache = sandbox.root.appendingPathComponent("cache/courier/http")
        let cached = Reliability.files(under: cache)
        #expect(cached.contains { $0.pathExtension == "body" }, "\(cached)")
        for file in cached {
            let info = try Self.status(file.path)
            #expect(info.st_mode & 0o777 == 0o600, "\(file.path) is \(String(info.st_mode & 0o777, radix: 8))")
            #expect(info.st_nlink == 1, "\(file.path) has \(info.st_nlink) links")
        }
        #expect(try Self.status(cache.path).st_mode & 0o777 == 0o700)
        for name in ["first.bin", "second.bin"] {
            let output = try Self.status(sandbox.project.appendingPathComponent(name).path)
            #expect(output.st_nlink == 1, "\(name) has \(output.st_nlink) links")
            #expect(output.st_size == 400_000)
        }
    }

    static func status(_ path: String) throws -> stat {
        var info = stat()
        guard stat(path, &info) == 0 else { throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
        return info
    }
}
