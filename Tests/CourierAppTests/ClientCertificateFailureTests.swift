import CourierApp
import CourierHTTP
import CourierTerminal
import Testing

/// A failed send forgets the client certificate's passphrase by the failure's typed case, whatever its
/// message says: a TLS failure over the certificate forgets it (so the next send asks), any other keeps it.
struct ClientCertificateFailureTests {
    static func sentWithPassphrase() -> AppState {
        var state = Fixtures.loaded()
        state.certificatePassphrase = "kept"
        state.press(Key(.enter))
        return state
    }

    @Test(arguments: ClientCertificateProblem.allCases)
    func aFailureOverTheClientCertificateForgetsThePassphraseWhateverItsMessage(_ problem: ClientCertificateProblem) {
        // Given a send made with a passphrase
        var state = Self.sentWithPassphrase()
        // When it fails over the client certificate, with a message that does not name it
        let failure = SendFailure(kind: .transport(.tls), message: "TLS: alert number 116", clientCertificate: problem)
        _ = update(&state, .sendFailed(generation: state.generation, failure))
        // Then the passphrase is forgotten
        #expect(state.certificatePassphrase == nil)
    }

    @Test func aTLSFailureNotAboutTheCertificateKeepsThePassphraseEvenWhenItsMessageNamesOne() {
        // Given a send made with a passphrase
        var state = Self.sentWithPassphrase()
        // When it fails verifying the server, in words that mention a client certificate
        let failure = SendFailure(kind: .transport(.tls), message: "TLS: server certificate expired (client certificate ok)")
        _ = update(&state, .sendFailed(generation: state.generation, failure))
        // Then the passphrase is kept
        #expect(state.certificatePassphrase == "kept")
    }
}
