import CourierTestSupport
import Foundation
import Testing

/// `courier run --report FORMAT FILE`: JUnit, TAP, JSON and HTML written in one run, each read back by a
/// parser for its format (Python's XML parser for JUnit, a strict TAP 14 reader, JSON, headless Chromium for
/// the HTML), secrets masked in all four.
@Suite struct RunReportFormatsTests {
    static let secret = "sup3r-s3cret-t0ken"

    /// A passing request with a passing test, a 500 with a failing test, and one to a closed port.
    static func collection(_ server: LoopbackServer) throws -> (TemporaryFolder, URL) {
        let folder = try TemporaryFolder("run-reports")
        try folder.write("http-client.env.json", #"{"dev": {}}"#)
        try folder.write("http-client.private.env.json", "{\"dev\": {\"token\": \"\(secret)\"}}")
        let closed = LoopbackSocket.closedPort()
        let file = try folder.write("api.http", """
            # @name fine
            GET \(server.url("/fine"))?key={{token}}

            > {%
                client.test("is 200", function () { client.assert(response.status === 200, "not 200"); });
            %}

            ###
            # @name broken
            GET \(server.url("/broken"))
            Authorization: Bearer {{token}}

            > {%
                client.test("has a <body> & \\"#\\" in it", function () {
                    client.assert(false, "leaked {{token}}? " + request.headers.findByName("Authorization"));
                });
            %}

            ###
            # @name away
            # @max-attempts 1
            GET http://127.0.0.1:\(closed)/away
            """)
        return (folder, file)
    }

    @Test("one run writes JUnit, TAP, JSON and HTML that their parsers accept, each masking the secret")
    func oneRunWritesEveryFormat() async throws {
        // Given a server that answers /broken with 500 and a file with a passing, a failing and an unsendable request
        let server = try LoopbackServer { request in
            request.path == "/broken" ? LoopbackServer.Reply(status: 500, body: Data("no".utf8)) : .json("{}")
        }
        defer { server.stop() }
        let (folder, file) = try Self.collection(server)
        let paths = ["junit": "r.xml", "tap": "r.tap", "json": "r.json", "html": "r.html"]
            .mapValues { folder.url.appendingPathComponent($0) }

        // When it runs with every report
        let result = try await CourierCLI.run(["run", file.path, "--env", "dev"]
                                              + paths.sorted { $0.key < $1.key }.flatMap { ["--report", $0.key, $0.value.path] })

        // Then every report exists and none holds the secret
        #expect(result.status != 0)
        for (format, url) in paths {
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(!text.contains(Self.secret), "\(format): \(text)")
        }
        // And Python's XML parser reads the JUnit report with the attributes the JUnit schema requires
        let junit = try await Self.checkJUnit(paths["junit"]!)
        #expect(junit.status == 0, "\(junit.stdout)\(junit.stderr)")
        #expect(junit.stdout == "tests=5 failures=2 errors=1\n", "\(junit.stdout)\(junit.stderr)")
        // And the TAP report is strict TAP 14: a plan that matches, numbered points, YAML blocks after failures
        let tap = try TAPReader(try String(contentsOf: paths["tap"]!, encoding: .utf8))
        #expect(tap.points.map(\.ok) == [true, true, false, false, false])
        #expect(tap.points[3].description.hasSuffix("api.http › broken › has a <body> & \"#\" in it"),
                "\(tap.points[3].description)")
        // And the JSON report is versioned, with its summary and a result and kind per request
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: paths["json"]!))
                                as? [String: Any])
        #expect(json["format"] as? String == "courier-run-report" && json["version"] as? Int == 1)
        let requests = try #require(json["requests"] as? [[String: Any]])
        #expect(requests.map { $0["result"] as? String } == ["passed", "failed", "error"])
        #expect(requests.map { $0["error_kind"] as? String } == [nil, "status", requests[2]["error_kind"] as? String])
        #expect(requests[2]["error_kind"] is String)
        #expect((requests[0]["url"] as? String)?.contains("key=") == true)
        // And the HTML report lists the failures first
        let html = try String(contentsOf: paths["html"]!, encoding: .utf8)
        let failures = try #require(html.range(of: "<h2>Failures</h2>"))
        let all = try #require(html.range(of: "<h2>Requests</h2>"))
        #expect(failures.lowerBound < all.lowerBound)
        #expect(!html.contains("<script"))
    }

    @Test("the HTML report opens in headless Chromium with no console error and loads nothing from outside")
    func theHTMLReportOpensInChromium() async throws {
        let chromium = URL(fileURLWithPath: "/usr/bin/chromium")
        guard FileManager.default.isExecutableFile(atPath: chromium.path) else {
            Issue.record("chromium is not installed (Debian package chromium): the HTML report was not opened")
            return
        }
        // Given an HTML report of a run with failures
        let server = try LoopbackServer { request in
            request.path == "/broken" ? LoopbackServer.Reply(status: 500) : .json("{}")
        }
        defer { server.stop() }
        let (folder, file) = try Self.collection(server)
        let report = folder.url.appendingPathComponent("report.html")
        _ = try await CourierCLI.run(["run", file.path, "--env", "dev", "--report", "html", report.path])

        // When headless Chromium opens it and takes a screenshot (kept under .build/test-artefacts)
        let artefacts = CourierCLI.packageRoot.appendingPathComponent(".build/test-artefacts", isDirectory: true)
        try FileManager.default.createDirectory(at: artefacts, withIntermediateDirectories: true)
        let shot = artefacts.appendingPathComponent("run-report-html.png")
        try? FileManager.default.removeItem(at: shot)
        let profile = try TemporaryFolder("chromium-profile")
        let opened = try await ChildProcess.run(chromium, [
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.url.path)",
            "--enable-logging=stderr", "--v=0", "--window-size=1200,900", "--screenshot=\(shot.path)",
            report.absoluteString,
        ], limit: .seconds(240))

        // Then it rendered, and the console (where CSP violations and script errors go) stayed empty
        #expect(FileManager.default.fileExists(atPath: shot.path), "\(opened.stderr)")
        let console = opened.stderr.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        #expect(console.isEmpty, "\(console)")
    }

    /// Parses the JUnit report with Python's `xml.etree` and checks the attributes JUnit's schema requires:
    /// `testsuite` name and tests, `testcase` name and classname; prints the totals.
    static func checkJUnit(_ url: URL) async throws -> ChildResult {
        let script = """
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            assert root.tag == "testsuites", root.tag
            cases = failures = errors = 0
            for suite in root.findall("testsuite"):
                for attribute in ("name", "tests", "failures", "errors"):
                    assert attribute in suite.attrib, (suite.attrib, attribute)
                found = suite.findall("testcase")
                assert int(suite.get("tests")) == len(found), suite.attrib
                for case in found:
                    assert case.get("name") and case.get("classname") is not None, case.attrib
                    float(case.get("time", "0"))
                    failures += len(case.findall("failure"))
                    errors += len(case.findall("error"))
                cases += len(found)
            print("tests=%d failures=%d errors=%d" % (cases, failures, errors))
            """
        return try await ChildProcess.run(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script, url.path])
    }
}

/// A strict reader of TAP 14 as `courier run` writes it: version line, plan, then numbered test points in
/// order, each failure optionally followed by an indented YAML block between `---` and `...`.
struct TAPReader {
    struct Point { var ok: Bool; var description: String }
    struct Malformed: Error, CustomStringConvertible { var description: String }

    private(set) var points: [Point] = []

    init(_ text: String) throws {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.last == "" else { throw Malformed(description: "no final newline") }
        lines.removeLast()
        guard lines.first == "TAP version 14" else { throw Malformed(description: "no version line") }
        guard lines.count > 1, lines[1].hasPrefix("1.."), let planned = Int(lines[1].dropFirst(3)) else {
            throw Malformed(description: "no plan on the second line")
        }
        var index = 2
        while index < lines.count {
            let line = lines[index]
            let ok = line.hasPrefix("ok ")
            guard ok || line.hasPrefix("not ok ") else { throw Malformed(description: "not a test point: \(line)") }
            let rest = line.dropFirst(ok ? 3 : 7)
            guard let dash = rest.range(of: " - "), Int(rest[..<dash.lowerBound]) == points.count + 1 else {
                throw Malformed(description: "badly numbered: \(line)")
            }
            var description = String(rest[dash.upperBound...])
            if let directive = description.range(of: " # ") { description = String(description[..<directive.lowerBound]) }
            points.append(Point(ok: ok, description: description.replacingOccurrences(of: "\\#", with: "#")
                .replacingOccurrences(of: "\\\\", with: "\\")))
            index += 1
            if index < lines.count, lines[index] == "  ---" {
                while index < lines.count, lines[index] != "  ..." {
                    guard lines[index].hasPrefix("  ") else { throw Malformed(description: "unindented YAML") }
                    index += 1
                }
                guard index < lines.count else { throw Malformed(description: "unterminated YAML block") }
                index += 1
            }
        }
        guard points.count == planned else { throw Malformed(description: "plan \(planned), \(points.count) points") }
    }
}
