import CourierTestSupport
import CourierDemo
import Foundation
import Testing

/// `courier send -o FILE` on large bodies: streamed to disk with bounded memory, and the progress
/// line only on a terminal.
@Suite(.serialized) struct SendCommandLargeBodyTests {
    let server: DemoServer
    let folder: URL

    init() throws {
        server = try DemoServer.start()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cli-large-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func url(_ path: String) -> String { server.baseURL.absoluteString + path }

    func cleanUp() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    @Test func aHundredMegabyteBodyStreamsToTheFileWithPeakMemoryWellBelowItsSize() async throws {
        defer { cleanUp() }
        // Given a 100 MB body (large enough that the process's own ~50 MB in a debug build, runtime,
        // libraries and script engine, is not what decides the outcome)
        let bodySize = 100 * 1_048_576
        let output = folder.appendingPathComponent("large.json")
        // When it is saved with -o while the process's peak resident set (VmHWM) is sampled
        let courier = try CourierCLI.start(["send", url("/large?mb=100"), "-o", output.path])
        defer { if courier.isRunning { courier.signal(SIGTERM) } }
        let (ended, peak) = await courier.finishSamplingPeakMemory(limit: .seconds(60))
        let status = ended ?? -1
        // Then the whole body is in the file, nothing else is left in the folder, and the process
        // never held anything like the body in memory
        #expect(status == 0)
        #expect(courier.stdout.text.contains("(body: \(bodySize) bytes written to \(output.path))"))
        let attributes = try FileManager.default.attributesOfItem(atPath: output.path)
        #expect((attributes[.size] as? NSNumber)?.intValue == bodySize)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["large.json"])
        #expect(peak > 0)
        #expect(peak < bodySize * 9 / 10, "peak resident set \(peak) bytes for a \(bodySize)-byte body")
    }

    @Test func noProgressLineWhenStandardErrorIsNotATerminal() async throws {
        defer { cleanUp() }
        // Given a 5 MB body and standard error going to a file
        let output = folder.appendingPathComponent("five.json")
        // When it is saved with -o
        let result = try await CourierCLI.run(["send", url("/large?mb=5"), "-o", output.path])
        // Then nothing is drawn on standard error
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(!result.stdout.contains("\u{1B}[K"))
    }

    @Test func onATerminalTheProgressLineShowsBytesAndTheExpectedSizeAndIsErased() async throws {
        defer { cleanUp() }
        // Given a pseudo-terminal from script(1) (util-linux), when the system has it
        let script = URL(fileURLWithPath: "/usr/bin/script")
        let executable = CourierCLI.executable
        guard FileManager.default.isExecutableFile(atPath: script.path) else { return }
        let output = folder.appendingPathComponent("tty.json")
        let command = "'\(executable.path)' send '\(url("/large?mb=5"))' -o '\(output.path)'"
        // When a 5 MB body is saved with -o on that terminal
        let terminal = try ChildProcess(script, ["-qec", command, "/dev/null"])
        let status = await terminal.finish() ?? -1
        // Then the progress line was drawn with the received bytes and the total, then erased
        let text = terminal.stdout.text
        #expect(status == 0)
        #expect(text.contains("\r\u{1B}[Kreceived "))
        #expect(text.contains(" of 5.0 MB ("))
        #expect(text.contains("\r\u{1B}[KHTTP/1.1 200 OK"))
    }

    @Test(arguments: ["/large?bytes=4400000", "/large?bytes=4400000&kind=binary"])
    func withJSONALargeBodyIsWrittenFromItsFileAndEqualsTheSavedBytes(path: String) async throws {
        defer { cleanUp() }
        // Given a body past the transport's spill threshold (JSON text, or binary)
        let saved = folder.appendingPathComponent("saved.bin")
        // When it is printed with --json and saved with -o
        let printed = try await CourierCLI.run(["send", url(path), "--json"])
        let written = try await CourierCLI.run(["send", url(path), "-o", saved.path])
        // Then the object's body (text, or base64 for binary) is exactly the saved bytes
        #expect(printed.status == 0)
        #expect(written.status == 0)
        let object = try CourierCLI.json(printed.stdout)
        let text = try #require(object["body"] as? String)
        let isBinary = path.hasSuffix("binary")
        #expect(object["body_encoding"] as? String == (isBinary ? "base64" : nil))
        let body = isBinary ? Data(base64Encoded: text) : Data(text.utf8)
        #expect(body == (try Data(contentsOf: saved)))
        #expect(object["body_size"] as? Int == 4_400_000)
    }

    @Test func dashOIntoAFolderThatDoesNotExistIsAUsageErrorBeforeAnythingIsSent() async throws {
        defer { cleanUp() }
        // Given an output path in a missing folder
        let output = folder.appendingPathComponent("missing/large.json")
        // When a body is to be saved there
        let result = try await CourierCLI.run(["send", url("/large?mb=1"), "-o", output.path])
        // Then the command stops with a usage error and the server saw no request
        #expect(result.status == 2)
        #expect(result.stderr.contains("-o: cannot write into the folder"))
        #expect(server.requestCount(path: "/large") == 0)
    }
}
