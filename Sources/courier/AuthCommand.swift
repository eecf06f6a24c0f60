import CourierHTTP
import CourierSecurity
import Foundation

/// `courier auth ls|clear`: the OAuth 2.0 tokens `courier run` and the explorer keep per environment and
/// `Security.Auth` configuration.
enum AuthCommand {
    /// The command's arguments and options, from which its help, parsing and completions are made.
    static let spec = CommandSpec(
        name: "auth", summary: "List or clear the OAuth 2.0 tokens kept per environment and configuration.",
        options: [
            .option("--env", "ENV", help: "Only this environment's tokens (requests run without --env use \"default\")."),
            .flag("--show-secrets", help: "Print the tokens instead of REDACTED."),
            .flag("--json", help: "One JSON object per kept token."),
        ],
        subcommands: [
            SubcommandSpec("ls", options: ["--env", "--show-secrets", "--json"],
                           summary: "Every kept token: environment, configuration, grant, token URL, expiry, refresh."),
            SubcommandSpec("clear", options: ["--env"],
                           summary: "Forget the tokens (of --env, else all): the next request signs in again."),
        ],
        notes: "Tokens live in $XDG_STATE_HOME/courier/auth (else ~/.local/state/courier/auth),\n"
            + "0600 files in a 0700 folder.")

    static func run(_ arguments: [String]) -> Int32 {
        spec.run(arguments, failing: run)
    }

    private static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let environment = arguments.value("--env")
        let positionals = arguments.positionals
        guard positionals.count == 1, let subcommand = positionals.first else {
            throw UsageError("say what to do: ls or clear", command: "auth")
        }
        let cache = OAuth2TokenCache()
        switch subcommand {
        case "ls":
            let show = arguments.flag("--show-secrets")
            for entry in cache.entries() where environment == nil || entry.environment == environment {
                Console.out(arguments.flag("--json") ? jsonLine(entry, showSecrets: show) : textLine(entry, showSecrets: show))
            }
            return 0
        case "clear":
            let removed = cache.clear(environment: environment)
            Console.out("cleared \(removed) kept \(removed == 1 ? "token" : "tokens")")
            return 0
        default:
            throw UsageError("unknown subcommand '\(subcommand)'; try ls or clear", command: "auth")
        }
    }

    /// `dev  sso  client_credentials  https://id.example.com/token  access REDACTED  expires 2026-…  refresh: yes`
    static func textLine(_ entry: OAuth2TokenCache.Entry, showSecrets: Bool) -> String {
        let credentials = entry.credentials
        let expiry = credentials.expiresAt.map { ISO8601DateFormatter().string(from: $0) } ?? "no expiry given"
        return "\(entry.environment)  \(entry.configuration)  \(entry.grant)  \(entry.tokenURL)  access "
            + (showSecrets ? credentials.accessToken : SecretPolicy.mask) + "  expires \(expiry)  refresh: "
            + (credentials.refreshToken == nil ? "no" : "yes") + (credentials.idToken == nil ? "" : "  id token: yes")
    }

    static func jsonLine(_ entry: OAuth2TokenCache.Entry, showSecrets: Bool) -> String {
        let credentials = entry.credentials
        func shown(_ value: String?) -> Any { value.map { showSecrets ? $0 : SecretPolicy.mask } ?? NSNull() }
        let object: [String: Any] = [
            "environment": entry.environment, "configuration": entry.configuration, "grant": entry.grant,
            "token_url": entry.tokenURL, "access_token": shown(credentials.accessToken),
            "refresh_token": shown(credentials.refreshToken), "id_token": shown(credentials.idToken),
            "expires": credentials.expiresAt.map { ISO8601DateFormatter().string(from: $0) } ?? NSNull(),
        ]
        return CompactJSON.string(object) ?? ""
    }
}
