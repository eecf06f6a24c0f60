import CourierHTTP
import Foundation

/// `>> ./file` or `>>! ./file` after a request: `courier run` saves the response body there. `>>` never
/// replaces a file: when the name is taken it writes `name-1.ext`, `name-2.ext`, …; `>>!` replaces it.
/// Paths are relative to the `.http` file and may hold variables.
public struct ResponseRedirect: Sendable, Hashable {
    /// The path as written, variables not yet substituted.
    public var path: String
    /// `>>!`: replace an existing file instead of choosing a free name.
    public var replaces: Bool
    /// 1-based line of the directive.
    public var line: Int

    /// The redirect a `>> file` / `>>! file` directive line holds; nil for anything else.
    public init?(directive: UnsupportedDirective) {
        let text = directive.text.trimmingBlanks
        guard text.hasPrefix(">>") else { return nil }
        let replaces = text.hasPrefix(">>!")
        let path = text.dropFirst(replaces ? 3 : 2).trimmingBlanks
        guard !path.isEmpty else { return nil }
        self.path = path
        self.replaces = replaces
        self.line = directive.line
    }

    /// How many numbered names `>>` tries before giving up (a folder holding that many copies is a mistake).
    static let maximumSuffix = 10_000

    /// Writes `body` to the file this redirect names (`expandedPath`, variables substituted), resolved
    /// against `folder`; returns the URL written. The file appears whole or not at all.
    public func save(_ body: ResponseBody, expandedPath: String, folder: URL) throws(CollectionError) -> URL {
        let requested = (expandedPath.hasPrefix("/") ? URL(fileURLWithPath: expandedPath)
                                                     : folder.appendingPathComponent(expandedPath)).standardizedFileURL
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        guard Self.isInside(requested, anyOf: [folder, current]) else {
            throw .writeFailed(path: expandedPath, reason: "it is outside the .http file's folder and the current "
                               + "folder; a collection only saves responses beside itself")
        }
        let parent = requested.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw .writeFailed(path: expandedPath, reason: "cannot create its folder: \(error.localizedDescription)")
        }
        let target = replaces ? requested : try Self.freeName(for: requested, shown: expandedPath)
        let data: Data
        do { data = try body.readAll() } catch {
            throw .writeFailed(path: expandedPath, reason: "the response body could not be read")
        }
        try CollectionWriter.write(data, to: target, displayPath: expandedPath)
        return target
    }

    /// Whether `url` lies under one of `roots` once `..` and symbolic links are resolved: a collection someone
    /// else wrote cannot drop files elsewhere (`>>! ../../.profile`).
    static func isInside(_ url: URL, anyOf roots: [URL]) -> Bool {
        // The file may not exist yet: resolve the nearest folder that does, then add the rest back.
        var existing = url
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path) && existing.path != "/" {
            rest.insert(existing.lastPathComponent, at: 0)
            existing = existing.deletingLastPathComponent()
        }
        let resolved = rest.reduce(existing.resolvingSymlinksInPath()) { $0.appendingPathComponent($1) }.path
        return roots.contains { root in
            let base = root.standardizedFileURL.resolvingSymlinksInPath().path
            return resolved.hasPrefix(base == "/" ? "/" : base + "/")
        }
    }

    /// `url` when nothing is there, else the first of `stem-1.ext`, `stem-2.ext`, … that is free.
    static func freeName(for url: URL, shown: String) throws(CollectionError) -> URL {
        guard FileManager.default.fileExists(atPath: url.path) else { return url }
        let folder = url.deletingLastPathComponent()
        let ext = url.pathExtension
        let stem = ext.isEmpty ? url.lastPathComponent : String(url.lastPathComponent.dropLast(ext.count + 1))
        for suffix in 1...maximumSuffix {
            let name = ext.isEmpty ? "\(stem)-\(suffix)" : "\(stem)-\(suffix).\(ext)"
            let candidate = folder.appendingPathComponent(name)
            if !FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        throw .writeFailed(path: shown, reason: "\(maximumSuffix) numbered copies exist; use '>>!' to replace one")
    }
}

extension RequestTemplate {
    /// The `>> file` and `>>! file` lines after the request, in file order.
    public var responseRedirects: [ResponseRedirect] { unsupported.compactMap(ResponseRedirect.init(directive:)) }
}
