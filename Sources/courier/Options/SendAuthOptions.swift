import CourierHTTP
import Foundation

/// curl's ways of signing a request in, for `courier send`: `--user USER:PASSWORD` (Basic, or the scheme
/// `--digest`, `--ntlm` or `--negotiate` names, answered by libcurl), and `--aws-sigv4 aws:amz:REGION:SERVICE`,
/// which signs with `--user ACCESS_KEY:SECRET_KEY` (a session token goes as `-H 'X-Amz-Security-Token: …'`).
enum SendAuthOptions {
    /// The options, for the command's table.
    static let specs: [OptionSpec] = [
        .option("--user", short: "u", "USER:PASSWORD", help: "Sign in with Basic (or --digest, --ntlm, "
                    + "--negotiate), or give the access key and secret key of --aws-sigv4. Never printed."),
        .flag("--digest", help: "Answer the server's Digest challenge with --user (RFC 7616)."),
        .flag("--ntlm", help: "Sign in with NTLM as --user (DOMAIN\\user:password)."),
        .flag("--negotiate", help: "Sign in with SPNEGO/Kerberos from your ticket cache (--user ':' or none)."),
        .option("--aws-sigv4", "aws:amz:REGION:SERVICE", help: "Sign the request with AWS Signature Version 4 "
                    + "with --user ACCESS_KEY:SECRET_KEY (a session token: -H 'X-Amz-Security-Token: …')."),
    ]
}

extension ParsedArguments {
    /// Applies `--user`, `--digest`, `--ntlm`, `--negotiate` and `--aws-sigv4` to `request`.
    func applySignIn(to request: inout HTTPRequest) throws(UsageError) {
        let user = value("--user")
        let schemes = [("--digest", HTTPAuthentication.Scheme.digest), ("--ntlm", .ntlm), ("--negotiate", .negotiate)]
            .filter { flag($0.0) }
        if schemes.count > 1 {
            throw UsageError(schemes.map(\.0).joined(separator: " and ") + " exclude each other", command: command)
        }
        let name = user.map { String($0.prefix { $0 != ":" }) } ?? ""
        let password = user.map { text in text.firstIndex(of: ":").map { String(text[text.index(after: $0)...]) } ?? "" }
        if let region = value("--aws-sigv4") {
            guard schemes.isEmpty else {
                throw UsageError("--aws-sigv4 signs the request itself; drop \(schemes[0].0)", command: command)
            }
            guard let user, user.contains(":"), !name.isEmpty, let password, !password.isEmpty else {
                throw UsageError("--aws-sigv4 needs --user ACCESS_KEY:SECRET_KEY", command: command)
            }
            guard let configuration = AWSSigV4Configuration.parse(region, accessKey: name, secretKey: password) else {
                throw UsageError("--aws-sigv4 takes aws:amz:REGION:SERVICE, e.g. aws:amz:us-east-1:execute-api, "
                                     + "not '\(region)'", command: command)
            }
            request.awsSigV4 = configuration
            return
        }
        let scheme = schemes.first?.1
        if scheme == nil, user == nil { return }
        if scheme != .negotiate, user == nil {
            throw UsageError("\(schemes.first?.0 ?? "--user") needs --user USER:PASSWORD", command: command)
        }
        request.authentication = HTTPAuthentication(scheme: scheme ?? .basic, user: name, password: password ?? "")
    }
}
