import CourierCollections

/// What the user allowed a collection to touch beyond its own folder in this session: files requests may
/// read (`< /elsewhere/body.json`) and files `>>!` may replace although Courier did not write them. Each
/// file is asked about once a session; a no stands until the explorer quits.
public struct FilePermissions: Sendable, Hashable {
    /// Files the user let requests read, absolute paths in the order allowed.
    public var reads: [String] = []
    /// Files the user let `>>!` replace, absolute paths.
    public var overwrites: Set<String> = []
    /// Every file asked about, whatever the answer.
    public var asked: Set<String> = []

    public init() {}

    /// Records a yes for `file`.
    mutating func allow(_ access: FileAccessRefusal.Access, _ file: String) {
        switch access {
        case .read: if !reads.contains(file) { reads.append(file) }
        case .overwrite: overwrites.insert(file)
        case .write: break
        }
    }
}

extension AppState {
    /// Asks whether the collection may read or replace the file a send was refused (once a session per
    /// file); on yes the send goes again. A refusal nothing can lift (a hidden file, `/proc`) is not asked.
    mutating func askAboutFile(_ refusal: FileAccessRefusal) {
        guard let file = refusal.file, refusal.access != .write, !filePermissions.asked.contains(file) else { return }
        filePermissions.asked.insert(file)
        modals.append(.confirm(ConfirmState(message: refusal.question, onYes: .allowFile(refusal.access, file))))
    }
}
