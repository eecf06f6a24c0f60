import CourierBody
import CourierCollections
import Foundation

/// A save that found its file changed on disk: the two ways out besides reloading (overwrite with the
/// edit, or see how the disk and the edit differ).
extension CollectionStore {
    /// Reads `ref`'s file from disk again and applies the edit to that version: the other program's
    /// changes to the rest of the file stay, and this request becomes the draft.
    public func overwrite(_ ref: RequestRef, _ draft: RequestDraft) throws(CollectionError) -> Collection {
        try refreshFromDisk(ref.file)
        return try save(ref, draft)
    }

    /// A line diff of the file as it is on disk (`-`) against the file the save would write (`+`).
    public func conflictDiff(_ ref: RequestRef, _ draft: RequestDraft) throws(CollectionError) -> [String] {
        let (file, original) = try locate(ref)
        let edited = RequestMapping.template(from: draft, original: original)
        let ours = try file.file.replacing(request: original, with: edited)
        let disk: String
        do { disk = try String(contentsOf: file.url, encoding: .utf8) } catch {
            throw .unreadable(path: file.file.path, reason: "\(error)")
        }
        func split(_ text: String) -> [String] {
            text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        let lines = LineDiff.lines(old: split(disk), new: split(ours))
        guard lines.contains(where: { $0.kind != .context }) else {
            return ["(the file on disk already matches the edit)"]
        }
        return lines.compactMap { line in
            switch line.kind {
            case .context: nil
            case .removed: "- \(line.text)    (on disk, line \((line.oldLine ?? 0) + 1))"
            case .added: "+ \(line.text)"
            }
        }
    }
}
