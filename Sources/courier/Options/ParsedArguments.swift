import CourierHTTP
import Foundation

/// A command line read against its `CommandSpec`: the values of each option by long name, and the
/// positional arguments in order. Values are already checked against their kind (a number is a number,
/// a choice is one of its words).
struct ParsedArguments {
    let command: String
    let positionals: [String]
    /// Each occurrence's values, by long name, in the order given.
    private let occurrences: [String: [[String]]]
    private let declared: Set<String>

    init(command: String, positionals: [String], occurrences: [String: [[String]]], declared: Set<String>) {
        self.command = command
        self.positionals = positionals
        self.occurrences = occurrences
        self.declared = declared
    }

    /// Every occurrence of `--name` with its values.
    func occurrences(of long: String) -> [[String]] {
        // Asking for an option the table does not declare is a mistake in the command, not in the input.
        assert(declared.contains(long), "\(command): \(long) is not declared")
        return occurrences[long] ?? []
    }

    /// Whether the flag was given.
    func flag(_ long: String) -> Bool { !occurrences(of: long).isEmpty }

    /// The last value given (an option given twice keeps the later one, as curl does).
    func value(_ long: String) -> String? { occurrences(of: long).last?.first }

    /// Every value of a repeatable option, in order.
    func values(_ long: String) -> [String] { occurrences(of: long).compactMap(\.first) }

    /// The last value of a number option (checked when parsed).
    func number(_ long: String) -> Double? { value(long).flatMap(Double.init) }

    /// The last value of a number option as a whole number within `range`, read once here: a fraction, or a
    /// number outside the range (one too large for an `Int` included), is a usage error in the words of
    /// `message`, given the number as read.
    func wholeNumber(_ long: String, in range: ClosedRange<Int>,
                     else message: (Double) -> String) throws(UsageError) -> Int? {
        guard let number = number(long) else { return nil }
        guard number == number.rounded(), number >= Double(range.lowerBound), number <= Double(range.upperBound)
        else { throw UsageError(message(number), command: command) }
        return Int(number)
    }

    /// The largest whole number an option takes when it names no limit of its own: every `Int` up to it is
    /// exactly a `Double`, so the check above never rounds.
    static let largestWholeNumber = 1 << 53

    /// Whether the command's table declares `--name` (a group of options shared by commands reads only those
    /// its command has).
    func declares(_ long: String) -> Bool { declared.contains(long) }

    /// The last value of a choice option as its type: the table already checked it is one of the words.
    func choice<Choice: RawRepresentable>(_ long: String, as type: Choice.Type) -> Choice?
        where Choice.RawValue == String {
        value(long).flatMap(Choice.init(rawValue:))
    }

    /// The last value of a folder option as a folder URL (relative paths from the current folder).
    func directory(_ long: String) -> URL? { value(long).map { URL(fileURLWithPath: $0, isDirectory: true) } }

    /// The last value of a file option as a file URL (relative paths from the current folder).
    func file(_ long: String) -> URL? { value(long).map { URL(fileURLWithPath: $0) } }

    /// `--var NAME=VALUE` (repeatable) as the variables it sets.
    func variables() throws(UsageError) -> [String: String] {
        var variables: [String: String] = [:]
        for variable in values("--var") {
            guard let equals = variable.firstIndex(of: "="), equals != variable.startIndex else {
                throw UsageError("--var takes NAME=VALUE, not '\(variable)'", command: command)
            }
            variables[String(variable[..<equals])] = String(variable[variable.index(after: equals)...])
        }
        return variables
    }

    /// `-H 'Name: value'` (repeatable) as headers, in order.
    func headers() throws(UsageError) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for line in values("--header") {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw UsageError("-H takes 'Name: value', not '\(line)'", command: command)
            }
            headers.add(String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                        String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        return headers
    }

    /// `--cacert FILE`: checked readable now, so a typo is a usage error rather than a TLS failure later.
    func certificateFile() throws(UsageError) -> URL? {
        guard let path = value("--cacert") else { return nil }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw UsageError("--cacert: cannot read the certificate file '\(path)'", command: command)
        }
        return URL(fileURLWithPath: path)
    }

    /// `--idle-timeout SECONDS`: how long a transfer may go without a byte before it fails (default 30 s,
    /// so a silent server cannot hold `send` or `run` for ever); 0 waits for ever.
    func idleTimeout() throws(UsageError) -> Duration? {
        let seconds = try secondsNumber("--idle-timeout") ?? Self.defaultIdleTimeout
        return seconds == 0 ? nil : .seconds(max(1, seconds.rounded(.up)))
    }

    /// The last value of a seconds option as a `Duration` to the millisecond, read once here (see
    /// `secondsNumber`).
    func seconds(_ long: String) throws(UsageError) -> Duration? {
        try secondsNumber(long).map { .milliseconds(Int64(($0 * 1000).rounded())) }
    }

    /// The last value of a seconds option: more than `longestSeconds` is a usage error naming the option, as
    /// such a number would overflow the clock it is given to.
    func secondsNumber(_ long: String) throws(UsageError) -> Double? {
        guard let seconds = number(long) else { return nil }
        guard seconds <= Self.longestSeconds else {
            throw UsageError("\(long) takes a number of seconds up to \(Int(Self.longestSeconds)), not "
                             + "'\(value(long) ?? "")'", command: command)
        }
        return seconds
    }

    /// The most seconds a time option takes: a year, far past any wait a request needs.
    static let longestSeconds: Double = 365 * 24 * 3600

    /// Seconds without a byte after which `send` and `run` give up, unless `--idle-timeout` says otherwise.
    static let defaultIdleTimeout: Double = 30
}
