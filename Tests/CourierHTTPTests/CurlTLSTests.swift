import CourierTestSupport
import Foundation
import Testing
@testable import CourierHTTP

/// CurlTransport over TLS against `openssl s_server` on loopback with a throwaway self-signed certificate.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")))
struct CurlTLSTests {
    /// A running `openssl s_server -www` and the folder holding its key and certificate.
    final class TLSServer {
        let process = Process()
        let folder: URL
        let port: UInt16

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tls-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Self.openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                              "-subj", "/CN=localhost", "-days", "1", "-keyout", "key.pem", "-out", "cert.pem"], in: folder)
            port = try Self.freePort()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", "cert.pem", "-key", "key.pem",
                                 "-www", "-quiet"]
            process.currentDirectoryURL = folder
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        var url: URL { URL(string: "https://127.0.0.1:\(port)/")! }

        func stop() {
            // s_server does not stop on SIGTERM while it waits for a connection.
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: folder)
        }

        /// Waits until the server accepts connections (an insecure request gets an answer).
        func ready(_ transport: CurlTransport) async -> Bool {
            for _ in 0..<200 {
                if (try? await transport.send(HTTPRequest(url: url, insecure: true), context: RequestContext())) != nil {
                    return true
                }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return false
        }

        private static func openssl(_ arguments: [String], in folder: URL) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = arguments
            process.currentDirectoryURL = folder
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
        }

        /// A port the kernel just handed out and released.
        private static func freePort() throws -> UInt16 {
            let server = try LoopbackServer { _ in LoopbackServer.Reply() }
            let port = server.port
            server.stop()
            return port
        }
    }

    @Test func aSelfSignedCertificateIsATLSErrorWithCurlsMessage() async throws {
        let server = try TLSServer()
        defer { server.stop() }
        let transport = CurlTransport()
        #expect(await server.ready(transport))
        await #expect {
            _ = try await transport.send(HTTPRequest(url: server.url), context: RequestContext())
        } throws: { error in
            guard case .tls(let message) = error as? APIError else { return false }
            return message.contains("certificate")
        }
    }

    @Test func insecureSkipsVerificationAndTheHandshakeIsTimed() async throws {
        let server = try TLSServer()
        defer { server.stop() }
        let transport = CurlTransport()
        #expect(await server.ready(transport))
        let fresh = CurlTransport()
        let response = try await fresh.send(HTTPRequest(url: server.url, insecure: true), context: RequestContext())
        #expect(response.status == 200)
        #expect(response.timing.tls != nil)
        if let tls = response.timing.tls, let connect = response.timing.connect { #expect(tls >= connect) }
    }

    @Test func aTLSFailureIsNotRetried() async throws {
        let server = try TLSServer()
        defer { server.stop() }
        let transport = CurlTransport()
        #expect(await server.ready(transport))
        let events = EventLog()
        let client = HTTPClient(configuration: .init(transport: transport, sleeper: InstantSleeper(), events: events.sink))
        await #expect(throws: APIError.self) { _ = try await client.send(HTTPRequest(url: server.url)) }
        #expect(events.attemptsStarted == 1)
    }
}
