import Foundation

extension CodeRequest {
    /// The lines every export starts with (without comment markers): where the request comes from, how the
    /// code gets each secret, and what it does differently from Courier.
    ///
    /// - Parameter parameters: secrets are the function's parameters (Swift) rather than environment variables.
    public func introduction(secretsAsParameters parameters: Bool = false) -> [String] {
        let origin = fileName.map { " from \($0)" } ?? ""
        var lines = ["'\(Sanitized.comment(name))'\(origin), as Courier sends it."]
        if !secrets.isEmpty {
            if parameters {
                lines.append("Secrets are parameters, never written here:")
                for secret in secrets { lines.append("  \(secret.parameterName): \(Sanitized.comment(secret.about))") }
            } else {
                lines.append("Secrets are read from the environment, never written here:")
                for secret in secrets {
                    lines.append("  \(secret.environmentName): \(Sanitized.comment(secret.about))")
                }
            }
        }
        lines += notes.map { "Note: " + Sanitized.comment($0) }
        return lines
    }
}

/// Text from a collection that goes into a comment: one line, no control or invisible characters.
enum Sanitized {
    static func comment(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            result.unicodeScalars.append(CodeEscaping.isInvisible(scalar) ? "?" : scalar)
        }
        return result
    }
}
