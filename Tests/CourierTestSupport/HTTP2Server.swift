import Foundation
import CourierHTTP

/// A running `nghttpd` (Debian's `nghttp2-server`): an HTTP/2-only server over TLS on loopback with a
/// throwaway self-signed certificate, serving a temporary document root.
public final class HTTP2Server: Sendable {
    /// Why the server could not be started; the message says what to install.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Where Debian installs the programs; `make test` installs `nghttp2-server`, so a missing one
    /// is a failure that says what to install, never a silent skip.
    public static let nghttpdPaths = ["/usr/sbin/nghttpd", "/usr/bin/nghttpd"]
    public static let opensslPath = "/usr/bin/openssl"

    /// The documents served: a small JSON file and a 5 MB binary file larger than the spill threshold.
    public static let smallPath = "/small.json"
    public static let smallBody = Data(#"{"protocol":"h2","ok":true}"#.utf8)
    public static let largePath = "/large.bin"
    public static let largeSize = 5 << 20

    public let folder: URL
    public let port: UInt16
    private let child: ChildProcess

    /// Starts nghttpd and returns once it answers. nghttpd cannot be asked for a port of the system's
    /// choosing, so it gets one just released; when another test took it meanwhile, nghttpd exits and is
    /// started again on another.
    public init() async throws {
        guard let nghttpd = Self.nghttpdPaths.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw Unavailable(description: "nghttpd is not installed: apt-get install nghttp2-server")
        }
        guard FileManager.default.isExecutableFile(atPath: Self.opensslPath) else {
            throw Unavailable(description: "openssl is not installed: apt-get install openssl")
        }
        let folder = try Self.temporaryFolder("courier-h2")
        do {
            let documents = folder.appendingPathComponent("htdocs")
            try FileManager.default.createDirectory(at: documents, withIntermediateDirectories: true)
            try await Self.makeCertificate(in: folder)
            try Self.smallBody.write(to: documents.appendingPathComponent(String(Self.smallPath.dropFirst())))
            try Self.largeBody.write(to: documents.appendingPathComponent(String(Self.largePath.dropFirst())))
            for _ in 0..<5 {
                let port = try Self.freePort()
                let child = try ChildProcess(URL(fileURLWithPath: nghttpd),
                                             ["--address=127.0.0.1", "--htdocs=\(documents.path)", "\(port)", "key.pem",
                                              "cert.pem"], in: folder)
                if await child.answers(URL(string: "https://127.0.0.1:\(port)\(Self.smallPath)")!) {
                    (self.folder, self.port, self.child) = (folder, port, child)
                    return
                }
                child.signalGroup(SIGKILL)
            }
            throw Unavailable(description: "nghttpd did not answer on any of five ports")
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// The bytes of the large document: a repeating pattern that is not all one byte, so a shifted or
    /// truncated copy cannot compare equal.
    public static let largeBody: Data = {
        var data = Data(count: largeSize)
        data.withUnsafeMutableBytes { bytes in
            for index in 0..<bytes.count { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 13) }
        }
        return data
    }()

    /// The address of a document on this server.
    public func url(_ path: String) -> URL { URL(string: "https://127.0.0.1:\(port)\(path)")! }

    /// The PEM certificate the server presents.
    public var certificate: URL { folder.appendingPathComponent("cert.pem") }

    /// A transport that trusts this server's certificate (and only it), spilling into `spillFolder`.
    public func trustingTransport(spillThreshold: Int = 4 << 20,
                           spillFolder: URL = FileManager.default.temporaryDirectory) -> CurlTransport {
        CurlTransport(configuration: .init(spillThreshold: spillThreshold, temporaryDirectory: spillFolder,
                                           trustedCertificates: certificate))
    }

    public func stop() {
        child.signalGroup(SIGKILL)
        try? FileManager.default.removeItem(at: folder)
    }

    /// A new empty folder under the temporary directory; the caller removes it.
    public static func temporaryFolder(_ prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Writes a fresh self-signed certificate for 127.0.0.1 and localhost, and its key, into `folder`
    /// as cert.pem and key.pem.
    public static func makeCertificate(in folder: URL) async throws {
        _ = try await SelfSignedCertificate.make(in: folder)
    }

    /// A port the kernel just handed out and released.
    private static func freePort() throws -> UInt16 {
        let server = try LoopbackServer { _ in LoopbackServer.Reply() }
        let port = server.port
        server.stop()
        return port
    }
}
