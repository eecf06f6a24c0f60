import CourierDemo
import CourierTestSupport
import Foundation
import Synchronization
import Testing

/// `courier run --jobs N`: independent requests of a folder in flight together, a request that reads another's
/// response after it, the same results as a serial run, and each request's output in one piece.
@Suite struct RunJobsTests {
    /// Three files: a login whose token the next request reads, two independent requests, one more.
    static func folder(_ server: LoopbackServer) throws -> TemporaryFolder {
        let folder = try TemporaryFolder("run-jobs")
        try folder.write("a.http", """
            # @name login
            GET \(server.url("/login"))

            ###
            # @name me
            GET \(server.url("/me"))?t={{login.response.body.$.token}}
            """)
        try folder.write("b.http", "# @name one\nGET \(server.url("/p/1"))\n\n###\n# @name two\nGET \(server.url("/p/2"))\n")
        try folder.write("c.http", "# @name three\nGET \(server.url("/p/3"))\n")
        return folder
    }

    /// Answers `/login` with a token; holds each `/p/…` request until another `/p/…` one is in flight too (or a
    /// minute passed), recording the most seen at once.
    final class Overlap: Sendable {
        let state = Mutex((inFlight: 0, peak: 0))

        func reply(_ request: LoopbackServer.Request, wait: Bool) -> LoopbackServer.Reply {
            if request.path == "/login" { return .json(#"{"token":"abc"}"#) }
            guard request.path.hasPrefix("/p/"), wait else { return .json("{}") }
            state.withLock { $0.inFlight += 1; $0.peak = max($0.peak, $0.inFlight) }
            let end = Date().addingTimeInterval(60)
            while state.withLock({ $0.peak }) < 2 && Date() < end { usleep(5_000) }
            state.withLock { $0.inFlight -= 1 }
            return .json("{}")
        }
    }

    @Test("--jobs 4 overlaps independent requests at the server, keeps a dependent one after its source, same results")
    func jobsOverlapAndKeepDependencies() async throws {
        // Given a server that holds each /p request until a second one arrives, and one that answers at once
        let overlap = Overlap()
        let waiting = try LoopbackServer { overlap.reply($0, wait: true) }
        defer { waiting.stop() }
        let plain = try LoopbackServer { overlap.reply($0, wait: false) }
        defer { plain.stop() }
        let parallelFolder = try Self.folder(waiting)
        let serialFolder = try Self.folder(plain)

        // When the folder runs with --jobs 4, and serially
        let parallel = try await CourierCLI.run(["run", ".", "--jobs", "4", "--report", "json", "p.json"],
                                                in: parallelFolder.url)
        let serial = try await CourierCLI.run(["run", ".", "--report", "json", "s.json"], in: serialFolder.url)

        // Then two /p requests were at the server at the same time
        #expect(parallel.status == 0, "\(parallel.stdout)\(parallel.stderr)")
        #expect(serial.status == 0, "\(serial.stdout)\(serial.stderr)")
        #expect(overlap.state.withLock { $0.peak } >= 2)
        // And /me came after /login had been answered, with its token
        let paths = waiting.requests.map(\.path)
        let login = try #require(paths.firstIndex(of: "/login"))
        let me = try #require(paths.firstIndex(of: "/me"))
        #expect(login < me && waiting.requests[me].query == "t=abc")
        // And the results are the serial run's
        func results(_ folder: TemporaryFolder, _ name: String) throws -> [String] {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.url.appendingPathComponent(name)))
            let requests = (object as? [String: Any])?["requests"] as? [[String: Any]] ?? []
            return requests.map { "\($0["file"] ?? "") \($0["name"] ?? "") \($0["result"] ?? "") \($0["status"] ?? "")" }
                .sorted()
        }
        #expect(try results(parallelFolder, "p.json") == results(serialFolder, "s.json"))
        #expect(try results(parallelFolder, "p.json").count == 5)
        // And every request's title is followed by its own status line: no output interleaved mid-request
        let lines = parallel.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() where line.hasPrefix("### ") {
            #expect(index + 1 < lines.count && lines[index + 1].hasPrefix("HTTP/1.1 200"), "\(parallel.stdout)")
        }
        #expect(parallel.stderr.contains("5 succeeded, 0 failed in 3 files"), "\(parallel.stderr)")
    }

    @Test("--jobs 16 over the demo collection: reads, changes and the delete of the created user keep their order")
    func jobsKeepTheOrderOfRequestsAboutTheSameResource() async throws {
        // Given the demo server and its collection, where getUser, replaceUser, patchUser and deleteUser all read
        // createUser's id
        let server = try DemoServer.start()
        defer { server.stop() }
        let base = server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let ws = "ws://127.0.0.1:\(server.port)"

        // When it runs with --jobs 16, three times over
        let run = try await CourierCLI.run(["run", "Collections/demo.http", "--all", "--env", "demo", "--jobs", "16",
                                            "--repeat", "3", "--var", "base=\(base)", "--var", "ws=\(ws)", "--quiet"],
                                           in: DemoCollection.root)

        // Then no request found the user deleted under it: every one succeeded, as in a run one at a time
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.contains("succeeded, 0 failed"), "\(run.stderr)")
    }

    @Test("--jobs 4: a request that reads a response through a file variable is sent after that response")
    func jobsWaitForAResponseReadThroughAFileVariable() async throws {
        // Given a server whose /users answers with an id, and a file that reads it through `@uid` at its top
        let server = try LoopbackServer { request in
            request.path == "/users" ? .json(#"{"id": "u-42"}"#) : .json("{}")
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("run-jobs-file-variable")
        try folder.write("f.http", """
            @uid = {{createUser.response.body.$.id}}

            ### createUser
            # @name createUser
            POST \(server.url("/users"))

            ### getUser
            GET \(server.url("/profiles"))/{{uid}}
            """)

        // When it runs with --jobs 4, and with --name getUser alone
        let parallel = try await CourierCLI.run(["run", "f.http", "--jobs", "4", "--quiet"], in: folder.url)
        let named = try await CourierCLI.run(["run", "f.http", "--name", "getUser", "--quiet"], in: folder.url)

        // Then both sent getUser with the id, after createUser had been answered
        #expect(parallel.status == 0 && named.status == 0, "\(parallel.stderr)\(named.stderr)")
        #expect(server.requests.map(\.path) == ["/users", "/profiles/u-42", "/users", "/profiles/u-42"])
    }

    @Test("--jobs 4: a request that reads a response through an environment value waits for it too")
    func jobsWaitForAResponseReadThroughAnEnvironmentValue() async throws {
        let server = try LoopbackServer { request in
            request.path == "/users" ? .json(#"{"id": "u-7"}"#) : .json("{}")
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("run-jobs-env-value")
        try folder.write("http-client.env.json", #"{"dev": {"uid": "{{createUser.response.body.$.id}}"}}"#)
        try folder.write("f.http", """
            ### createUser
            # @name createUser
            POST \(server.url("/users"))

            ### getUser
            GET \(server.url("/profiles"))/{{uid}}
            """)
        let run = try await CourierCLI.run(["run", "f.http", "--jobs", "4", "--env", "dev", "--quiet"], in: folder.url)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(server.requests.map(\.path) == ["/users", "/profiles/u-7"])

        // And --name getUser pulls createUser in through the environment value, for the file and for its folder,
        // with the environment named and with it chosen as the only one
        for arguments in [["f.http", "--env", "dev"], ["f.http"], [".", "--env", "dev"]] {
            let before = server.requests.count
            let named = try await CourierCLI.run(["run"] + arguments + ["--name", "getUser", "--quiet"], in: folder.url)
            #expect(named.status == 0, "\(arguments) \(named.stderr)")
            #expect(server.requests.dropFirst(before).map(\.path) == ["/users", "/profiles/u-7"], "\(arguments)")
        }
    }

    @Test("--jobs 4 --quiet without a report counts every request, prints only the failed one, exits 1")
    func jobsWithoutAReportCountEveryRequest() async throws {
        // Given a file of five GETs, one of which the server fails
        let server = try LoopbackServer { request in
            request.path == "/p/3" ? .init(status: 404, body: Data("gone".utf8)) : .json("{}")
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("run-jobs-count")
        try folder.write("f.http", (1...5).map { "### r\($0)\nGET \(server.url("/p/\($0)"))\n" }.joined(separator: "\n"))

        // When it runs with --jobs 4 --quiet, with no report to keep the outcomes for
        let run = try await CourierCLI.run(["run", "f.http", "--jobs", "4", "--quiet"], in: folder.url)

        // Then every request was sent and counted, and only the failed one was printed
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(server.requests.count == 5)
        #expect(run.stderr.contains("4 succeeded, 1 failed"), "\(run.stderr)")
        #expect(run.stdout.contains("r3") && !run.stdout.contains("r1"), "\(run.stdout)")
    }

    @Test("--jobs 4 --repeat 2: responses read in other files, by reference and by httpyac's names, reach them each round")
    func jobsHandOnTheResponsesThatAreRead() async throws {
        // Given a login and an account read from two other files (one by reference and httpyac's field name, one
        // by httpyac's name of the whole response), beside GETs nobody reads
        let server = try LoopbackServer { request in
            request.path == "/login" ? .json(#"{"token": "t-9"}"#) : .json("{}")
        }
        defer { server.stop() }
        let folder = try TemporaryFolder("run-jobs-read")
        try folder.write("a.http", """
            ### login
            POST \(server.url("/login"))

            ### account
            GET \(server.url("/account"))

            ### other
            GET \(server.url("/p/1"))
            """)
        try folder.write("b.http", """
            ### me
            GET \(server.url("/me"))?t={{login.response.body.$.token}}&u={{login.token}}

            ### more
            GET \(server.url("/p/2"))
            """)
        try folder.write("c.http", "### status\nGET \(server.url("/status"))?s={{accountResponse.status}}\n")

        // When the folder runs twice with --jobs 4
        let run = try await CourierCLI.run(["run", ".", "--jobs", "4", "--repeat", "2", "--quiet"], in: folder.url)

        // Then every reader was sent the values it reads in both rounds
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let sent = server.requests.map { $0.path + ($0.query.isEmpty ? "" : "?" + $0.query) }
        #expect(sent.filter { $0 == "/me?t=t-9&u=t-9" }.count == 2, "\(sent)")
        #expect(sent.filter { $0 == "/status?s=200" }.count == 2, "\(sent)")
        #expect(run.stderr.contains("12 succeeded, 0 failed"), "\(run.stderr)")
    }
}
