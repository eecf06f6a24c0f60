import Foundation

/// A JetBrains `run` line: `run #name`, `run ./other.http`, each optionally followed by variable overrides
/// for that execution, `run #name (@host=example.com, @user=ada)`. A block holding `run` lines instead of a
/// request line runs what they name, in order, when it is run.
public struct RunDirective: Sendable, Hashable {
    /// What a `run` line names.
    public enum Target: Sendable, Hashable {
        /// `run #name`: a request of this file or of a file it imports.
        case request(String)
        /// `run ./other.http`: every request of that file, relative to this one.
        case file(String)
    }

    public var target: Target
    /// `(@name=value, …)`: values that beat the file's own for this execution.
    public var overrides: [VariableDefinition]
    /// 1-based line in the file.
    public var line: Int

    public init(target: Target, overrides: [VariableDefinition] = [], line: Int = 0) {
        self.target = target
        self.overrides = overrides
        self.line = line
    }

    /// The line as it reads in a list: `run #login (@user=ada)`.
    public var text: String {
        var text = switch target {
        case .request(let name): "run #\(name)"
        case .file(let path): "run \(path)"
        }
        if !overrides.isEmpty {
            text += " (" + overrides.map { "@\($0.name)=\($0.value)" }.joined(separator: ", ") + ")"
        }
        return text
    }

    /// Reads a `run …` line; nil when it names nothing or its overrides are malformed.
    static func parse(_ trimmed: String, line: Int) -> RunDirective? {
        guard trimmed.hasPrefix("run ") else { return nil }
        var rest = trimmed.dropFirst(4).trimmingBlanks
        var overrides: [VariableDefinition] = []
        if rest.hasSuffix(")"), let open = rest.range(of: "(@", options: .backwards) {
            let inside = rest[open.lowerBound...].dropFirst().dropLast()
            for item in inside.split(separator: ",") {
                guard let definition = HTTPFileParser.variable(item.trimmingBlanks, line: line) else { return nil }
                overrides.append(definition)
            }
            rest = rest[..<open.lowerBound].trimmingBlanks
        }
        guard !rest.isEmpty else { return nil }
        if rest.hasPrefix("#") {
            let name = rest.dropFirst().trimmingBlanks
            return name.isEmpty ? nil : RunDirective(target: .request(name), overrides: overrides, line: line)
        }
        return RunDirective(target: .file(rest), overrides: overrides, line: line)
    }
}

/// A JetBrains `import ./other.http` line: that file's named requests can be run (`run #name`) from this
/// one, and its file variables are read where this file defines no value of its own.
public struct FileImport: Sendable, Hashable {
    /// The path as written, relative to the importing file.
    public var path: String
    /// 1-based line in the file.
    public var line: Int
    public init(path: String, line: Int) { self.path = path; self.line = line }
}
