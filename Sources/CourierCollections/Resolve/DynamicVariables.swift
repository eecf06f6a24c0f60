import Foundation

/// The `{{$name …}}` values of the three dialects Courier reads: the JetBrains HTTP Client
/// (`$random.integer(1, 10)`), the VS Code REST Client (`$datetime iso8601 -1 d`) and Postman (`$randomEmail`).
/// Each expression gives a fresh value; the clock and the random source come from `DynamicValues`.
struct DynamicVariables {
    /// What a dynamic variable may read besides the clock and the random source.
    struct Sources {
        var dynamic: DynamicValues
        var processEnvironment: [String: String]
        /// `.env` beside the `.http` file, read on first use.
        var dotenv: () throws(CollectionError) -> [String: String]
        /// `%name` in `$processEnv %name` and `$dotenv %name` names an environment variable holding the name.
        var environmentValue: (String) -> String?
        /// The `.http` file's folder, where `$projectRoot` starts looking.
        var folder: URL? = nil
    }

    /// Why an expression has no value: the message finishes "bad dynamic variable '…': ".
    struct Failure: Error {
        var reason: String
        /// A missing `$processEnv` or `$dotenv` name, reported as an unknown variable instead.
        var missingName = false
    }

    /// The value, and whether it is a secret (process environment and `.env` values are).
    typealias Value = (text: String, isSecret: Bool)

    let sources: Sources

    /// Names listed in error messages, by dialect.
    static let known = "$uuid $guid $timestamp $isoTimestamp $datetime $localDatetime $date $randomInt $processEnv "
        + "$projectRoot $historyFolder $env.NAME $dotenv $random.* (integer, float, alphabetic, alphanumeric, numeric, hexadecimal, email, "
        + "uuid) and Postman's $random* names (see Collections/README.md)"

    func value(_ expression: String) throws(Failure) -> Value {
        if expression.hasPrefix("$random.") { return (try jetBrainsRandom(String(expression.dropFirst(8))), false) }
        if expression.hasPrefix("$env.") {
            // JetBrains' spelling of `$processEnv NAME`: the process environment, a secret like it.
            let key = String(expression.dropFirst(5))
            guard let found = sources.processEnvironment[key] else {
                throw Failure(reason: key, missingName: true)
            }
            return (found, true)
        }
        let words = Self.words(expression)
        let name = words.first ?? expression
        let arguments = Array(words.dropFirst())
        let now = sources.dynamic.now()
        switch name {
        case "$uuid", "$guid", "$randomUUID":
            try noArguments(arguments, name)
            return (sources.dynamic.uuid(), false)
        case "$timestamp":
            let date = try offset(now, arguments, usage: "'$timestamp' or '$timestamp OFFSET UNIT' (e.g. -1 d)")
            return (String(Int64(date.timeIntervalSince1970.rounded(.down))), false)
        case "$isoTimestamp":
            try noArguments(arguments, name)
            return (DateText.iso8601(now, zone: .utc, milliseconds: true), false)
        case "$datetime", "$localDatetime":
            return (try datetime(now, arguments, local: name == "$localDatetime"), false)
        case "$date":
            // kulala.nvim's local date, `2025-05-07`.
            try noArguments(arguments, name)
            return (try datetime(now, ["YYYY-MM-DD"], local: true), false)
        case "$randomInt":
            return (try randomInt(arguments), false)
        case "$processEnv", "$dotenv":
            guard arguments.count == 1 else { throw Failure(reason: "expected '\(name) NAME' or '\(name) %NAME'") }
            var key = arguments[0]
            if key.hasPrefix("%") {
                let indirect = String(key.dropFirst())
                guard let named = sources.environmentValue(indirect) else {
                    throw Failure(reason: "'%\(indirect)' names no variable of the selected environment")
                }
                key = named
            }
            let table: [String: String]
            if name == "$processEnv" {
                table = sources.processEnvironment
            } else {
                do throws(CollectionError) { table = try sources.dotenv() } catch {
                    throw Failure(reason: error.description)
                }
            }
            guard let found = table[key] else { throw Failure(reason: key, missingName: true) }
            return (found, true)
        case "$projectRoot", "$historyFolder":
            try noArguments(arguments, name)
            guard let folder = sources.folder else { throw Failure(reason: "the request has no file to start from") }
            let root = Self.projectRoot(from: folder)
            return (name == "$projectRoot" ? root.path : root.appendingPathComponent(".idea/httpRequests").path, false)
        case "$aadToken", "$aadV2Token", "$oidcAccessToken":
            // The REST Client signs in through VS Code's browser flow; a terminal run has no such session.
            throw Failure(reason: "the VS Code REST Client's '\(name)' signs in to Azure AD (or OpenID Connect) "
                + "through VS Code, which Courier cannot; get a token (for example 'az account get-access-token') "
                + "and pass it as a variable: --var token=… with 'Authorization: Bearer {{token}}'")
        default:
            try noArguments(arguments, name)
            if let postman = PostmanFaker(random: sources.dynamic, now: now).value(name) { return (postman, false) }
            throw Failure(reason: "not a dynamic variable Courier knows; known: \(Self.known)")
        }
    }

    // MARK: - JetBrains paths

    /// JetBrains' `$projectRoot`: the IDE project holding the file, taken as the nearest folder at or above
    /// the file's that holds `.idea` or `.git`; the file's own folder when none does.
    static func projectRoot(from folder: URL) -> URL {
        var candidate = folder.standardizedFileURL
        while true {
            for marker in [".idea", ".git"]
            where FileManager.default.fileExists(atPath: candidate.appendingPathComponent(marker).path) {
                return candidate
            }
            let parent = candidate.deletingLastPathComponent()
            guard parent.path != candidate.path else { return folder.standardizedFileURL }
            candidate = parent
        }
    }

    // MARK: - VS Code REST Client

    /// Splits on blanks, keeping `"…"` and `'…'` (custom date formats) as one word without the quotes.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        var hasWord = false
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                hasWord = true
            } else if character == " " || character == "\t" {
                if hasWord { words.append(current); current = ""; hasWord = false }
            } else {
                current.append(character)
                hasWord = true
            }
        }
        if hasWord { words.append(current) }
        return words
    }

    private func noArguments(_ arguments: [String], _ name: String) throws(Failure) {
        guard arguments.isEmpty else { throw Failure(reason: "'\(name)' takes no arguments") }
    }

    /// `OFFSET UNIT` after a date variable: `-1 d`, `2 h`, `30 m`; units y M w d h m s ms.
    private func offset(_ date: Date, _ arguments: [String], usage: String) throws(Failure) -> Date {
        if arguments.isEmpty { return date }
        guard arguments.count == 2, let amount = Int(arguments[0]) else { throw Failure(reason: "expected \(usage)") }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? calendar.timeZone
        let component: Calendar.Component
        switch arguments[1] {
        case "y": component = .year
        case "M": component = .month
        case "w": return date.addingTimeInterval(Double(amount) * 7 * 86_400)
        case "d": return date.addingTimeInterval(Double(amount) * 86_400)
        case "h": return date.addingTimeInterval(Double(amount) * 3_600)
        case "m": return date.addingTimeInterval(Double(amount) * 60)
        case "s": return date.addingTimeInterval(Double(amount))
        case "ms": return date.addingTimeInterval(Double(amount) / 1_000)
        default: throw Failure(reason: "unknown offset unit '\(arguments[1])'; use y, M, w, d, h, m, s or ms")
        }
        guard let moved = calendar.date(byAdding: component, value: amount, to: date) else {
            throw Failure(reason: "offset out of range")
        }
        return moved
    }

    /// `$datetime rfc1123|iso8601|"format" [OFFSET UNIT]`; `$localDatetime` the same in the local time zone.
    private func datetime(_ now: Date, _ arguments: [String], local: Bool) throws(Failure) -> String {
        let name = local ? "$localDatetime" : "$datetime"
        guard let format = arguments.first else {
            throw Failure(reason: "expected '\(name) rfc1123', '\(name) iso8601' or '\(name) \"YYYY-MM-DD\"'")
        }
        let date = try offset(now, Array(arguments.dropFirst()),
                              usage: "'\(name) \(format) OFFSET UNIT' (e.g. -1 d)")
        let zone: TimeZone = local ? sources.dynamic.timeZone : .utc
        switch format {
        case "rfc1123": return DateText.rfc1123(date, zone: zone)
        case "iso8601": return DateText.iso8601(date, zone: zone, milliseconds: !local)
        default: return DateText.format(date, pattern: format, zone: zone)
        }
    }

    /// VS Code's `$randomInt MIN MAX` (MAX excluded); without arguments 0 to 1000 as the other tools.
    private func randomInt(_ arguments: [String]) throws(Failure) -> String {
        let numbers = arguments.compactMap { Int($0) }
        guard numbers.count == arguments.count, arguments.isEmpty || arguments.count == 2 else {
            throw Failure(reason: "expected '$randomInt' or '$randomInt MIN MAX'")
        }
        // httpyac takes the bounds in either order.
        let (low, high) = numbers.isEmpty ? (0, 1000) : (min(numbers[0], numbers[1]), max(numbers[0], numbers[1]))
        guard low < high else { throw Failure(reason: "MIN and MAX must differ") }
        return String(sources.dynamic.randomInt(low..<high))
    }

    // MARK: - JetBrains HTTP Client

    /// Largest length a `$random.alphabetic(n)`-style call may ask for.
    static let maximumRandomLength = 65_536

    /// `$random.integer(from, to)`, `$random.float(from, to)`, `$random.alphabetic(n)`… (`.` already removed).
    private func jetBrainsRandom(_ call: String) throws(Failure) -> String {
        var name = call
        var arguments: [String] = []
        if let open = call.firstIndex(of: "(") {
            guard call.hasSuffix(")") else { throw Failure(reason: "missing ')'") }
            name = String(call[..<open])
            let inside = call[call.index(after: open)..<call.index(before: call.endIndex)]
            arguments = inside.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let random = sources.dynamic
        switch name {
        case "uuid": return random.uuid()
        case "email": return PostmanFaker(random: random, now: random.now()).email()
        case "integer":
            let bounds = try numbers(arguments, defaults: (0, 1000), name: name)
            let (low, high) = (Int(bounds.0), Int(bounds.1))
            guard low < high else { throw Failure(reason: "'from' must be below 'to'") }
            return String(random.randomInt(low..<high))
        case "float":
            let (low, high) = try numbers(arguments, defaults: (0, 1000), name: name)
            guard low < high else { throw Failure(reason: "'from' must be below 'to'") }
            let fraction = Double(random.randomInt(0..<1_000_000)) / 1_000_000
            return String(low + (high - low) * fraction)
        case "alphabetic", "alphanumeric", "numeric", "hexadecimal":
            guard arguments.count == 1, let length = Int(arguments[0]), length >= 0,
                  length <= Self.maximumRandomLength else {
                throw Failure(reason: "expected '$random.\(name)(LENGTH)' with LENGTH 0 to \(Self.maximumRandomLength)")
            }
            let alphabet: [Character] = switch name {
            case "alphabetic": Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
            case "alphanumeric": Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
            case "numeric": Array("0123456789")
            default: Array("0123456789abcdef")
            }
            return String((0..<length).map { _ in alphabet[random.randomInt(0..<alphabet.count)] })
        case let faker where JetBrainsFaker.postmanNames[faker] != nil && arguments.isEmpty:
            return try value(JetBrainsFaker.postmanNames[faker] ?? "").text
        default:
            throw Failure(reason: "known: $random.integer(from, to), $random.float(from, to), "
                          + "$random.alphabetic(n), $random.alphanumeric(n), $random.numeric(n), "
                          + "$random.hexadecimal(n), $random.email, $random.uuid and the Faker names "
                          + JetBrainsFaker.postmanNames.keys.sorted().map { "$random." + $0 }.joined(separator: ", "))
        }
    }

    private func numbers(_ arguments: [String], defaults: (Double, Double),
                         name: String) throws(Failure) -> (Double, Double) {
        if arguments.isEmpty { return defaults }
        // One argument, which the reference does not describe, is written in the wild as the upper bound
        // (`max={{$random.integer(100)}}`): from the default lower bound up to it.
        if arguments.count == 1, let high = Double(arguments[0]), high.isFinite, abs(high) < 1e15 {
            guard high > defaults.0 else { throw Failure(reason: "'$random.\(name)(to)' needs 'to' above \(Int(defaults.0))") }
            return (defaults.0, high)
        }
        guard arguments.count == 2, let low = Double(arguments[0]), let high = Double(arguments[1]),
              low.isFinite, high.isFinite, abs(low) < 1e15, abs(high) < 1e15 else {
            throw Failure(reason: "expected '$random.\(name)(from, to)'")
        }
        return (low, high)
    }
}

extension TimeZone {
    static let utc = TimeZone(identifier: "UTC") ?? TimeZone(secondsFromGMT: 0) ?? .current
}
