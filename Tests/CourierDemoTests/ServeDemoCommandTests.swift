import Foundation
import Testing

/// Runs the built `courier` executable (built alongside the tests by `swift build --build-tests`).
private enum CourierProcess {
    static var executable: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/courier")
    }

    /// Runs to completion and returns the exit code, standard output and standard error.
    static func run(_ arguments: [String]) throws -> (code: Int32, out: String, error: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), error = Pipe()
        process.standardOutput = out
        process.standardError = error
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self),
                String(decoding: errorData, as: UTF8.self))
    }
}

@Suite("courier serve-demo")
struct ServeDemoCommandTests {
    @Test func helpDescribesTheOptions() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CourierProcess.executable.path))
        let result = try CourierProcess.run(["serve-demo", "--help"])
        #expect(result.code == 0)
        #expect(result.out == """
        OVERVIEW: Run the embedded demo HTTP server alone.

        Serves the demo API (/users, /auth/login, /etag, /events, /chaos/*, /ws/echo, …) on a loopback
        address until interrupted. GET / lists every endpoint.

        USAGE: courier serve-demo [options]

        OPTIONS:
          -p, --port N            TCP port to listen on (default: 0, any free port).
          --host H                IPv4 address to bind. Other addresses expose the demo server to the network
                                  (default: 127.0.0.1).
          -h, --help              Show this help.

        """)
    }

    @Test func badArgumentsAreUsageErrorsWithAHint() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CourierProcess.executable.path))
        let port = try CourierProcess.run(["serve-demo", "--port", "http"])
        #expect(port.code == 2)
        #expect(port.error == "Error: --port takes a number from 0 to 65535, not 'http'\nHelp:  courier serve-demo --help\n")
        let unknown = try CourierProcess.run(["serve-demo", "--verbose"])
        #expect(unknown.code == 2)
        #expect(unknown.error.hasPrefix("Error: unknown option '--verbose'"))
        let host = try CourierProcess.run(["serve-demo", "--host", "example.com"])
        #expect(host.code == 1)
        #expect(host.error.contains("not an IPv4 address: example.com"))
    }

    @Test func itPrintsTheBaseURLServesAndStopsOnSIGTERM() throws {
        try #require(FileManager.default.isExecutableFile(atPath: CourierProcess.executable.path))
        // Given `courier serve-demo` on any free port
        let process = Process()
        process.executableURL = CourierProcess.executable
        process.arguments = ["serve-demo"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = Pipe()
        try process.run()
        defer { if process.isRunning { process.terminate(); process.waitUntilExit() } }
        // When its first line names the URL
        var firstLine = Data()
        while !firstLine.contains(0x0A) {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            guard !byte.isEmpty else { break }
            firstLine += byte
        }
        let line = String(decoding: firstLine, as: UTF8.self)
        #expect(line.hasPrefix("Courier demo server listening on http://127.0.0.1:"))
        let port = try #require(UInt16(line.split(separator: ":").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))
        // Then the demo API answers there
        #expect(try RawHTTPClient(port: port).fetch("GET", "/users/1").status == 200)
        // And SIGTERM ends it with exit code 0
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
