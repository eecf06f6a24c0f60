import Foundation

/// A request body read as curl asks for it, a buffer at a time: bytes in memory and files streamed from
/// disk, one after another, so a body of any size costs no memory. Files are opened when the transfer is
/// set up (each attempt opens them again) and must be regular files reached without a final symbolic link.
/// It can go back to its start, which curl asks for in some authentication rounds. Loop thread only.
final class UploadSource {
    private enum Piece {
        case bytes(Data)
        case file(descriptor: Int32, size: Int64)

        var size: Int64 {
            switch self {
            case .bytes(let data): Int64(data.count)
            case .file(_, let size): size
            }
        }
    }

    private var pieces: [Piece]
    /// Where the next read starts: the piece, and the offset in it.
    private var index = 0
    private var offset: Int64 = 0
    /// Every byte the body holds, for Content-Length.
    let size: Int64

    /// Opens the files among `parts`; throws `badURL` naming a file that cannot be read.
    init(_ parts: [RequestBodyPart]) throws(APIError) {
        var opened: [Piece] = []
        for part in parts {
            switch part {
            case .data(let data):
                opened.append(.bytes(data))
            case .file(let url):
                let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
                var status = stat()
                guard descriptor >= 0, fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                    let reason = descriptor >= 0 ? "not a regular file" : String(cString: strerror(errno))
                    if descriptor >= 0 { Glibc.close(descriptor) }
                    for case .file(let descriptor, _) in opened { Glibc.close(descriptor) }
                    throw APIError.badURL("cannot read the body file \(url.path): \(reason)")
                }
                opened.append(.file(descriptor: descriptor, size: Int64(status.st_size)))
            }
        }
        pieces = opened
        size = opened.reduce(0) { $0 + $1.size }
    }

    deinit { close() }

    /// Copies the next bytes into `buffer`: how many, 0 at the end, nil when a file cannot be read.
    func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int? {
        while index < pieces.count {
            let piece = pieces[index]
            let left = piece.size - offset
            guard left > 0 else {
                (index, offset) = (index + 1, 0)
                continue
            }
            let wanted = Int(min(Int64(capacity), left))
            let count: Int
            switch piece {
            case .bytes(let data):
                let start = data.startIndex + Int(offset)
                data.copyBytes(to: buffer.assumingMemoryBound(to: UInt8.self), from: start..<(start + wanted))
                count = wanted
            case .file(let descriptor, _):
                let read = pread(descriptor, buffer, wanted, off_t(offset))
                if read < 0 && errno == EINTR { continue }
                guard read > 0 else { return nil }  // an error, or a file that shrank: the length was promised
                count = read
            }
            offset += Int64(count)
            return count
        }
        return 0
    }

    /// Goes back to the first byte.
    func rewind() {
        (index, offset) = (0, 0)
    }

    /// Closes the files; reads after it end the body.
    func close() {
        for case .file(let descriptor, _) in pieces { Glibc.close(descriptor) }
        pieces = []
        index = 0
    }
}
