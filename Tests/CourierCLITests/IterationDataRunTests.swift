import CourierTestSupport
import Foundation
import Testing

/// `courier run --data FILE` and `--iteration-count N`, as newman's `-d` and `-n`: one run per row, what each
/// row sent, and data files that are not what they should be.
@Suite("Iteration data in courier run")
struct IterationDataRunTests {
    static let request = """
        ### one
        < {%
            pm.request.headers.add({ key: "X-Iteration", value: pm.info.iteration + "/" + pm.info.iterationCount });
            pm.request.headers.add({ key: "X-Note", value: encodeURIComponent(pm.iterationData.get("note")) });
            pm.request.headers.add({ key: "X-Legacy", value: data.id + ":" + pm.variables.get("name") });
        %}
        POST BASE/users?id={{id}}
        Content-Type: application/json

        {"name": "{{name}}"}
        """

    @Test func aCSVFileRunsOncePerRowWithQuotesLineBreaksAndABOM() async throws {
        // Given a CSV file with a BOM, CRLF line ends, a quoted comma, a doubled quote and a line break in quotes
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let csv = "\u{FEFF}id,name,note\r\n1,\"Lovelace, Ada\",\"first\r\nline\"\r\n2,\"Bob \"\"B\"\"\",plain\r\n"
        try folder.write("rows.csv", csv)
        // When the request runs with --data
        let result = try await CompatibilityMatrixTests.run(Self.request, in: folder, server: server,
                                                            arguments: ["--data", "rows.csv"])
        // Then the server got one request per row, with that row's values
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let received = server.requests
        try #require(received.count == 2)
        #expect(received.map(\.target) == ["/users?id=1", "/users?id=2"])
        #expect(received[0].bodyText == #"{"name": "Lovelace, Ada"}"#)
        #expect(received[1].bodyText == #"{"name": "Bob "B""}"#)
        #expect(received.map { $0.header("X-Iteration") } == ["0/2", "1/2"])
        #expect(received.map { $0.header("X-Note") } == ["first%0D%0Aline", "plain"])
        #expect(received.map { $0.header("X-Legacy") } == ["1:Lovelace, Ada", "2:Bob \"B\""])
        #expect(result.stdout.contains("==> iteration 2 of 2 <=="), "\(result.stdout)")
        #expect(result.stderr.contains("2 succeeded"), "\(result.stderr)")
    }

    @Test func aJSONFileAndAnIterationCountPastTheRowsReuseTheLastRowAndVarStillWins() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("rows.json", #"[{"id": 7, "name": "ada", "note": "n"}, {"id": 8, "name": "bob", "note": "m"}]"#)
        let result = try await CompatibilityMatrixTests.run(Self.request, in: folder, server: server, arguments: [
            "--data", "rows.json", "--iteration-count", "3", "--var", "name=override",
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(server.requests.map(\.target) == ["/users?id=7", "/users?id=8", "/users?id=8"])
        #expect(server.requests.allSatisfy { $0.bodyText == #"{"name": "override"}"# })
        #expect(server.requests.map { $0.header("X-Iteration") } == ["0/3", "1/3", "2/3"])
        let json = try await CompatibilityMatrixTests.run(Self.request, in: folder, server: server,
                                                          arguments: ["--data", "rows.json", "--json"])
        let objects = try json.stdout.split(separator: "\n").map { try CourierCLI.json(String($0)) }
        #expect(objects.map { $0["iteration"] as? Int } == [0, 1], "\(json.stdout)")
    }

    @Test func anIterationCountWithoutDataRunsTheFileThatManyTimes() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let result = try await CompatibilityMatrixTests.run("GET BASE/ping", in: folder, server: server,
                                                            arguments: ["-n", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(server.requests.count == 2)
    }

    @Test func aMalformedDataFileIsAUsageErrorNamingItsLineAndNothingIsSent() async throws {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try folder.write("open.csv", "id,name\n1,ada\n2,\"bob\n")
        try folder.write("wide.csv", "id,name\n1,ada,extra\n")
        try folder.write("object.json", #"{"id": 1}"#)
        let open = try await CompatibilityMatrixTests.run("GET BASE/{{id}}", in: folder, server: server,
                                                          arguments: ["--data", "open.csv"])
        let wide = try await CompatibilityMatrixTests.run("GET BASE/{{id}}", in: folder, server: server,
                                                          arguments: ["--data", "wide.csv"])
        let object = try await CompatibilityMatrixTests.run("GET BASE/{{id}}", in: folder, server: server,
                                                            arguments: ["--data", "object.json"])
        #expect(open.status == 2 && wide.status == 2 && object.status == 2)
        #expect(open.stderr.contains("open.csv:3") && open.stderr.contains("quoted field is not closed"), "\(open.stderr)")
        #expect(wide.stderr.contains("wide.csv:2") && wide.stderr.contains("3 fields"), "\(wide.stderr)")
        #expect(object.stderr.contains("object.json") && object.stderr.contains("JSON array"), "\(object.stderr)")
        #expect(server.requests.isEmpty)
    }
}
