import CourierHTTP
import Foundation

/// `courier cache ls|show|clear`: what the HTTP cache holds, one entry in detail, or none.
enum CacheCommand {
    /// The command's arguments and options, from which its help, parsing and completions are made.
    static let spec = CommandSpec(
        name: "cache", summary: "List, show or clear the HTTP cache.",
        arguments: [ArgumentSpec("URL", optional: true, help: "The URL of a stored response, as it was requested.")],
        options: [
            .option("--cache-dir", "DIR", .directory,
                    default: "$XDG_CACHE_HOME/courier/http, else ~/.cache/courier/http", help: "The cache folder."),
            .option("--method", "METHOD", default: "GET", help: "The method of the stored response to show."),
            .flag("--body", help: "Also print the stored body (show)."),
            .flag("--json", help: "One JSON object per entry."),
        ],
        subcommands: [
            SubcommandSpec("ls", options: ["--cache-dir", "--json"],
                           summary: "Stored responses, most recently used first, with age and freshness."),
            SubcommandSpec("show", arguments: "URL", options: ["--method", "--body", "--cache-dir", "--json"],
                           summary: "One stored response: status, headers, freshness, validators, body size."),
            SubcommandSpec("clear", options: ["--cache-dir"], summary: "Remove every stored response."),
        ])

    static func run(_ arguments: [String]) -> Int32 {
        spec.run(arguments, failing: run)
    }

    private static func run(_ arguments: ParsedArguments) throws -> Int32 {
        let directory = arguments.value("--cache-dir").map { URL(fileURLWithPath: $0, isDirectory: true) }
        let json = arguments.flag("--json")
        let showBody = arguments.flag("--body")
        let method = arguments.value("--method").map(HTTPMethod.init(rawValue:)) ?? .get
        let positionals = arguments.positionals
        guard let subcommand = positionals.first else {
            throw UsageError("say what to do: ls, show URL or clear", command: "cache")
        }
        let store: HTTPCacheStore
        do {
            store = try HTTPCacheStore(directory: directory)
        } catch {
            Console.fail("cannot open the cache: \(error)")
            return 1
        }
        switch subcommand {
        case "ls":
            guard positionals.count == 1 else { throw UsageError("ls takes no arguments", command: "cache") }
            return list(store, json: json)
        case "show":
            guard positionals.count == 2, let url = URL(string: positionals[1]), url.scheme != nil else {
                throw UsageError("show takes one absolute URL, e.g. courier cache show http://127.0.0.1:8080/etag",
                                 command: "cache")
            }
            return show(store, method: method, url: url, json: json, body: showBody)
        case "clear":
            guard positionals.count == 1 else { throw UsageError("clear takes no arguments", command: "cache") }
            let count = try store.clear()
            Console.out("Removed \(count) stored response\(count == 1 ? "" : "s") from \(store.directory.path)")
            return 0
        default:
            throw UsageError("unknown subcommand '\(subcommand)'; use ls, show or clear", command: "cache")
        }
    }

    // MARK: - ls

    private static func list(_ store: HTTPCacheStore, json: Bool) -> Int32 {
        let summaries = store.summaries()
        let now = Date()
        if json {
            for summary in summaries { Console.out(jsonLine(summary.entry, bytes: summary.bytes, now: now)) }
            return 0
        }
        guard !summaries.isEmpty else {
            Console.out("The cache in \(store.directory.path) is empty.")
            return 0
        }
        Console.out(row("STATUS", "STATE", "AGE", "TTL", "SIZE", "REQUEST"))
        for summary in summaries {
            let freshness = summary.entry.freshness(now: now)
            Console.out(row(String(summary.entry.status), freshness.isFresh ? "fresh" : "stale",
                            seconds(freshness.age), seconds(freshness.ttl), bytes(summary.bytes),
                            "\(summary.entry.method) \(summary.entry.url)"))
        }
        let total = summaries.reduce(0) { $0 + $1.bytes }
        Console.out("\(summaries.count) stored, \(bytes(total)) of \(bytes(store.maxBytes)) in \(store.directory.path)")
        return 0
    }

    private static func row(_ columns: String...) -> String {
        let widths = [6, 6, 8, 8, 9]
        return zip(columns, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: " ")
            + " " + (columns.last ?? "")
    }

    // MARK: - show

    private static func show(_ store: HTTPCacheStore, method: HTTPMethod, url: URL, json: Bool, body: Bool) -> Int32 {
        switch store.lookup(method: method, url: url) {
        case .miss:
            Console.fail("nothing stored for \(method) \(url.absoluteString)")
            return 1
        case .unreadable(let reason):
            Console.fail("the stored entry was unreadable and has been removed (\(reason))")
            return 1
        case .hit(let entry):
            let now = Date()
            if json {
                Console.out(jsonLine(entry, bytes: nil, now: now))
            } else {
                let freshness = entry.freshness(now: now)
                Console.out("\(entry.method) \(entry.url)")
                Console.out("\(entry.httpVersion) \(entry.status) \(entry.reason)".trimmingCharacters(in: .whitespaces))
                for field in entry.headers { Console.out("\(field.name): \(field.value)") }
                Console.out("")
                Console.out("State:      \(freshness.isFresh ? "fresh" : "stale")")
                Console.out("Age:        \(seconds(freshness.age))")
                Console.out("Freshness:  \(seconds(freshness.lifetime)) from \(freshness.source.rawValue), "
                            + "\(seconds(freshness.ttl)) left")
                Console.out("Validators: " + ([entry.etag.map { "ETag \($0)" }, entry.lastModified.map { "Last-Modified \($0)" }]
                    .compactMap { $0 }.joined(separator: ", ").nonEmpty ?? "none"))
                if !entry.selectedRequestHeaders.isEmpty {
                    let selected = entry.selectedRequestHeaders.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                    Console.out("Vary:       \(selected.joined(separator: ", "))")
                }
                Console.out("Stored:     \(HTTPDate.format(entry.storedAt)); body \(bytes(entry.bodySize))")
            }
            if body, let data = try? store.storedBody(of: entry).readAll() {
                FileHandle.standardOutput.write(data)
            }
            return 0
        }
    }

    // MARK: - Formatting

    /// One entry as a JSON object with stable keys, for scripts.
    static func jsonLine(_ entry: HTTPCacheEntry, bytes: Int?, now: Date) -> String {
        let freshness = entry.freshness(now: now)
        var object: [String: Any] = [
            "method": entry.method, "url": entry.url, "status": entry.status,
            "fresh": freshness.isFresh, "age_s": round(freshness.age), "ttl_s": round(freshness.ttl),
            "lifetime_source": freshness.source.rawValue, "body_bytes": entry.bodySize,
            "stored_at": HTTPDate.format(entry.storedAt),
        ]
        if let bytes { object["disk_bytes"] = bytes }
        if let etag = entry.etag { object["etag"] = etag }
        if let lastModified = entry.lastModified { object["last_modified"] = lastModified }
        return CompactJSON.string(object) ?? "{}"
    }

    static func seconds(_ value: Double) -> String {
        let rounded = Int(value.rounded())
        let sign = rounded < 0 ? "-" : ""
        let magnitude = abs(rounded)
        if magnitude < 120 { return "\(sign)\(magnitude)s" }
        if magnitude < 7200 { return "\(sign)\(magnitude / 60)m" }
        if magnitude < 172_800 { return "\(sign)\(magnitude / 3600)h" }
        return "\(sign)\(magnitude / 86_400)d"
    }

    static func bytes(_ count: Int) -> String {
        if count < 1024 { return "\(count) B" }
        if count < 1024 * 1024 { return String(format: "%.1f KB", Double(count) / 1024) }
        return String(format: "%.1f MB", Double(count) / 1_048_576)
    }
}

extension String {
    /// nil for the empty string, for `??` chains.
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
