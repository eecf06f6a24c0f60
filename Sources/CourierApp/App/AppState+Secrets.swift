import CourierSecurity

/// The one secret policy on screen: known secret values are masked in what the explorer draws (response
/// body and headers, diffs, errors, the WebSocket pane, the log) unless the user asked to see them.
extension AppState {
    /// The masker for what the screen draws now; nil while secrets are shown or none is known.
    public var screenMasker: SecretMasker? {
        secretsShown || secretMasker.isEmpty ? nil : secretMasker
    }

    /// `text` as the screen may show it.
    public func screenText(_ text: String) -> String {
        screenMasker?.mask(text) ?? text
    }

    /// A URL as the screen may show it: also its password and secret query values masked.
    public func screenURL(_ url: String) -> String {
        secretsShown ? url : SecretPolicy.maskedURL(url, secrets: knownSecrets)
    }

    /// Remembers secret values a send used, so they are masked from now on wherever they appear.
    mutating func learnSecrets(_ values: Set<String>) {
        let fresh = values.subtracting(knownSecrets)
        guard !fresh.isEmpty else { return }
        knownSecrets.formUnion(fresh)
        secretMasker = SecretMasker(secrets: knownSecrets)
        // Hits found in the text before a secret was masked no longer line up with what is drawn.
        restartSearchAfterMaskChange()
    }

    /// Shows or masks known secret values for the rest of the session (`--show-secrets` starts it shown).
    public mutating func setSecretsShown(_ shown: Bool) {
        guard shown != secretsShown else { return }
        secretsShown = shown
        restartSearchAfterMaskChange()
        status = StatusMessage(shown ? "Secrets are shown on screen for this session"
                                     : "Secrets are masked on screen again", kind: shown ? .error : .success)
    }

    private mutating func restartSearchAfterMaskChange() {
        guard var pane = session.pane, pane.search != nil else { return }
        pane.clearSearch()
        session.pane = pane
    }
}
