import CourierCollections
import Foundation

/// What `courier run` will do before it sends anything: the files (one, or every `.http` file under a
/// folder, as the explorer loads them), the requests picked in each, each file's environment, and the
/// problems found while loading.
struct RunPlan: Sendable {
    /// One file to run.
    struct Entry: Sendable {
        var loaded: LoadedFile
        /// The path printed for the file: as given for a single file, under the given folder otherwise.
        var displayPath: String
        var requests: [RequestTemplate]
        /// The environment the file's requests resolve against, or why there is none (the file does not run).
        var environment: Result<CourierCollections.Environment, CollectionError>
        /// Where variables could come from, for "unknown variable" errors: the environments found.
        var variableSources = ""
        /// The files it imports (`import ./other.http`), for its `run #name` blocks and their variables.
        var imports = ImportedFiles.none
    }

    /// "environments found: dev, prod (selected: dev)", or that none was found.
    static func describe(_ environments: EnvironmentSet?, selected: String?) -> String {
        guard let environments, !environments.files.isEmpty else {
            return "no http-client.env.json found beside the file or in the folders above it"
        }
        let names = environments.names.isEmpty ? "only $shared" : environments.names.joined(separator: ", ")
        let unread = environments.unreadFiles.map { "; \($0.path) was not read: \($0.reason)" }.joined()
        // Why none was chosen for the user, when there were several to choose from (`EnvironmentSet.defaultChoice`).
        let why = environments.names.count > 1 ? ": none is a project default or the one on this machine" : ""
        return "environments found: \(names)"
            + (selected.map { "; selected: \($0)" } ?? "; none selected (--env NAME)\(why)") + unread
    }

    var entries: [Entry]
    /// Malformed lines and unreadable files, as `file:line: message`; a bad file never stops the others.
    var diagnostics: [Diagnostic]
    /// Whether the path was a folder (results are then grouped by file).
    var isFolder: Bool
    /// The folder run: what its requests may read under (`CollectionFileAccess.root`); nil for a single
    /// file, whose requests read under its own folder.
    var root: URL? = nil

    /// Whether any diagnostic is an error (the run then exits 1 even when every request succeeded).
    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Every request the plan would run.
    var requestCount: Int { entries.reduce(0) { $0 + $1.requests.count } }

    /// Loads what `invocation.path` names. Throws what makes the whole run meaningless (exit 2): nothing to
    /// read, a `--name` no file has, an `--env` no file can use.
    static func make(_ invocation: RunCommand.Invocation) throws(CollectionError) -> RunPlan {
        let url = URL(fileURLWithPath: invocation.path).standardizedFileURL
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
            return try folder(url, invocation: invocation)
        }
        let discovered = Result { () throws(CollectionError) -> EnvironmentSet in
            try EnvironmentSet.discover(near: url, root: RunCommand.collectionRoot(for: url))
        }
        // `--name` pulls in the requests an environment value reads, so the environment is read first; what is
        // wrong with it is said after what is wrong with the file, as before.
        let (loaded, requests) = try load(url, invocation: invocation, environment: readable(discovered, invocation))
        let environments = try discovered.get()
        let selected = chosenEnvironment(invocation.environment, in: environments)
        let environment = try environments.environment(named: selected)
        let imports = ImportedFiles.load(for: loaded, values: .init(overrides: invocation.overrides,
                                                                   environment: environment))
        let entry = Entry(loaded: loaded, displayPath: invocation.path, requests: requests,
                          environment: .success(environment),
                          variableSources: describe(environments, selected: selected), imports: imports)
        return RunPlan(entries: [entry], diagnostics: loaded.file.diagnostics + imports.diagnostics
                       + environments.warnings, isFolder: false)
    }

    /// `--env`, else the environment the files' own rules choose (`EnvironmentSet.defaultChoice`: the only
    /// one, the project's default, the local one), said on standard error once per name.
    static func chosenEnvironment(_ written: String?, in environments: EnvironmentSet) -> String? {
        if let written { return written }
        guard let choice = environments.defaultChoice else { return nil }
        SoleEnvironmentNote.say(choice, among: environments.names)
        return choice.name
    }

    /// The environment the run will use, read quietly (nothing said on standard error) for `--name`'s
    /// selection; none when it cannot be read (the run then says why).
    private static func readable(_ environments: Result<EnvironmentSet, CollectionError>,
                                 _ invocation: RunCommand.Invocation) -> Environment {
        guard !invocation.names.isEmpty, let found = try? environments.get() else { return .none }
        return (try? found.environment(named: invocation.environment ?? found.defaultChoice?.name)) ?? .none
    }

    /// The file and the requests picked in it. With `--name`, only an outline of the file is kept and
    /// only the requests picked are parsed in full, so one request of a huge file costs about its size.
    private static func load(_ url: URL, invocation: RunCommand.Invocation, environment: Environment)
        throws(CollectionError) -> (LoadedFile, [RequestTemplate]) {
        if invocation.names.isEmpty || invocation.all {
            let loaded = try CollectionLoader.loadFile(url, displayPath: invocation.path)
            return (loaded, try CollectionRunner.selection(of: loaded.file, names: invocation.names, all: true))
        }
        let outline = try HTTPFileOutline.load(url, displayPath: invocation.path)
        let requests = try CollectionRunner.selection(of: outline, names: invocation.names, environment: environment)
        if outline.startsWithSharedBlock
            || requests.contains(where: { $0.isRunBlock || !$0.runsBefore.isEmpty || !$0.references.isEmpty }) {
            // A `run #name` line (or httpyac's `# @ref`) may name any request of the file, and kulala's shared
            // block changes every request: keep the whole file.
            let loaded = try CollectionLoader.loadFile(url, displayPath: invocation.path)
            return (loaded, try CollectionRunner.selection(of: loaded.file, names: invocation.names, all: false,
                                                           environment: environment))
        }
        let fingerprint = FileFingerprint(data: outline.data, modified: nil)
        return (LoadedFile(url: url, file: outline.file(running: requests), fingerprint: fingerprint), requests)
    }

    /// Every `.http` file under `url`, sorted by path; environments are found as the explorer finds them:
    /// beside each file and in every folder up to the one given.
    private static func folder(_ url: URL, invocation: RunCommand.Invocation) throws(CollectionError) -> RunPlan {
        let collection = CollectionLoader.load(url.path)
        let prefix = displayPrefix(invocation.path)
        let diagnostics = collection.diagnostics.map { diagnostic -> Diagnostic in
            var shown = diagnostic
            shown.file = prefix + diagnostic.file
            return shown
        }
        guard !collection.files.isEmpty || !diagnostics.isEmpty else {
            throw .unreadable(path: invocation.path,
                              reason: CollectionLoader.emptyFolderReason(url, shownAs: invocation.path))
        }
        let available = collection.files.flatMap { $0.file.requests.compactMap(\.name) }
        if let unknown = invocation.names.first(where: { !available.contains($0) }) {
            throw .unknownRequest(name: unknown, available: available)
        }
        var entries: [Entry] = []
        var importDiagnostics: [Diagnostic] = []
        var settingsWarnings: [Diagnostic] = []
        for loaded in collection.files {
            let names = invocation.names.filter { name in loaded.file.requests.contains { $0.name == name } }
            // With --name, a file holding none of the names has nothing to run.
            if !invocation.names.isEmpty && names.isEmpty { continue }
            // Read once: the environment files of a folder with many files are read for each of them.
            let discovered = Result { () throws(CollectionError) -> EnvironmentSet in
                try EnvironmentSet.discover(near: loaded.url, root: collection.root)
            }
            let requests = try CollectionRunner.selection(of: loaded.file, names: names, all: invocation.all,
                                                          environment: readable(discovered, invocation))
            let found = try? discovered.get()
            let selected = found.flatMap { chosenEnvironment(invocation.environment, in: $0) }
                ?? invocation.environment
            for warning in found?.warnings ?? [] where !settingsWarnings.contains(warning) {
                settingsWarnings.append(warning)
            }
            let environment = Result { () throws(CollectionError) -> CourierCollections.Environment in
                try discovered.get().environment(named: selected)
            }
            var imports = ImportedFiles.none
            if !loaded.file.imports.isEmpty {
                imports = ImportedFiles.load(for: loaded, values: .init(
                    overrides: invocation.overrides, environment: (try? environment.get()) ?? .none))
                importDiagnostics += imports.diagnostics.map { diagnostic in
                    var shown = diagnostic
                    shown.file = prefix + diagnostic.file
                    return shown
                }
            }
            entries.append(Entry(loaded: loaded, displayPath: prefix + loaded.file.path, requests: requests,
                                 environment: environment,
                                 variableSources: describe(found, selected: selected), imports: imports))
        }
        // An environment no file can use is a usage error, as for a single file; one that only some
        // files lack fails just those files.
        if let first = entries.first, case .failure(let error) = first.environment,
           entries.allSatisfy({ if case .failure = $0.environment { true } else { false } }) {
            throw error
        }
        return RunPlan(entries: entries, diagnostics: diagnostics + importDiagnostics + settingsWarnings,
                       isFolder: true, root: url)
    }

    /// The folder as the user typed it, ready to put before a path inside it ("" for the current folder).
    static func displayPrefix(_ path: String) -> String {
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        if trimmed == "." || trimmed.isEmpty { return "" }
        return trimmed == "/" ? "/" : trimmed + "/"
    }
}
