import Foundation

/// Collects a response body in memory and moves it to a temporary file once it passes the spill
/// threshold, enforcing the maximum size. Used on the transport's thread only.
struct BodySink {
    private let spillThreshold: Int
    private let maxBodySize: Int
    private let directory: URL
    private var buffer = Data()
    private var file: FileHandle?
    private var fileURL: URL?
    private(set) var received = 0
    /// Why the transfer was stopped from here (size limit, disk error), when it was.
    private(set) var failure: APIError?

    init(configuration: CurlTransport.Configuration) {
        spillThreshold = configuration.spillThreshold
        maxBodySize = configuration.maxBodySize
        directory = configuration.temporaryDirectory
    }

    /// Adds a chunk; false stops the transfer (the reason is in `failure`).
    mutating func append(_ chunk: Data) -> Bool {
        guard received + chunk.count <= maxBodySize else {
            failure = .tooLarge(limit: maxBodySize)
            return false
        }
        received += chunk.count
        do {
            if let file {
                try file.write(contentsOf: chunk)
            } else {
                buffer.append(chunk)
                if buffer.count > spillThreshold { try spill() }
            }
            return true
        } catch {
            failure = error as? APIError ?? .disk(underlying: "cannot write the body to disk: \(Self.describe(error))")
            return false
        }
    }

    /// The complete body; a spilled body's file now belongs to the caller.
    mutating func finish() throws -> ResponseBody {
        guard let file, let fileURL else { return .data(buffer) }
        do {
            try file.close()
        } catch {
            discard()
            throw APIError.disk(underlying: "cannot write the body to disk: \(Self.describe(error))")
        }
        self.file = nil
        self.fileURL = nil
        return .file(fileURL, size: received)
    }

    /// Drops a partial body and its file.
    mutating func discard() {
        try? file?.close()
        if let fileURL { try? FileManager.default.removeItem(at: fileURL) }
        file = nil
        fileURL = nil
        buffer = Data()
    }

    /// The error's own words, with the POSIX reason ("No space left on device") when there is one.
    static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
            return "\(error.localizedDescription) (\(String(cString: strerror(Int32(posix.code)))))"
        }
        return error.localizedDescription
    }

    private mutating func spill() throws {
        let url = directory.appendingPathComponent("courier-body-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil,
                                             attributes: [.posixPermissions: 0o600]) else {
            throw APIError.disk(underlying: "cannot create \(url.path): \(String(cString: strerror(errno)))")
        }
        let handle = try FileHandle(forWritingTo: url)
        fileURL = url
        file = handle
        try handle.write(contentsOf: buffer)
        buffer = Data()
    }
}
