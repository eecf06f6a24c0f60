import Foundation
#if canImport(Glibc)
import Glibc
#endif
import CourierSecurity

/// A body file of the cache folder, opened so that it can be trusted: only a plain name the store
/// itself could have written (no `/`, no `..`, the entry's own stem), opened without following a
/// symbolic link, a regular file of the recorded length whose checksum matches the one recorded
/// when it was written. Anything else is reported, and the store treats it as a miss.
final class CacheBodyFile {
    /// Why a body file cannot be served.
    struct Rejected: Error, CustomStringConvertible {
        var description: String
    }

    let descriptor: Int32
    let size: Int

    /// Opens `name` inside `directory` for the entry stored under `stem`; with `expectedSize` and
    /// `expectedChecksum`, checks both (the checksum reads the whole file once).
    convenience init(directory: URL, name: String, stem: String, expectedSize: Int?,
                     expectedChecksum: String?) throws {
        guard Self.isValidName(name, stem: stem) else {
            throw Rejected(description: "the body file name '\(name)' is not one the cache writes")
        }
        try self.init(path: directory.appendingPathComponent(name).path, label: name)
        if let expectedSize, size != expectedSize {
            throw Rejected(description: "the body file \(name) holds \(size) bytes, not the \(expectedSize) stored")
        }
        if let expectedChecksum, try checksum() != expectedChecksum {
            throw Rejected(description: "the body file \(name) does not match its stored checksum")
        }
    }

    /// Opens the regular file at `path` without following a symbolic link.
    init(path: String, label: String) throws {
        let descriptor = Glibc.open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP ? "is a symbolic link" : String(cString: strerror(errno))
            throw Rejected(description: "the file \(label): \(reason)")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            Glibc.close(descriptor)
            throw Rejected(description: "the file \(label) is not a regular file")
        }
        self.descriptor = descriptor
        size = Int(status.st_size)
    }

    /// The whole file.
    func readAll() throws -> Data {
        var data = Data()
        try read { data.append(contentsOf: $0) }
        return data
    }

    deinit { Glibc.close(descriptor) }

    /// A body name the store writes: `<stem>.<hex id>.body`, nothing else.
    static func isValidName(_ name: String, stem: String) -> Bool {
        guard name.hasPrefix(stem + "."), name.hasSuffix(HTTPCacheStore.bodySuffix) else { return false }
        let id = name.dropFirst(stem.count + 1).dropLast(HTTPCacheStore.bodySuffix.count)
        return !id.isEmpty && id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// The checksum of the whole file, read from the start.
    func checksum() throws -> String {
        var sum = CacheChecksum()
        try read { sum.update($0) }
        return sum.hex
    }

    /// Feeds the whole file, from the start, to `consume` in pieces.
    private func read(_ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        var offset: off_t = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, $0.count, offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Rejected(description: "the file could not be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return }
            try buffer.withUnsafeBytes { try consume(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            offset += off_t(count)
        }
    }

    /// Copies the very file this descriptor has open (not whatever its name points at now) to a new
    /// private file at `destination`: a clone or an in-kernel copy, never a hard link, so whoever gets the
    /// copy (a caller renaming it into the user's `-o FILE`) cannot reach the cache's own file.
    func copy(to destination: URL) throws {
        guard let output = try? AtomicFile.create(destination, mode: 0o600) else {
            throw Rejected(description: "cannot create \(destination.path)")
        }
        defer { Glibc.close(output) }
        do {
            try AtomicFile.copyAll(from: descriptor, to: output, path: destination.path)
        } catch {
            throw Rejected(description: "cannot write \(error)")
        }
    }
}

/// A fast 64-bit checksum of a body, fed in pieces: it catches a body file truncated, replaced or
/// damaged on disk. It is not a defence against someone who can write the cache folder on purpose
/// (that folder is the user's own, mode 0700).
struct CacheChecksum {
    private var hash: UInt64 = 0x9e37_79b9_7f4a_7c15
    private var length: UInt64 = 0
    private var pending: UInt64 = 0
    private var pendingCount = 0

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        // Finish a word left over from the previous piece, byte by byte.
        while pendingCount > 0 && pendingCount < 8 && index < bytes.count {
            pending |= UInt64(bytes[index]) << (8 * UInt64(pendingCount))
            pendingCount += 1
            index += 1
            if pendingCount == 8 { mix(pending); pending = 0; pendingCount = 0 }
        }
        while index + 8 <= bytes.count {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
            index += 8
        }
        while index < bytes.count {
            pending |= UInt64(bytes[index]) << (8 * UInt64(pendingCount))
            pendingCount += 1
            index += 1
        }
        length &+= UInt64(bytes.count)
    }

    mutating func update(_ data: Data) { data.withUnsafeBytes { update($0) } }

    private mutating func mix(_ word: UInt64) {
        hash = (hash ^ (word &* 0xff51_afd7_ed55_8ccd)).rotatedLeft(by: 31) &* 0xc4ce_b9fe_1a85_ec53
    }

    /// The checksum of everything fed so far, with the length folded in, in hex.
    var hex: String {
        var copy = self
        if copy.pendingCount > 0 { copy.mix(copy.pending ^ (UInt64(copy.pendingCount) << 60)) }
        copy.mix(copy.length)
        var final = copy.hash
        final ^= final >> 33
        final = final &* 0xff51_afd7_ed55_8ccd
        final ^= final >> 33
        let text = String(final, radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}

extension UInt64 {
    fileprivate func rotatedLeft(by count: UInt64) -> UInt64 { (self << count) | (self >> (64 - count)) }
}
