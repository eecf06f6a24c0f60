import Foundation
import CourierBody
import CourierSecurity
import Synchronization

/// Keeps every response on disk under `$XDG_STATE_HOME/courier/history` (default
/// `~/.local/state/courier/history`): one `ID.json` per entry and its body in `ID.body`, secrets redacted
/// before anything is written, bodies past a limit truncated with a note, the whole bounded by count and
/// size (oldest removed first). Every file is written to a temporary name and renamed into place.
///
/// `@unchecked Sendable`: `directory` and `limits` are immutable; `lock` serialises the writes of one process.
public final class HistoryStore: @unchecked Sendable {
    /// Bounds on what history keeps.
    public struct Limits: Sendable, Hashable {
        public var maxEntries: Int
        public var maxTotalBytes: Int
        public var maxBodyBytes: Int
        /// Creates the value from its parts.
        public init(maxEntries: Int = 500, maxTotalBytes: Int = 200 << 20, maxBodyBytes: Int = 2 << 20) {
            self.maxEntries = maxEntries; self.maxTotalBytes = maxTotalBytes; self.maxBodyBytes = maxBodyBytes
        }
    }

    public let directory: URL
    public let limits: Limits
    private let lock = NSLock()
    /// Entries already decoded, by identifier: an entry's file never changes once written, and every recorded
    /// response reads the request's latency from all of them (500 JSON decodes with a full history).
    private let decoded = Mutex<[String: HistoryEntry]>([:])

    /// The default folder: `$XDG_STATE_HOME/courier/history`, else `~/.local/state/courier/history`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        StateFolder.url("history", environment: environment)
    }

    /// A store in `directory`, or in the default XDG folder when nil.
    public init(directory: URL? = nil, limits: Limits = Limits(),
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.directory = directory ?? Self.defaultDirectory(environment: environment)
        self.limits = limits
    }

    // MARK: Writing

    /// Redacts, truncates and stores an entry with its body; returns the entry as stored.
    @discardableResult
    public func record(_ entry: HistoryEntry, body: Data = Data(), secrets: [String] = []) throws(HistoryError) -> HistoryEntry {
        let redactor = Redactor(secrets: secrets)
        var stored = entry
        stored.request.url = redactor.url(entry.request.url)
        stored.request.headers = redactor.headers(entry.request.headers)
        if var template = entry.request.template {
            template.url = redactor.url(template.url)
            template.headers = redactor.headers(template.headers)
            template.body = redactor.text(template.body)
            stored.request.template = template
        }
        stored.error = entry.error.map(redactor.text)
        // Redact a little past the limit first, so truncation can never leave half a secret behind.
        let longest = redactor.longestSecret
        let window = body.count > limits.maxBodyBytes ? body.prefix(limits.maxBodyBytes + longest) : body
        var kept = redactor.body(Data(window))
        if var response = entry.response {
            response.headers = redactor.headers(response.headers)
            response.reason = response.reason.map(redactor.text)
            response.bodyBytes = max(response.bodyBytes, body.count)
            if kept.count > limits.maxBodyBytes {
                kept = kept.prefix(limits.maxBodyBytes)
                response.bodyNote = "truncated: kept \(MediaKind.formatSize(kept.count)) of \(MediaKind.formatSize(body.count))"
            }
            response.storedBodyBytes = kept.count
            stored.response = response
        }
        lock.lock()
        defer { lock.unlock() }
        do {
            try ensureDirectory()
            try write(kept, to: bodyURL(stored.id))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.dateEncodingStrategy = .custom(HistoryEntry.encodeDate)
            let json: Data
            do { json = try encoder.encode(stored) } catch { throw .unreadable(path: directory.path, reason: "\(error)") }
            try write(json, to: entryURL(stored.id))
            try prune()
        }
        return stored
    }

    /// Removes one entry and its body.
    public func remove(id: String) {
        lock.withLock {
            try? FileManager.default.removeItem(at: entryURL(id))
            try? FileManager.default.removeItem(at: bodyURL(id))
        }
        _ = decoded.withLock { $0.removeValue(forKey: id) }
    }

    private func ensureDirectory() throws(HistoryError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .unreadable(path: directory.path, reason: "\(error)")
        }
    }

    /// Writes a private file (0600 from its first byte) atomically.
    private func write(_ data: Data, to url: URL) throws(HistoryError) {
        do {
            try AtomicFile.write(data, to: url, mode: 0o600)
        } catch {
            throw .unreadable(path: error.path, reason: error.reason)
        }
    }

    /// Drops the oldest entries until both the count and the total size are within limits. One listing gives
    /// every file's size (an attribute lookup per file took 18 µs, two per entry).
    private func prune() throws(HistoryError) {
        guard let files = FolderListing.files(in: directory, including: { !$0.hasPrefix(".") }) else {
            throw .unreadable(path: directory.path, reason: "the folder cannot be listed")
        }
        var sizes: [String: Int] = [:]
        for file in files where file.name.hasSuffix(".json") || file.name.hasSuffix(".body") {
            sizes[String(file.name.dropLast(5)), default: 0] += file.size
        }
        var ids = files.filter { $0.name.hasSuffix(".json") }.map { String($0.name.dropLast(5)) }.sorted()
        var total = ids.reduce(0) { $0 + sizes[$1, default: 0] }
        while ids.count > 1 && (ids.count > limits.maxEntries || total > limits.maxTotalBytes) {
            let oldest = ids.removeFirst()
            total -= sizes[oldest] ?? 0
            try? FileManager.default.removeItem(at: entryURL(oldest))
            try? FileManager.default.removeItem(at: bodyURL(oldest))
            _ = decoded.withLock { $0.removeValue(forKey: oldest) }
        }
    }

    // MARK: Reading

    /// Entry identifiers, oldest first (identifiers sort by time).
    private func storedIDs() throws(HistoryError) -> [String] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
                .map { String($0.dropLast(5)) }
                .sorted()
        } catch {
            throw .unreadable(path: directory.path, reason: "\(error)")
        }
    }

    /// Entries newest first, optionally only those of one request (by `# @name`, or method and URL).
    public func list(requestKey: String? = nil) throws(HistoryError) -> [HistoryEntry] {
        let ids = try storedIDs()
        // Entries another process removed are let go.
        let present = Set(ids)
        decoded.withLock { decoded in
            if decoded.count > present.count { decoded = decoded.filter { present.contains($0.key) } }
        }
        return ids.reversed().compactMap { id in try? load(id: id) }
            .filter { requestKey == nil || $0.requestKey == requestKey || $0.request.name == requestKey }
    }

    /// Entries whose method, URL, name, status, error or stored body contain `text` (case-insensitive). An ASCII
    /// `text` is found in the bodies' bytes as they are (`ByteNeedle`); any other in the bytes of the lowercased
    /// bodies, but for a body that is all ASCII, whose lowercasing is ASCII's: there the lowercased text is found
    /// as ASCII text is, and a lowercased text that is not all ASCII cannot be in it.
    public func search(_ text: String) throws(HistoryError) -> [HistoryEntry] {
        let needle = text.lowercased()
        let folded = ByteNeedle(foldingCase: text)
        let lowered = folded == nil ? ByteNeedle(exactly: needle) : nil
        let loweredASCII = folded == nil ? ByteNeedle(foldingCase: needle) : nil
        return try list().filter { entry in
            let fields = [entry.request.method, entry.request.url, entry.request.name ?? "", entry.error ?? "",
                          entry.response.map { String($0.status) } ?? ""]
            if fields.contains(where: { $0.lowercased().contains(needle) }) { return true }
            guard let body = try? self.body(id: entry.id) else { return false }
            if let folded { return folded.occurs(in: body) }
            if ByteNeedle.isASCII(body) { return loweredASCII?.occurs(in: body) ?? false }
            return lowered?.occurs(in: String(decoding: body, as: UTF8.self).lowercased()) ?? false
        }
    }

    /// One entry by identifier (a unique prefix is enough).
    public func load(id: String) throws(HistoryError) -> HistoryEntry {
        let resolved = try resolve(id)
        if let known = decoded.withLock({ $0[resolved] }) { return known }
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .custom(HistoryEntry.decodeDate)
            let entry = try decoder.decode(HistoryEntry.self, from: Data(contentsOf: entryURL(resolved)))
            decoded.withLock { $0[resolved] = entry }
            return entry
        } catch {
            throw .unreadable(path: entryURL(resolved).path, reason: "\(error)")
        }
    }

    /// The stored (redacted, possibly truncated) body of an entry.
    public func body(id: String) throws(HistoryError) -> Data {
        let resolved = try resolve(id)
        guard let data = FileManager.default.contents(atPath: bodyURL(resolved).path) else {
            throw .entryNotFound(id: id)
        }
        return data
    }

    private func resolve(_ id: String) throws(HistoryError) -> String {
        if FileManager.default.fileExists(atPath: entryURL(id).path) { return id }
        let matches = try storedIDs().filter { $0.hasPrefix(id) }
        guard matches.count == 1, !id.isEmpty else { throw .entryNotFound(id: id) }
        return matches[0]
    }

    private func entryURL(_ id: String) -> URL { directory.appendingPathComponent(Self.safe(id) + ".json") }
    private func bodyURL(_ id: String) -> URL { directory.appendingPathComponent(Self.safe(id) + ".body") }

    /// An identifier reduced to file-name characters, so a hostile ID cannot name a path outside the folder.
    private static func safe(_ id: String) -> String {
        String(id.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
    }
}
