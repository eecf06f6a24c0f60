import CourierSecurity
import Foundation

/// `courier COLLECTION.json`: the explorer opens a Postman collection through a converted copy kept in the state
/// folder (`$XDG_STATE_HOME/courier/postman/NAME-HASH/`), made as `courier import postman` makes one, with the
/// environment exports beside the collection. Nothing is written beside the collection; edits saved in the
/// explorer go to the copy and are found again the next time the same collection is opened.
enum PostmanExplorerCopy {
    /// The converted folder and a line saying where it is, when `path` is a Postman collection; nil otherwise.
    /// The process environment (for the state folder) is read only for a collection: reading it for every `.http`
    /// file the explorer opened was a tenth of a millisecond before its first frame.
    static func prepare(_ path: String, environment: [String: String]? = nil)
        throws -> (folder: String, notice: String)? {
        let url = URL(fileURLWithPath: path)
        guard url.pathExtension.lowercased() == "json", let data = try? Data(contentsOf: url),
              PostmanCollectionRun.isCollection(data) else { return nil }
        let environments = PostmanCollectionRun.siblingEnvironments(of: url)
        // One copy per content: the same collection opens the same copy (and its saved edits); a changed one
        // (a new export) gets a copy of its own rather than overwriting edits.
        var identity = data
        for file in environments { identity += (try? Data(contentsOf: URL(fileURLWithPath: file))) ?? Data() }
        let stem = url.deletingPathExtension().lastPathComponent.filter { $0.isLetter || $0.isNumber || "-_.".contains($0) }
        let folder = StateFolder.url("postman", environment: environment ?? ProcessInfo.processInfo.environment)
            .appendingPathComponent("\(stem.prefix(60))-\(Self.hash(identity))", isDirectory: true)
        if !FileManager.default.fileExists(atPath: folder.path) {
            // Converted into a folder of its own first and moved into place whole, so a kill mid-way never
            // leaves a half-converted copy that would be opened as it is next time.
            let parent = folder.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let partial = parent.appendingPathComponent(".partial-\(UUID().uuidString)", isDirectory: true)
            do {
                _ = try ImportCommand.importPostman([path] + environments, output: partial.path, quiet: true)
                try FileManager.default.moveItem(at: partial, to: folder)
            } catch {
                try? FileManager.default.removeItem(at: partial)
                throw error
            }
        }
        return (folder.path, "Postman collection, opened as converted to \(folder.path) (edits are saved there; "
                    + "'courier import postman \(path) -o DIR' puts it in your project)")
    }

    /// FNV-1a over the bytes, as 16 hex digits: names the copy, guards nothing.
    static func hash(_ data: Data) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

