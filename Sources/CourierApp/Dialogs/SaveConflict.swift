/// A save the file on disk refused, with what the user can do about it.
public struct SaveConflict: Sendable, Hashable {
    public var ref: RequestRef
    public var draft: RequestDraft
    public var message: String
    /// The line diff of the file on disk against what the save would write, once asked for.
    public var diff: [String]?
    public var scroll = 0
    public init(ref: RequestRef, draft: RequestDraft, message: String) {
        self.ref = ref
        self.draft = draft
        self.message = message
    }
}
