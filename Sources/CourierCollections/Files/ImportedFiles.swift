import Foundation

/// The files a `.http` file imports (`import ./other.http`), and the files those import, each loaded once.
/// Their named requests can be run from the importing file (`run #name`) and their file variables are read
/// where the importing file defines no value of its own. A missing file or an import that comes back to a
/// file on its own chain is an error at its `import` line; the other imports still load.
public struct ImportedFiles: Sendable {
    /// The imported files, in the order their `import` lines are met (depth first).
    public private(set) var files: [LoadedFile] = []
    /// Files that could not be imported, and import cycles, each at its `import` line.
    public private(set) var diagnostics: [Diagnostic] = []

    /// No imports: a file without `import` lines.
    public static let none = ImportedFiles()

    /// Loads every file `root` imports, directly or through another import. A path may hold variables
    /// (httpyac's `# @import {{root}}/auth.http`), read from `values` and the importing file; one nothing
    /// defines is an error at the import line.
    public static func load(for root: LoadedFile, values: PathValues = PathValues()) -> ImportedFiles {
        var imported = ImportedFiles()
        guard !root.file.imports.isEmpty else { return imported }
        var seen: Set<String> = [root.url.standardizedFileURL.path]
        imported.visit(root, chain: [root.url.standardizedFileURL.path], seen: &seen, values: values)
        return imported
    }

    private mutating func visit(_ importer: LoadedFile, chain: [String], seen: inout Set<String>,
                                values: PathValues) {
        for written in importer.file.imports {
            var line = written
            if line.path.contains("{{") {
                switch ImportPathVariables.substitute(line.path, file: importer.file.fileVariables, values: values) {
                case .success(let path): line.path = path
                case .failure(let unknown):
                    diagnostics.append(Diagnostic(file: importer.file.path, line: line.line,
                                                  message: "cannot import '\(line.path)': \(unknown.message)"))
                    continue
                }
            }
            let url = Self.url(of: line.path, relativeTo: importer.url)
            let key = url.path
            if chain.contains(key) {
                let back = chain.last == key ? "imports itself" : "imports a file that imports this one"
                diagnostics.append(Diagnostic(file: importer.file.path, line: line.line,
                                              message: "import cycle: '\(line.path)' \(back); remove one import"))
                continue
            }
            guard seen.insert(key).inserted else { continue }
            let display = Self.displayPath(of: line.path, relativeTo: importer.file.path)
            let loaded: LoadedFile
            do { loaded = try CollectionLoader.loadFile(url, displayPath: display) } catch {
                let reason = FileManager.default.fileExists(atPath: url.path) ? "\(error)" : "no such file"
                diagnostics.append(Diagnostic(file: importer.file.path, line: line.line,
                                              message: "cannot import '\(line.path)': \(reason)"))
                continue
            }
            files.append(loaded)
            diagnostics += loaded.file.diagnostics
            visit(loaded, chain: chain + [key], seen: &seen, values: values)
        }
    }

    /// What an import path's `{{name}}` may read besides the importing file's variables.
    public struct PathValues: Sendable {
        /// `--var` values, over the file's.
        public var overrides: [String: String]
        /// The selected environment's values, under the file's.
        public var environment: [String: String]
        public init(overrides: [String: String] = [:], environment: [String: String] = [:]) {
            self.overrides = overrides
            self.environment = environment
        }
        public init(overrides: [String: String] = [:], environment: Environment) {
            self.init(overrides: overrides, environment: environment.values.mapValues(\.value))
        }
        /// The values a request resolved against `context` would read.
        public init(_ context: VariableContext) {
            self.init(overrides: context.overrides, environment: context.environment)
        }
    }

    /// The imported request called `name`, with the file holding it.
    public func request(named name: String) -> (file: LoadedFile, request: RequestTemplate)? {
        for file in files {
            if let request = file.file.requests.first(where: { $0.name == name }) { return (file, request) }
        }
        return nil
    }

    /// The names of the imported files' named requests.
    public var names: [String] { files.flatMap { $0.file.requests.compactMap(\.name) } }

    /// `file` with the imported files' variables read before its own, so its own win on a clash.
    public func addingVariables(to file: HTTPFile) -> HTTPFile {
        guard !files.isEmpty else { return file }
        var merged = file
        merged.fileVariables = files.flatMap(\.file.fileVariables) + file.fileVariables
        return merged
    }

    /// `path` (absolute, or relative to the folder of `file`) as a standardized file URL.
    public static func url(of path: String, relativeTo file: URL) -> URL {
        url(of: path, inFolder: file.deletingLastPathComponent())
    }

    /// `path` (absolute, or relative to `folder`) as a standardized file URL.
    public static func url(of path: String, inFolder folder: URL) -> URL {
        (path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)).standardizedFileURL
    }

    /// The path printed for an imported file: its path beside the importer's as the user named that one.
    static func displayPath(of path: String, relativeTo importer: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        let folder = (importer as NSString).deletingLastPathComponent
        let joined = folder.isEmpty ? path : folder + "/" + path
        var parts: [String] = []
        for part in joined.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast(); continue }
            parts.append(String(part))
        }
        // An importer named by its absolute path keeps its imports absolute too.
        return (joined.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}

extension ImportedFiles {
    /// What `directive` (a `run` line of `file`, whose folder is `baseFolder`) names: the other file holding
    /// it (nil for `file` itself) and the requests to run there, or why it names nothing that can run.
    public func target(of directive: RunDirective, from file: HTTPFile, baseFolder: URL)
        -> Result<(file: LoadedFile?, requests: [RequestTemplate]), RunTargetMissing> {
        switch directive.target {
        case .request(let name):
            if let request = file.requests.first(where: { $0.name == name }) { return .success((nil, [request])) }
            if let (found, request) = self.request(named: name) { return .success((found, [request])) }
            let close = NameSuggestions.closest(to: name, in: file.requests.compactMap(\.name) + names)
            return .failure(RunTargetMissing("no request is named '\(name)' in this file or the files it imports"
                + (close.isEmpty ? "" : "; did you mean \(close.map { "'\($0)'" }.joined(separator: ", "))?")))
        case .file(let path):
            let url = Self.url(of: path, inFolder: baseFolder)
            let display = Self.displayPath(of: path, relativeTo: file.path)
            do {
                let loaded = try CollectionLoader.loadFile(url, displayPath: display)
                if let error = loaded.file.diagnostics.first(where: { $0.severity == .error }) {
                    return .failure(RunTargetMissing("cannot run '\(path)': \(error)"))
                }
                return .success((loaded, loaded.file.requests))
            } catch {
                let reason = FileManager.default.fileExists(atPath: url.path) ? "\(error)" : "no such file"
                return .failure(RunTargetMissing("cannot run '\(path)': \(reason)"))
            }
        }
    }
}

/// Why a `run` line names nothing that can run.
public struct RunTargetMissing: Error, Sendable {
    public var message: String
    init(_ message: String) { self.message = message }
}
