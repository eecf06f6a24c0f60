import CourierCollections
import CourierHTTP
import Foundation

/// `courier cookies ls|clear`: the cookie jars `courier run` and the explorer keep per environment.
enum CookiesCommand {
    static let help = """
    OVERVIEW: List or clear the cookie jars kept per environment.

    USAGE: courier cookies ls [--env ENV] [--show-secrets] [--json]
           courier cookies clear [--env ENV]

    OPTIONS:
      --env ENV          Only this environment's jar (requests run without --env use "default").
      --show-secrets     Print cookie values instead of REDACTED.
      --json             One JSON object per cookie.
      -h, --help         Show this help.

    SUBCOMMANDS:
      ls                 Every stored cookie: environment, domain, path, name, value, flags, expiry.
      clear              Empty the jar (of --env, else every jar).

    Jars live in $XDG_STATE_HOME/courier/cookies (else ~/.local/state/courier/cookies).
    """

    static func run(_ arguments: [String]) -> Int32 {
        var arguments = Arguments(arguments, command: "cookies")
        if arguments.wantsHelp() {
            Console.out(help)
            return 0
        }
        do {
            let environment = try arguments.option("--env")
            let json = arguments.flag("--json")
            let showSecrets = arguments.flag("--show-secrets")
            let positionals = try arguments.positionals()
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
        } catch let error as UsageError {
            return error.report()
        } catch {
            Console.error("Error: \(error)")
            return 1
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
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
