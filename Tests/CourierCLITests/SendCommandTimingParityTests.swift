import CourierTestSupport
import CourierDemo
import Foundation
import Testing

/// `courier send --timing` and `courier run --timing` print the same breakdown (one function,
/// `ResponseOutput.timingBreakdown`), and a large body printed for people survives its streaming
/// re-indentation intact.
@Suite(.serialized) struct SendCommandTimingParityTests {
    let server: DemoServer
    let folder: URL

    init() throws {
        server = try DemoServer.start()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cli-parity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func cleanUp() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The breakdown rows' labels, in order, from a command's text output.
    static func breakdownLabels(_ text: String) -> [String] {
        let labels = ["DNS lookup", "TCP connect", "TLS handshake", "Server processing", "Content transfer", "Total"]
        return text.components(separatedBy: "\n").compactMap { line in
            labels.first { line.hasPrefix($0.padding(toLength: 20, withPad: " ", startingAt: 0)) }
        }
    }

    @Test func sendAndRunPrintTheSameTimingBreakdown() async throws {
        defer { cleanUp() }
        // Given one request, as a command line and as a saved request in a .http file
        let url = server.baseURL.absoluteString + "/users/1"
        let file = folder.appendingPathComponent("parity.http")
        try Data("### One user\n# @name one\nGET \(url)\n".utf8).write(to: file)
        // When both are run with --timing
        let send = try await CourierCLI.run(["send", url, "--timing"])
        let run = try await CourierCLI.run(["run", file.path, "--timing"])
        // Then both print the same breakdown rows in the same order, with the same reuse note rules
        let expected = ["DNS lookup", "TCP connect", "TLS handshake", "Server processing", "Content transfer", "Total"]
        #expect(send.status == 0)
        #expect(run.status == 0)
        #expect(Self.breakdownLabels(send.stdout) == expected)
        #expect(Self.breakdownLabels(run.stdout) == expected)
        #expect(send.stdout.contains("attempt 1  200  "))
        #expect(run.stdout.contains("attempt 1  200  "))
    }

    @Test func aLargeJSONBodyPrintedForPeopleIsTheSameJSONAsTheSavedBody() async throws {
        defer { cleanUp() }
        // Given a JSON body just past the transport's 4 MiB spill threshold, so printed from its file
        let url = server.baseURL.absoluteString + "/large?bytes=4400000"
        let saved = folder.appendingPathComponent("saved.json")
        // When it is printed for people and saved with -o
        let printed = try await CourierCLI.run(["send", url])
        let written = try await CourierCLI.run(["send", url, "-o", saved.path])
        // Then the printed body, indented chunk by chunk, parses to the same JSON as the saved bytes
        #expect(printed.status == 0)
        #expect(written.status == 0)
        let output = Data(printed.stdout.utf8)
        let start = try #require(output.firstRange(of: Data("\n\n".utf8)))
        let end = try #require(output.lastRange(of: Data("\n\nattempt 1".utf8)))
        let body = output[start.upperBound..<end.lowerBound]
        #expect(body.starts(with: Data("[\n  {\n    \"id\": 1,".utf8)))
        let fromText = try JSONSerialization.jsonObject(with: body) as? NSArray
        let fromFile = try JSONSerialization.jsonObject(with: Data(contentsOf: saved)) as? NSArray
        #expect(fromText != nil)
        #expect(fromText?.count == fromFile?.count)
        #expect(fromText?.firstObject as? NSDictionary == fromFile?.firstObject as? NSDictionary)
        #expect(fromText?.lastObject as? NSDictionary == fromFile?.lastObject as? NSDictionary)
    }
}
