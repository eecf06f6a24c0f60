import CourierSecurity
import Foundation

/// Writing to the standard streams. Every line passes the sanitiser on its way out, so text a server or
/// a file supplied (a close reason, a request name, a malformed line quoted in an error) can never drive
/// the terminal, even where the code that built the line forgot; JSON output is escaped before it gets
/// here (`Sanitizer.escapedJSON`), and text that is already safe passes unchanged.
enum Console {
    static func out(_ text: String) { FileHandle.standardOutput.write(Data((Sanitizer.escaped(text) + "\n").utf8)) }
    static func error(_ text: String) { FileHandle.standardError.write(Data((Sanitizer.escaped(text) + "\n").utf8)) }
    /// A failure, on standard error with the one prefix every command uses: `Error: what went wrong`.
    static func fail(_ message: String) { error("Error: " + message) }
    /// Says, on standard error, that servers' certificates are not checked and why (`--insecure`, an
    /// environment's `verifyHostCertificate: false`): one wording wherever verification was turned off.
    static func warnUnverified(because reason: String) {
        error("Warning: TLS certificates are not verified (\(reason)); anyone between you and the server "
              + "can read and change the exchange")
    }
}
