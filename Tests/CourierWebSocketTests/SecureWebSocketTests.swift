import Foundation
import Testing
@testable import CourierWebSocket

/// `openssl s_server -www` on loopback with a throw-away self-signed certificate: enough to prove that
/// wss:// goes through libcurl's TLS (it answers the upgrade with an HTML status page, not 101).
final class LoopbackTLSServer {
    let port: UInt16
    /// The server's self-signed certificate (PEM), naming 127.0.0.1, for tests that trust it.
    let certificate: URL
    private let process = Process()
    private let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-wss-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = folder.appendingPathComponent("key.pem").path
        let cert = folder.appendingPathComponent("cert.pem").path
        certificate = URL(fileURLWithPath: cert)
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        make.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                          "-days", "1", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        make.standardOutput = FileHandle.nullDevice
        make.standardError = FileHandle.nullDevice
        try make.run()
        Self.waitForExit(make)
        port = try Self.freePort()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", cert, "-key", key, "-www", "-quiet"]
        process.standardInput = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Waits until the server accepts connections (bounded).
    func waitUntilListening() -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = port.bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(fd)
            if connected == 0 { return true }
            usleep(50_000)
        }
        return false
    }

    func stop() {
        // SIGKILL: a child of the test runner may inherit an ignored SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        Self.waitForExit(process)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Polls instead of `waitUntilExit`, which can stall when called from a test's concurrency thread.
    private static func waitForExit(_ process: Process) {
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && Date() < deadline { usleep(20_000) }
    }

    private static func freePort() throws -> UInt16 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else { throw POSIXError(.EADDRNOTAVAIL) }
        return UInt16(bigEndian: address.sin_port)
    }
}

@Suite(.serialized) struct SecureWebSocketTests {
    @Test func selfSignedCertificateIsRefusedUnlessInsecure() async throws {
        // Given a TLS server with a self-signed certificate
        let server = try LoopbackTLSServer()
        defer { server.stop() }
        try #require(server.waitUntilListening())
        let url = URL(string: "wss://127.0.0.1:\(server.port)/ws")!
        // When connecting with verification, Then it fails as a TLS error
        await #expect {
            _ = try await WebSocketClient.connect(WebSocketConfiguration(url: url))
        } throws: { error in
            if case WebSocketError.tls = error { true } else { false }
        }
        // When connecting with --insecure, Then TLS succeeds and the upgrade request reaches the server
        // over it (which answers with its status page instead of 101)
        var insecure = WebSocketConfiguration(url: url)
        insecure.insecure = true
        await #expect {
            _ = try await WebSocketClient.connect(insecure)
        } throws: { error in
            if case WebSocketError.handshakeRejected(let status, _, _) = error { status == 200 } else { false }
        }
    }

    @Test("a self-signed certificate given as trusted (--cacert) is verified, not skipped")
    func trustedCertificateIsVerified() async throws {
        // Given a TLS server with a self-signed certificate
        let server = try LoopbackTLSServer()
        defer { server.stop() }
        try #require(server.waitUntilListening())
        let url = URL(string: "wss://127.0.0.1:\(server.port)/ws")!
        // When connecting with verification against that certificate
        let trusted = WebSocketConfiguration(url: url, trustedCertificates: server.certificate)
        // Then TLS succeeds and the upgrade request reaches the server (its status page, not 101)
        await #expect {
            _ = try await WebSocketClient.connect(trusted)
        } throws: { error in
            if case WebSocketError.handshakeRejected(let status, _, _) = error { status == 200 } else { false }
        }
    }
}
