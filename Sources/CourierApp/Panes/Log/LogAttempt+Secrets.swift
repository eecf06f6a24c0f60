import CourierSecurity
import Foundation

extension LogAttempt {
    /// The attempt as the screen may draw it: known secret values masked in its URL (secret query values
    /// and a password too), its failure and its scripts' log lines, test messages and error.
    func masked(by masker: SecretMasker?) -> LogAttempt {
        guard let masker else { return self }
        var copy = self
        let url = SecretPolicy.maskedURL(masker.mask(url.absoluteString))
        copy.url = URL(string: url) ?? copy.url
        if case .failure(let kind, let message) = outcome { copy.outcome = .failure(kind: kind, message: masker.mask(message)) }
        if var scripts {
            scripts.logs = scripts.logs.map(masker.mask)
            scripts.tests = scripts.tests.map { var test = $0; test.message = masker.mask(test.message); return test }
            if let message = scripts.error?.message { scripts.error?.message = masker.mask(message) }
            copy.scripts = scripts
        }
        return copy
    }
}
