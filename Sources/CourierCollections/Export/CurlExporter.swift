import CourierSecurity
import CourierHTTP
import Foundation

/// Writes a resolved request as a curl command that a POSIX shell reads back exactly.
public enum CurlExporter {
    /// The command, one option per line. Credentials and secret values are replaced by `REDACTED`
    /// unless `showSecrets` is set.
    public static func command(for resolved: ResolvedRequest, showSecrets: Bool = false) -> String {
        command(for: resolved.request, secrets: resolved.secrets, showSecrets: showSecrets)
    }

    /// The command for a request and the known secret values that went into it (the explorer's
    /// copy-as-curl, which resolves the request itself).
    public static func command(for request: HTTPRequest, secrets: Set<String>, showSecrets: Bool = false) -> String {
        func clean(_ text: String) -> String { showSecrets ? text : SecretPolicy.masking(text, secrets: secrets) }
        var parts = ["curl"]
        if request.method == .head {
            parts.append("--head")
        } else if request.method != .get || !request.body.isEmpty {
            parts.append("-X \(ShellWords.quote(request.method.rawValue))")
        }
        let url = request.url.absoluteString
        parts.append(ShellWords.quote(showSecrets ? url : SecretPolicy.maskedURL(url, secrets: secrets)))
        let headers = showSecrets ? request.headers : request.headers.redacted(secrets: secrets)
        for field in headers where !CodeRequest.implicitHeaders.contains(field.name.lowercased()) {
            parts.append("-H \(ShellWords.quote("\(field.name): \(field.value)"))")
        }
        switch request.body {
        case .empty:
            break
        case .file(let url):
            parts.append("--data-binary \(ShellWords.quote("@" + url.path))")
        case .parts(let pieces):
            // A multipart body embedding files: its bytes when they fit in memory, else read from the files
            // by the shell, piece after piece, and given to curl on its standard input.
            if let data = CollectionFileAccess.contents(of: pieces) {
                parts.append(dataOption(data, clean: clean))
            } else {
                let reads = pieces.map { piece in
                    switch piece {
                    case .data(let data): "printf %s \(quoteBytes(data))"
                    case .file(let url): "cat \(ShellWords.quote(url.path))"
                    }
                }
                parts[0] = "{ \(reads.joined(separator: "; ")); } | curl"
                parts.append("--data-binary @-")
            }
        case .data(let data):
            if !data.isEmpty { parts.append(dataOption(data, clean: clean)) }
        }
        if request.insecure { parts.append("--insecure") }
        if let certificate = request.clientCertificate {
            // The files, never the passphrase: curl asks for it when the key needs one.
            let path = ShellWords.quote(certificate.certificate.path)
            parts.append("--cert \(path) --cert-type \(certificate.certificateFormat.rawValue)")
            if let key = certificate.key {
                parts.append("--key \(ShellWords.quote(key.path)) --key-type \(certificate.keyFormat.rawValue)")
            }
        }
        if !request.followRedirects { parts.append("--max-redirs 0") } else { parts.append("--location") }
        if let timeout = request.timeout { parts.append("--max-time \(timeout.milliseconds / 1000)") }
        return parts.joined(separator: " \\\n  ")
    }

    /// `--data-raw` with the body's text, or `--data-binary` with its bytes when they are not text.
    static func dataOption(_ data: Data, clean: (String) -> String) -> String {
        if let text = String(data: data, encoding: .utf8), !text.contains("\0") {
            return "--data-raw \(quoteBody(clean(text)))"
        }
        return "--data-binary \(quoteBytes(data))"
    }

    /// Bytes that are not UTF-8 text, as a `$'…'` string of `\xHH` escapes for everything but printable ASCII.
    static func quoteBytes(_ data: Data) -> String {
        "$'" + CodeEscaping.hexEscaped(data, quote: "'") + "'"
    }

    /// Text with control characters (other than newlines and tabs) or invisible ones (bidirectional
    /// overrides, zero-width spaces) uses `$'…'`, so it survives a paste and reads as what it sends.
    static func quoteBody(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { $0 == "\n" || $0 == "\t" || !CodeEscaping.isInvisible($0) }
        if plain { return ShellWords.quote(text) }
        var result = "$'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "'": result += "\\'"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: result += String(format: "\\x%02x", scalar.value)
            case _ where CodeEscaping.isInvisible(scalar):
                result += scalar.value < 0x10000 ? String(format: "\\u%04x", scalar.value)
                    : String(format: "\\U%08x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "'"
    }
}
