import CourierSecurity
import Foundation

/// A small command-line reader in the manner of swift-argument-parser: options are taken out by
/// name, what remains is positional, and anything unknown is a usage error that says what to type.
struct Arguments {
    private(set) var remaining: [String]
    let command: String

    init(_ arguments: [String], command: String) {
        self.remaining = arguments
        self.command = command
    }

    /// Whether `--help` or `-h` was given.
    mutating func wantsHelp() -> Bool { flag("--help", "-h") }

    /// Removes every occurrence of the flag and reports whether there was one.
    mutating func flag(_ names: String...) -> Bool {
        let before = remaining.count
        remaining.removeAll { names.contains($0) }
        return remaining.count != before
    }

    /// The last value of an option given as `--name value` or `--name=value`.
    mutating func option(_ names: String...) throws(UsageError) -> String? {
        try values(names).last
    }

    /// Every value of a repeatable option, in order.
    mutating func options(_ names: String...) throws(UsageError) -> [String] {
        try values(names)
    }

    /// An option parsed into a number, with a clear error when it is not one.
    mutating func number(_ names: String...) throws(UsageError) -> Double? {
        guard let text = try values(names).last else { return nil }
        guard let value = Double(text), value.isFinite, value >= 0 else {
            throw UsageError("\(names[0]) takes a non-negative number, not '\(text)'", command: command)
        }
        return value
    }

    /// `--cacert FILE`: the PEM certificates servers are verified against, checked readable now so a typo
    /// is a usage error rather than a TLS failure later.
    mutating func certificateFile() throws(UsageError) -> URL? {
        guard let path = try values(["--cacert"]).last else { return nil }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw UsageError("--cacert: cannot read the certificate file '\(path)'", command: command)
        }
        return URL(fileURLWithPath: path)
    }

    /// `--idle-timeout SECONDS`: how long a transfer may go without a byte before it fails (default 30 s,
    /// so a silent server cannot hold `send` or `run` for ever); 0 waits for ever.
    mutating func idleTimeout() throws(UsageError) -> Duration? {
        let seconds = try number("--idle-timeout") ?? Self.defaultIdleTimeout
        return seconds == 0 ? nil : .seconds(max(1, seconds.rounded(.up)))
    }

    /// Seconds without a byte after which `send` and `run` give up, unless `--idle-timeout` says otherwise.
    static let defaultIdleTimeout: Double = 30

    /// What is left once options are taken; a leftover `-x` is an unknown option.
    mutating func positionals() throws(UsageError) -> [String] {
        var result: [String] = []
        var literal = false
        for argument in remaining {
            if literal { result.append(argument); continue }
            if argument == "--" { literal = true; continue }
            if argument.hasPrefix("-") && argument.count > 1 {
                throw UsageError("unknown option '\(argument)'", command: command)
            }
            result.append(argument)
        }
        remaining = []
        return result
    }

    private mutating func values(_ names: [String]) throws(UsageError) -> [String] {
        var found: [String] = []
        var kept: [String] = []
        var index = 0
        while index < remaining.count {
            let argument = remaining[index]
            if argument == "--" { kept.append(contentsOf: remaining[index...]); break }
            if names.contains(argument) {
                guard index + 1 < remaining.count else {
                    throw UsageError("\(argument) needs a value", command: command)
                }
                found.append(remaining[index + 1])
                index += 2
                continue
            }
            if let name = names.first(where: { $0.hasPrefix("--") && argument.hasPrefix($0 + "=") }) {
                found.append(String(argument.dropFirst(name.count + 1)))
            } else {
                kept.append(argument)
            }
            index += 1
        }
        remaining = kept
        return found
    }
}

/// A mistake on the command line: exit code 2, with a hint at the help.
struct UsageError: Error {
    let message: String
    let command: String
    init(_ message: String, command: String) { self.message = message; self.command = command }

    /// Prints the error and the hint to standard error and returns exit code 2.
    func report() -> Int32 {
        Console.fail("\(message)\nHelp:  courier \(command) --help")
        return 2
    }
}

/// Writing to the standard streams. Every line passes the sanitiser on its way out, so text a server or
/// a file supplied (a close reason, a request name, a malformed line quoted in an error) can never drive
/// the terminal, even where the code that built the line forgot; JSON output is escaped before it gets
/// here (`Sanitizer.escapedJSON`), and text that is already safe passes unchanged.
enum Console {
    static func out(_ text: String) { FileHandle.standardOutput.write(Data((Sanitizer.escaped(text) + "\n").utf8)) }
    static func error(_ text: String) { FileHandle.standardError.write(Data((Sanitizer.escaped(text) + "\n").utf8)) }
    /// A failure, on standard error with the one prefix every command uses: `Error: what went wrong`.
    static func fail(_ message: String) { error("Error: " + message) }
}
