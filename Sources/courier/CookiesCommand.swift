import CourierCollections
import CourierHTTP
import Foundation

/// `courier cookies ls|clear`: the cookie jars `courier run` and the explorer keep per environment.
enum CookiesCommand {
    /// The command's arguments and options, from which its help, parsing and completions are made.
    static let spec = CommandSpec(
        name: "cookies", summary: "List or clear the cookie jars kept per environment.",
        options: [
            .option("--env", "ENV", help: "Only this environment's jar (requests run without --env use \"default\")."),
            .flag("--show-secrets", help: "Print cookie values instead of REDACTED."),
            .flag("--json", help: "One JSON object per cookie."),
        ],
        subcommands: [
            SubcommandSpec("ls", options: ["--env", "--show-secrets", "--json"],
                           summary: "Every stored cookie: environment, domain, path, name, value, flags, expiry."),
            SubcommandSpec("clear", options: ["--env"], summary: "Empty the jar (of --env, else every jar)."),
        ],
        notes: "Jars live in $XDG_STATE_HOME/courier/cookies (else ~/.local/state/courier/cookies).")

    static func run(_ arguments: [String]) -> Int32 {
        spec.run(arguments, failing: run)
    }

    private static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let environment = arguments.value("--env")
        let json = arguments.flag("--json")
        let showSecrets = arguments.flag("--show-secrets")
        let positionals = arguments.positionals
        guard positionals.count == 1, let subcommand = positionals.first else {
            throw UsageError("say what to do: ls or clear", command: "cookies")
        }
        let store = CookieJarStore()
        let names = environment.map { [$0] } ?? store.names()
        switch subcommand {
        case "ls":
            for name in names {
                for cookie in store.jar(name).all() {
                    Console.out(json ? jsonLine(cookie, jar: name, showSecrets: showSecrets)
                                     : textLine(cookie, jar: name, showSecrets: showSecrets))
                }
            }
            return 0
        case "clear":
            for name in names { store.jar(name).clear() }
            Console.out("cleared \(names.count) cookie \(names.count == 1 ? "jar" : "jars")")
            return 0
        default:
            throw UsageError("unknown subcommand '\(subcommand)'; try ls or clear", command: "cookies")
        }
    }

    /// `dev  .example.com  /  session=REDACTED  Secure HttpOnly SameSite=Lax  expires …`
    static func textLine(_ cookie: Cookie, jar: String, showSecrets: Bool) -> String {
        "\(jar)  \(cookie.listing(showSecrets: showSecrets))"
    }

    static func jsonLine(_ cookie: Cookie, jar: String, showSecrets: Bool) -> String {
        let object: [String: Any] = [
            "environment": jar, "domain": cookie.domain, "host_only": cookie.hostOnly, "path": cookie.path,
            "name": cookie.name, "value": cookie.shownValue(showSecrets: showSecrets), "secure": cookie.secure,
            "http_only": cookie.httpOnly, "same_site": cookie.sameSite ?? NSNull(),
            "expires": cookie.expires.map { ISO8601DateFormatter().string(from: $0) } ?? NSNull(),
        ]
        return CompactJSON.string(object) ?? ""
    }
}
