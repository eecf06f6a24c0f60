/// The open request's session as the panes read it, and switching sessions when another request opens.
extension AppState {
    /// Where the open request's last send is.
    public var response: ResponseState {
        get { session.response }
        set { session.response = newValue }
    }

    /// The Response pane's model of the open request's last response. What it shows and searches masks the
    /// secrets known so far (`screenMasker`): drawn and searched through `lines(masker:)`, and its hex view's
    /// bytes masked by `maskShownHex` after every update.
    public var responsePane: ResponsePaneState? {
        get { session.pane }
        set { session.pane = newValue }
    }

    /// Masks the shown response's hex bytes for the secrets known now, when its hex view needs them.
    mutating func maskShownHex() {
        guard let pane = session.pane else { return }
        let masker = screenMasker
        guard pane.maskedHex != nil || pane.showsHex && masker != nil else { return }
        session.pane?.maskHex(with: masker)
    }

    /// The response before it, of the same request, for the viewer's diff.
    public var previousResponsePane: ResponsePaneState? {
        get { session.previousPane }
        set { session.previousPane = newValue }
    }

    /// The history request key of the shown response, once it has been recorded.
    public var responseKey: String? {
        get { session.historyKey }
        set { session.historyKey = newValue }
    }

    /// Parks the shown session and brings back `identity`'s (or a fresh one): the Response pane follows the
    /// open request.
    mutating func switchSession(to identity: RequestIdentity?) {
        guard identity != sessionIdentity else { return }
        if let current = sessionIdentity { sessions[current] = session }
        sessionIdentity = identity
        session = identity.flatMap { sessions.removeValue(forKey: $0) } ?? RequestSession()
        comparePane = nil
    }

    /// Moves the session of a renamed request to its new identity.
    mutating func renameSession(_ old: RequestIdentity, to new: RequestIdentity) {
        if sessionIdentity == old { sessionIdentity = new }
        if let parked = sessions.removeValue(forKey: old) { sessions[new] = parked }
    }

    /// Changes the session whose last send has `generation`, parked or shown; for the newest generation
    /// that no session sent (a result delivered without a send of its own), the shown one.
    mutating func updateSession(generation: Int, _ change: (inout RequestSession) -> Void) {
        if session.generation == generation {
            change(&session)
        } else if let key = sessions.first(where: { $0.value.generation == generation })?.key, var parked = sessions[key] {
            change(&parked)
            sessions[key] = parked
        } else if generation == self.generation {
            change(&session)
        }
    }
}
