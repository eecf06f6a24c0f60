import CourierDemo
import CourierTestSupport
import Foundation
import Testing

/// `courier run --jobs N` sends through a client per core (at most N), each request on its client's loop thread:
/// what the run shares still reaches every request whichever client sends it (a login's session cookie), and
/// the run says the same as a run in order (its --json lines, its report, its exit code).
@Suite struct RunJobsClientsTests {
    /// A `--json` line without what changes from one run to the next: timings, the Date header.
    static func stable(_ line: [String: Any]) -> String {
        var line = line
        line["headers"] = (line["headers"] as? [[String]])?.filter { $0.first != "Date" }
        line["attempts"] = (line["attempts"] as? [[String: Any]])?.map { attempt in
            "\(attempt["attempt"] ?? "") \(attempt["status"] ?? "") \(attempt["error"] ?? "")"
        }
        let data = (try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// A report's requests by what they say of each request, in a stable order.
    static func reported(_ url: URL) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
        let requests = object?["requests"] as? [[String: Any]] ?? []
        return requests.map { request in
            let tests = (request["tests"] as? [[String: Any]] ?? []).map { "\($0["name"] ?? "") \($0["passed"] ?? "")" }
            return "\(request["name"] ?? "") \(request["result"] ?? "") \(request["status"] ?? "") \(tests)"
        }.sorted()
    }

    @Test("--jobs 8: a login's session cookie goes with every later request, whichever client sends it")
    func jobsShareTheLoginCookieAcrossClients() async throws {
        // Given the demo server, a login that sets a session cookie, and eight requests that need the cookie
        // (each reads the login's response, so it is sent after the login)
        let server = try DemoServer.start()
        defer { server.stop() }
        let folder = try TemporaryFolder("run-jobs-cookie")
        let base = server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let me = (1...8).map { "### me\($0)\nGET \(base)/session/me?as={{login.response.body.$.signed_in}}\n" }
        try folder.write("session.http", """
            ### login
            # @name login
            POST \(base)/session/login
            Content-Type: application/json

            {"username": "ada"}

            """ + me.joined(separator: "\n"))

        // When the file runs eight at a time (over a client per core)
        let run = try await CourierCLI.run(["run", "session.http", "--jobs", "8", "--json"], in: folder.url,
                                           environment: ["XDG_STATE_HOME": folder.url.appendingPathComponent("state").path])

        // Then every request was signed in as ada
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let lines = run.jsonLines
        #expect(lines.count == 9, "\(run.stdout)")
        for line in lines where (line["name"] as? String)?.hasPrefix("me") == true {
            #expect(line["status"] as? Int == 200, "\(line)")
            #expect((line["body"] as? String)?.contains(#""username":"ada""#) == true, "\(line)")
        }
        #expect(run.stderr.contains("9 succeeded, 0 failed"), "\(run.stderr)")
    }

    @Test("--jobs 8 prints the same --json lines, writes the same report and exits as a run in order")
    func jobsSayWhatARunInOrderSays() async throws {
        // Given twelve requests answered by path, one of them with 404, and a test on one
        let server = try LoopbackServer { request in
            request.path == "/p/5" ? .json(#"{"error":"gone"}"#, status: 404) : .json(#"{"path":"\#(request.path)"}"#)
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("run-jobs-same")
        var text = (1...12).map { "### r\($0)\nGET \(server.url("/p/\($0)"))\n" }.joined(separator: "\n")
        text += "\n> {% client.test(\"a path\", () => client.assert(response.body.path === \"/p/12\")); %}\n"
        try folder.write("f.http", text)

        // When it runs in order, then with --jobs 8, each with a JSON report
        let serial = try await CourierCLI.run(["run", "f.http", "--json", "--report", "json", "s.json"],
                                              in: folder.url)
        let parallel = try await CourierCLI.run(["run", "f.http", "--json", "--jobs", "8", "--report", "json",
                                                 "p.json"], in: folder.url)

        // Then both exit 1 for the 404, print the same lines (in any order) and report the same requests
        #expect(serial.status == 1 && parallel.status == 1, "\(serial.stderr)\(parallel.stderr)")
        #expect(serial.jsonLines.count == 12, "\(serial.stdout)")
        #expect(parallel.jsonLines.map(Self.stable).sorted() == serial.jsonLines.map(Self.stable).sorted())
        #expect(try Self.reported(folder.url.appendingPathComponent("p.json"))
                    == Self.reported(folder.url.appendingPathComponent("s.json")))
        #expect(parallel.stderr.contains("11 succeeded, 1 failed"), "\(parallel.stderr)")
    }
}
