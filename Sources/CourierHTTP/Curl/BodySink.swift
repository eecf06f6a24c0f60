import CourierSecurity
import Foundation

/// Collects a response body in memory and moves it to a temporary file once it passes the spill
/// threshold, enforcing the maximum size. Used on the transport's thread only.
struct BodySink {
    private let spillThreshold: Int
    private let maxBodySize: Int
    private let maxDecodedBodySize: Int
    /// Nil for the system's temporary folder, looked up when the body spills.
    private let directory: URL?
    private var buffer = Data()
    private var file: FileHandle?
    private var fileURL: URL?
    private(set) var received = 0
    /// False once the caller consumes the body as it arrives (`RequestContext.keepsBody`).
    private var keeping = true
    /// Why the transfer was stopped from here (size limit, disk error), when it was.
    private(set) var failure: APIError?

    init(configuration: CurlTransport.Configuration) {
        spillThreshold = configuration.spillThreshold
        maxBodySize = configuration.maxBodySize
        maxDecodedBodySize = configuration.maxDecodedBodySize
        directory = configuration.chosenTemporaryDirectory
    }

    /// Adds a chunk; false stops the transfer (the reason is in `failure`). `encoded` says the chunk was
    /// decoded from a Content-Encoding, whose smaller limit stops a decompression bomb early.
    mutating func append(_ chunk: UnsafeRawBufferPointer, encoded: Bool = false) -> Bool {
        guard keeping || encoded else {
            // Nothing is kept, so there is nothing to limit: an endless stream may run for ever.
            received += chunk.count
            return true
        }
        let limit = encoded ? min(maxBodySize, maxDecodedBodySize) : maxBodySize
        guard received + chunk.count <= limit else {
            failure = .tooLarge(limit: limit)
            return false
        }
        received += chunk.count
        do throws(APIError) {
            if let file {
                try Self.write(Data(chunk), to: file)
            } else {
                buffer.append(contentsOf: chunk)
                if buffer.count > spillThreshold { try spill() }
            }
            return true
        } catch {
            failure = error
            return false
        }
    }

    /// The complete body; a spilled body's file now belongs to the caller.
    mutating func finish() throws(APIError) -> ResponseBody {
        guard keeping else { return .data(Data()) }
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

    /// Stops the transfer from here with `error`: what was kept is dropped.
    mutating func fail(_ error: APIError) {
        failure = error
        discard()
    }

    /// Stops keeping the body: what was kept (and its file) is dropped, later chunks are only counted.
    mutating func stopKeeping() {
        guard keeping else { return }
        discard()
        keeping = false
    }

    /// Drops a partial body and its file.
    mutating func discard() {
        try? file?.close()
        if let fileURL { TemporaryBodyFiles.release(fileURL) }
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

    private mutating func spill() throws(APIError) {
        // Named with the process id, so a later process can tell a leftover of a dead one from a live file.
        let url = TemporaryBodyFiles.makeURL(in: directory ?? FileManager.default.temporaryDirectory)
        // Registered before it exists: a signal between creating and registering would leave it behind.
        TemporaryBodyFiles.register(url)
        let descriptor: Int32
        do {
            descriptor = try AtomicFile.create(url, mode: 0o600)
        } catch {
            TemporaryBodyFiles.forget(url)
            throw APIError.disk(underlying: "cannot create \(error)")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        fileURL = url
        file = handle
        try Self.write(buffer, to: handle)
        buffer = Data()
    }

    /// Writes to the spill file; a failure here is this machine's (a full disk), never the server's.
    private static func write(_ bytes: Data, to file: FileHandle) throws(APIError) {
        do {
            try file.write(contentsOf: bytes)
        } catch {
            throw .disk(underlying: "cannot write the body to disk: \(describe(error))")
        }
    }
}
