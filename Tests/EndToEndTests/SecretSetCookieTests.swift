import Foundation
import Testing

/// A server's Set-Cookie carries a session secret; `courier send` prints the header redacted (text,
/// `--json`, `--timing`) and writes it to no file, unless `--show-secrets`. The demo server sends no
/// Set-Cookie, so a small loopback server in this file answers every request with one.
@Suite(.enabled(if: Reliability.hasCourier, "the courier binary is not built"))
struct SecretSetCookieTests {
    /// A loopback HTTP server answering every request with a fixed response, on a thread of its own.
    final class CookieServer: Sendable {
        let fd: Int32
        let port: UInt16

        init(response: String) throws {
            fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let fd = fd
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
                }
            }
            try #require(bound)
            port = UInt16(bigEndian: address.sin_port)
            let bytes = Array(response.utf8)
            Thread.detachNewThread {
                while true {
                    let client = accept(fd, nil, nil)
                    if client < 0 { return }
                    var buffer = [UInt8](repeating: 0, count: 65_536)
                    _ = read(client, &buffer, buffer.count)
                    _ = bytes.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
                    close(client)
                }
            }
        }

        func stop() {
            shutdown(fd, Int32(SHUT_RDWR))
            close(fd)
        }
    }

    @Test("Set-Cookie from the server is redacted in every output and file unless --show-secrets")
    func setCookieIsRedacted() async throws {
        // Given a server whose answer sets a session cookie holding a secret
        let secret = "sid-S3CRET-\(UUID().uuidString.prefix(8))"
        let body = #"{"ok":true}"#
        let server = try CookieServer(response: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            + "Set-Cookie: session=\(secret); Path=/; HttpOnly\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n\(body)")
        defer { server.stop() }
        let folder = try Reliability.temporaryFolder("set-cookie")
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["HOME": folder.path, "XDG_STATE_HOME": folder.appendingPathComponent("state").path,
                           "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
                           "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]
        let url = "http://127.0.0.1:\(server.port)/login"

        // When courier sends to it in each output mode
        for flags in [[], ["--json"], ["--timing"], ["--cache-mode", "default", "--json"]] {
            let result = try await Reliability.runCourier(["send"] + flags + [url], environment: environment)

            // Then the cookie's value is in neither stdout nor stderr
            #expect(result.status == 0, "\(flags): \(result.stderrText)")
            #expect(!result.stdoutText.contains(secret), "\(flags): \(result.stdoutText)")
            #expect(!result.stderrText.contains(secret), "\(flags)")
        }
        // And in no file courier wrote
        for file in Reliability.files(under: folder) {
            let data = (try? Data(contentsOf: file)) ?? Data()
            #expect(data.range(of: Data(secret.utf8)) == nil, "secret in \(file.path)")
        }
        // And --show-secrets prints it, so the checks above could see it
        let shown = try await Reliability.runCourier(["send", "--show-secrets", url], environment: environment)
        #expect(shown.stdoutText.contains(secret), "\(shown.stdoutText)")
    }
}
