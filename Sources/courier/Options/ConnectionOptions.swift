import CourierHTTP
import Foundation

/// The options `send`, `ws` and `run` share for how they reach a server: `-k, --insecure`, `--cacert`, the
/// client certificate (`--cert` and friends), `--idle-timeout`, `--cache-dir` and `--cache-mode`. Each is
/// declared here once (name, value, kind, default) and read once, into typed values, by `init(_:)`; a
/// command places the ones it has in its table, with its own words where what they do differs.
struct ConnectionOptions: Sendable {
    /// `-k, --insecure`: the server's certificate is not verified.
    var insecure = false
    /// `--cacert FILE`: the certificates servers are verified against instead of the system's.
    var trustedCertificates: URL?
    /// `--cert` and friends: presented when the server asks for one.
    var clientCertificate: ClientCertificate?
    /// `--pass`: unlocks the `--cert` key or an environment's certificate. A secret.
    var certificatePassphrase: String?
    /// `--idle-timeout`: no byte for this long fails a transfer; nil waits for ever.
    var idleTimeout: Duration? = .seconds(ParsedArguments.defaultIdleTimeout)
    /// `--cache-dir DIR`.
    var cacheDirectory: URL?
    /// `--cache-mode MODE`: nil when not given.
    var cacheMode: CacheMode?

    // MARK: The declarations

    /// `-k, --insecure`.
    static let insecureSpec = OptionSpec.flag("--insecure", short: "k",
                                              help: "Do not verify the server's TLS certificate.")

    /// `--cacert FILE`, with what the command verifies against it.
    static func trustedCertificatesSpec(help: String) -> OptionSpec {
        .option("--cacert", "FILE", .file, help: help)
    }

    /// `--cert`, `--key`, `--cert-type`, `--key-type`, `--pass`.
    static let clientCertificateSpecs = ClientCertificateOptions.specs

    /// `--idle-timeout SECONDS` (default 30), with what gives up.
    static func idleTimeoutSpec(help: String) -> OptionSpec {
        .option("--idle-timeout", "SECONDS", .number, default: "30", help: help)
    }

    /// `--cache-dir DIR` and `--cache-mode MODE`.
    static let cacheSpecs: [OptionSpec] = [
        .option("--cache-dir", "DIR", .directory, help: "Use the HTTP cache stored in DIR."),
        .option("--cache-mode", "MODE", .choice(CacheMode.allCases.map(\.rawValue)),
                help: "Use the HTTP cache (in ~/.cache/courier unless --cache-dir) in MODE."),
    ]

    // MARK: Reading

    /// The options the command line gave, of those the command declares; files are checked readable now, so
    /// a typo is a usage error naming the option rather than a TLS failure later.
    init(_ args: ParsedArguments) throws(UsageError) {
        insecure = args.declares("--insecure") && args.flag("--insecure")
        if args.declares("--cacert") { trustedCertificates = try args.certificateFile() }
        if args.declares("--cert") {
            clientCertificate = try args.clientCertificate()
            certificatePassphrase = args.value("--pass")
        }
        if args.declares("--idle-timeout") { idleTimeout = try args.idleTimeout() }
        if args.declares("--cache-dir") { cacheDirectory = args.directory("--cache-dir") }
        if args.declares("--cache-mode") { cacheMode = args.choice("--cache-mode", as: CacheMode.self) }
    }
}
