import CourierHTTP
import CourierSecurity
import Foundation

/// `-o FILE`: the body streams to a temporary file beside FILE while it arrives (the transport's
/// spill file, placed in FILE's folder) and is renamed over FILE once complete, so FILE is never
/// half-written and a large body never sits in memory. A FILE that is not a regular file (`/dev/null`,
/// `/dev/stdout`, a pipe) is written into as it is: renaming over it would replace the device itself.
enum BodyFile {
    /// Past this many bytes the transport writes the body to disk instead of memory.
    static let spillThreshold = 256 << 10

    /// The transport's configuration for a body going to `output`: spilled early, next to it.
    static func transportConfiguration(for output: URL?) -> CurlTransport.Configuration {
        guard let output else { return CurlTransport.Configuration() }
        if isSpecial(output) {
            return CurlTransport.Configuration(spillThreshold: spillThreshold, maxBodySize: .max)
        }
        // No size limit: the body goes to disk as it arrives, so only the disk bounds it (a full disk is
        // reported as a write error).
        return CurlTransport.Configuration(spillThreshold: spillThreshold, maxBodySize: .max,
                                           temporaryDirectory: output.deletingLastPathComponent())
    }

    /// Puts the complete body at `url`: a spilled file beside it is renamed, anything else is
    /// written to a temporary file there and renamed.
    static func save(_ body: ResponseBody, to url: URL) throws {
        if isSpecial(url) { return try writeInto(url, body) }
        switch body {
        case .data(let data):
            try AtomicFile.write(data, to: url)
        case .file(let source, _):
            let folder = url.deletingLastPathComponent().standardizedFileURL.path
            if source.deletingLastPathComponent().standardizedFileURL.path == folder {
                // Spill files are private (0600); the saved body gets the usual 0666 less the umask.
                _ = chmod(source.path, 0o666 & ~currentUmask())
                try rename(source, to: url)
                TemporaryBodyFiles.forget(source)
            } else {
                // Not ours to move (another folder, or the cache's link): copy it beside FILE first.
                let staging = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).part")
                try? FileManager.default.removeItem(at: staging)
                try FileManager.default.copyItem(at: source, to: staging)
                try rename(staging, to: url)
            }
        }
    }

    /// Whether `url` exists and is something other than a regular file or a link to one: a device, a pipe
    /// or a socket, which is opened and written, never replaced.
    static func isSpecial(_ url: URL) -> Bool {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return false }
        return (info.st_mode & S_IFMT) != S_IFREG
    }

    /// Copies the body into a device or pipe in chunks, then drops the spill file.
    private static func writeInto(_ url: URL, _ body: ResponseBody) throws {
        guard let sink = FileHandle(forWritingAtPath: url.path) else {
            throw RenameError(destination: url.path, reason: String(cString: strerror(errno)))
        }
        defer { try? sink.close() }
        switch body {
        case .data(let data):
            try sink.write(contentsOf: data)
        case .file(let source, _):
            defer { TemporaryBodyFiles.release(body) }
            let reader = try FileHandle(forReadingFrom: source)
            defer { try? reader.close() }
            while let chunk = try reader.read(upToCount: 1 << 20), !chunk.isEmpty {
                try sink.write(contentsOf: chunk)
            }
        }
    }

    private static func rename(_ source: URL, to destination: URL) throws {
        guard Foundation.rename(source.path, destination.path) == 0 else {
            throw RenameError(destination: destination.path, reason: String(cString: strerror(errno)))
        }
    }

    private static func currentUmask() -> mode_t {
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}

/// A finished body could not be put in place.
struct RenameError: LocalizedError {
    let destination: String
    let reason: String
    var errorDescription: String? { "cannot move the body into \(destination): \(reason)" }
}
