import CourierHTTP
import Foundation

/// `>> ./file` or `>>! ./file` after a request: `courier run` (and a run block in the explorer) saves the
/// response body there. `>>` never replaces a file: when the name is taken it writes `name-1.ext`,
/// `name-2.ext`, …; `>>!` replaces it when `CollectionFileAccess` allows. Paths are relative to the `.http`
/// file and may hold variables.
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
    /// against `folder`, the folder of the `.http` file holding the request, as `access` allows (only inside
    /// that folder, never hidden files or links, never over a file Courier did not write unless allowed);
    /// returns the URL written and records it in the access's ledger. The file appears whole or not at all.
    public func save(_ body: ResponseBody, expandedPath: String, folder: URL,
                     access: CollectionFileAccess = .init(), request: String = "") throws(CollectionError) -> URL {
        let decision = access.write(expandedPath, in: folder, replacing: replaces)
        let kind: FileAccessRefusal.Access = if case .needsConfirmation = decision { .overwrite } else { .write }
        let allowed = try decision.file(kind, path: expandedPath, request: request, line: line)
        try Self.makeFolders(down: allowed.deletingLastPathComponent(), shown: expandedPath)
        let target = replaces ? allowed : try Self.freeName(for: allowed, shown: expandedPath)
        let data: Data
        do { data = try body.readAll() } catch {
            throw .writeFailed(path: expandedPath, reason: "the response body could not be read")
        }
        try CollectionWriter.write(data, to: target, displayPath: expandedPath)
        access.ledger?.record(target)
        return target
    }

    /// Makes `folder` and the folders above it that are missing, one at a time: `mkdir` never follows a
    /// link it finds in the last place, and the policy checked the ones that exist.
    static func makeFolders(down folder: URL, shown: String) throws(CollectionError) {
        var missing: [String] = []
        var current = folder.path
        var status = stat()
        while lstat(current, &status) != 0 && current != "/" {
            missing.insert(current, at: 0)
            current = (current as NSString).deletingLastPathComponent
        }
        for path in missing where mkdir(path, 0o777) != 0 && errno != EEXIST {
            let reason = String(cString: strerror(errno))
            throw .writeFailed(path: shown, reason: "cannot create its folder: \(reason)")
        }
    }

    /// `url` when nothing is there (not even a link), else the first of `stem-1.ext`, `stem-2.ext`, … that
    /// is free.
    static func freeName(for url: URL, shown: String) throws(CollectionError) -> URL {
        guard exists(url) else { return url }
        let folder = url.deletingLastPathComponent()
        let ext = url.pathExtension
        let stem = ext.isEmpty ? url.lastPathComponent : String(url.lastPathComponent.dropLast(ext.count + 1))
        for suffix in 1...maximumSuffix {
            let name = ext.isEmpty ? "\(stem)-\(suffix)" : "\(stem)-\(suffix).\(ext)"
            let candidate = folder.appendingPathComponent(name)
            if !exists(candidate) { return candidate }
        }
        throw .writeFailed(path: shown, reason: "\(maximumSuffix) numbered copies exist; use '>>!' to replace one")
    }

    /// Whether anything, a dangling link included, has the name.
    private static func exists(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }
}

extension RequestTemplate {
    /// The `>> file` and `>>! file` lines after the request, in file order.
    public var responseRedirects: [ResponseRedirect] { unsupported.compactMap(ResponseRedirect.init(directive:)) }
}
