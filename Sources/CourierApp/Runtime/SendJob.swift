/// What a send needs: the saved request it came from, the edited draft, and the environment.
public struct SendJob: Sendable, Hashable {
    public var ref: RequestRef?
    public var draft: RequestDraft
    public var environment: String?
    /// Values the user typed for the request's `# @prompt` variables; they beat every other source.
    public var answers: [String: String] = [:]
    /// Unlocks the environment's client certificate, as asked for once in the session. A secret.
    public var certificatePassphrase: String?
    /// Files outside the collection's folder the user let requests read (`FilePermissions`).
    public var allowedReads: [String] = []
    /// Files the user let `>>!` replace although Courier did not write them.
    public var allowedOverwrites: Set<String> = []
    public init(ref: RequestRef?, draft: RequestDraft, environment: String?) {
        self.ref = ref
        self.draft = draft
        self.environment = environment
    }
}
