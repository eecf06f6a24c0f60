import CourierBody
import CourierHTTP
import CourierHistory
import CourierSecurity
import Foundation

/// `courier history`: lists, shows and searches the responses Courier has kept.
enum HistoryCommand {
    /// The command's arguments and options, from which its help, parsing and completions are made.
    static let spec = CommandSpec(
        name: "history", summary: "List and show past responses.",
        overview: "List, show and search past responses (secrets are redacted when they are kept).",
        arguments: [
            ArgumentSpec("ID", optional: true, help: "An entry's identifier, or a unique prefix of it."),
            ArgumentSpec("TEXT", optional: true,
                         help: "Text to find in method, URL, name, status or the kept body."),
        ],
        options: [
            .option("--name", "NAME", help: "Only entries of this request (its # @name, or \"METHOD URL\")."),
            .flag("--json", help: "One JSON object per entry, stable for scripts."),
            .option("--dir", "DIR", .directory,
                    default: "$XDG_STATE_HOME/courier/history or ~/.local/state/courier/history",
                    help: "The history folder."),
        ],
        subcommands: [
            SubcommandSpec("list", options: ["--name", "--json", "--dir"],
                           summary: "Past responses, newest first (the default)."),
            SubcommandSpec("show", arguments: "ID", options: ["--json", "--dir"],
                           summary: "One response in full."),
            SubcommandSpec("search", arguments: "TEXT", options: ["--json", "--dir"],
                           summary: "The responses whose request or kept body holds TEXT."),
        ])

    static func run(_ arguments: [String]) -> Int32 {
        spec.run(arguments, failing: run)
    }

    private static func run(_ reader: ParsedArguments) throws -> Int32 {
        let json = reader.flag("--json")
        let name = reader.value("--name")
        let directory = reader.value("--dir").map { URL(fileURLWithPath: $0) }
        let words = reader.positionals
        let store = HistoryStore(directory: directory)
        switch words.first ?? "list" {
        case "list":
            guard words.count <= 1 else { throw UsageError("unexpected '\(words[1])'", command: "history") }
            return try printList(store.list(requestKey: name), json: json,
                                 none: name.map { "no history for \($0)" } ?? "no history yet")
        case "search":
            guard words.count == 2 else { throw UsageError("search takes one TEXT", command: "history") }
            return try printList(store.search(words[1]), json: json, none: "nothing in history holds '\(words[1])'")
        case "show":
            guard words.count == 2 else { throw UsageError("show takes one ID", command: "history") }
            return try show(store, id: words[1], json: json)
        default:
            throw UsageError("unknown history command '\(words[0])'; use list, show or search", command: "history")
        }
    }

    /// The entries, one line each (or one JSON object each); `none` when there are none.
    private static func printList(_ entries: [HistoryEntry], json: Bool, none: String) throws -> Int32 {
        if json {
            for entry in entries { Console.out(try encode(entry, body: nil)) }
            return 0
        }
        if entries.isEmpty { Console.out(none); return 0 }
        for entry in entries {
            let status = entry.response.map { String($0.status) } ?? "ERR"
            let time = (entry.timing.total.map { DurationText.format(seconds: $0) } ?? "-").leftPadded(to: 8)
            let size = entry.response.map { MediaKind.formatSize($0.bodyBytes) } ?? ""
            let label = entry.request.name.map { "\($0)  " } ?? ""
            Console.out(Sanitizer.sanitize("\(entry.id)  \(status)  \(time)  \(label)\(entry.request.method) \(entry.request.url)  \(size)"))
        }
        return 0
    }

    private static func show(_ store: HistoryStore, id: String, json: Bool) throws -> Int32 {
        let entry = try store.load(id: id)
        let body = (try? store.body(id: entry.id)) ?? Data()
        if json { Console.out(try encode(entry, body: body)); return 0 }
        var lines = ["\(entry.request.method) \(entry.request.url)"]
        if let name = entry.request.name { lines.append("name: \(name)") }
        lines.append("date: \(ISO8601DateFormatter().string(from: entry.date))")
        lines += entry.request.headers.map { "> \($0.name): \($0.value)" }
        if let response = entry.response {
            // HTTP/2 has no reason phrase: the status stands alone rather than with a dangling space.
            lines.append("< \(response.status)" + (response.reason.flatMap { $0.isEmpty ? nil : " \($0)" } ?? ""))
            lines += response.headers.map { "< \($0.name): \($0.value)" }
            if let note = response.bodyNote { lines.append("(\(note))") }
        }
        if let error = entry.error { lines.append("Error: \(error)") }
        if let total = entry.timing.total { lines.append("time: " + DurationText.format(seconds: total)) }
        if let cache = entry.cacheDecision { lines.append("cache: \(cache)") }
        lines.append("")
        for line in lines { Console.out(Sanitizer.sanitize(line)) }
        Console.out(Sanitizer.sanitize(String(decoding: body, as: UTF8.self), keepingLayout: true))
        if let response = entry.response, response.storedBodyBytes < response.bodyBytes {
            // The body above stops where history stopped keeping it, maybe mid-JSON: say so where it ends.
            Console.out("… truncated at \(MediaKind.formatSize(response.storedBodyBytes)) of "
                        + "\(MediaKind.formatSize(response.bodyBytes)): history keeps the start of a large body; "
                        + "send the request again with courier send … -o FILE for all of it")
        }
        return 0
    }

    private static func encode(_ entry: HistoryEntry, body: Data?) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom(HistoryEntry.encodeDate)
        var object = try JSONSerialization.jsonObject(with: encoder.encode(entry)) as? [String: Any] ?? [:]
        if let body { object["body"] = String(decoding: body, as: UTF8.self) }
        return CompactJSON.string(object) ?? "{}"
    }
}

