import CourierCollections
import CourierHTTP
import Foundation
import Synchronization

/// The explorer's bridge to CourierCollections: loads a path, keeps the parsed files (for saving and
/// resolving), and turns them into the explorer's own model. Safe from any thread.
public final class CollectionStore: Sendable {
    private let loaded = Mutex<LoadedCollection?>(nil)
    /// Closed while only the start of the collection is read (`loadStart`); reads of `loaded` wait for it.
    private let gate = LoadGate()
    /// The path as the user gave it, so the model keeps naming files the same way after a save.
    private let path = Mutex("")
    /// Responses by request name, for `{{name.response.body.$.id}}` in later requests.
    let responses = Mutex({
        var store = ResponseStore()
        store.isInteractive = true
        return store
    }())
    /// Values that beat every environment.
    public let overrides: [String: String]
    /// Values for the names an environment does not set (`courier demo` points `base` at the running server
    /// for the environments without one of their own).
    public let defaults: [String: String]
    /// The environments whose own values `defaults` replace (the demo collection's `demo`, which names the
    /// demo server's usual port when it runs on another).
    public let defaultsWin: Set<String>
    /// Values request scripts set (`client.global.set`), kept for the explorer session.
    let globals = Mutex<[String: String]>([:])
    /// The record of files `>>` wrote (run blocks save responses), shared with `courier run`.
    let ledger: RedirectLedger?

    /// A store whose requests' values `overrides` beat and whose environments `defaults` fill in; `ledger`
    /// records the files run blocks' `>>` write.
    public init(overrides: [String: String] = [:], defaults: [String: String] = [:], defaultsWin: Set<String> = [],
                ledger: RedirectLedger? = .standard()) {
        self.overrides = overrides
        self.defaults = defaults
        self.defaultsWin = defaultsWin
        self.ledger = ledger
    }

    /// Reads `path` (a file or a folder) and returns the explorer's model of it. Problems in one file
    /// become a notice; they do not stop the others from loading.
    public func load(_ path: String) -> (collection: Collection, problems: [String]) {
        commit(CollectionLoader.load(path), path: path)
    }

    /// What the first stage of the start-up load read: the start of a large collection, or all of a small one.
    public enum Stage: Sendable {
        /// The first requests only; nothing is kept for saving until `load` reads the whole collection.
        case start(Collection)
        /// The whole collection, kept as `load` keeps it.
        case whole(Collection, problems: [String])
    }

    /// About as many blocks as the tallest terminal shows rows: what the first screen needs.
    public static let firstScreenBlocks = 200

    /// The start-up load's first stage: only the first `blocks` blocks are parsed, so the first screen of a
    /// collection of any size is drawn at once; the IDs and order of those requests are the whole load's.
    public func loadStart(_ path: String, blocks: Int = firstScreenBlocks) -> Stage {
        let (start, complete) = CollectionLoader.loadStart(path, blocks: blocks)
        if complete {
            let (collection, problems) = commit(start, path: path)
            return .whole(collection, problems: problems)
        }
        gate.close()
        var problems: [String] = []
        return .start(model(start, path: path, problems: &problems))
    }

    /// The whole loaded collection, once it is read.
    private func whole<T>(_ body: (inout LoadedCollection?) -> T) -> T {
        gate.wait()
        return loaded.withLock { body(&$0) }
    }

    /// Keeps a whole loaded collection (for saving and resolving) and returns its model.
    private func commit(_ collection: LoadedCollection, path: String) -> (collection: Collection, problems: [String]) {
        loaded.withLock { $0 = collection }
        gate.open()
        self.path.withLock { $0 = path }
        var problems: [String] = []
        if collection.files.isEmpty && collection.errors.isEmpty { problems = ["No .http files in \(path)"] }
        let model = model(collection, path: path, problems: &problems)
        return (model, model.problems.map(\.description))
    }

    /// Writes an edited request back into its file; only that request's lines change.
    public func save(_ ref: RequestRef, _ draft: RequestDraft) throws(CollectionError) -> Collection {
        let (file, original) = try locate(ref)
        let edited = RequestMapping.template(from: draft, original: original)
        let text = try file.file.replacing(request: original, with: edited)
        return try replace(file, with: text)
    }

    /// Adds, duplicates, renames or deletes a request; returns the new model and the request to select.
    public func apply(_ edit: CollectionEdit) throws(CollectionError) -> (Collection, RequestRef?) {
        switch edit {
        case .add(let path, let draft):
            guard let file = whole({ $0?.files.first { $0.file.path == path } }) else {
                throw .requestNotFound(id: path)
            }
            let template = RequestMapping.template(
                from: draft, original: RequestTemplate(id: RequestTemplateID(file: path, ordinal: 0), url: draft.url))
            let collection = try replace(file, with: file.file.appending(template))
            return (collection, RequestRef(file: path, index: file.file.requests.count))
        case .duplicate(let ref):
            let (file, original) = try locate(ref)
            let name = file.file.copyName(for: original)
            let collection = try replace(file, with: try file.file.duplicating(original, as: name))
            return (collection, RequestRef(file: ref.file, index: ref.index + 1))
        case .rename(let ref, let name):
            let (file, original) = try locate(ref)
            return (try replace(file, with: try file.file.renaming(original, to: name)), ref)
        case .delete(let ref):
            let (file, original) = try locate(ref)
            return (try replace(file, with: try file.file.deleting(original)), nil)
        }
    }

    /// The draft as a request ready to send: variables from the environment and the file substituted,
    /// URL built by the collections resolver, options applied. Also the resolved WebSocket messages.
    public func resolve(_ job: SendJob) throws(CollectionError) -> (HTTPRequest, [String]) {
        let resolved = try resolveWithSecrets(job)
        return (resolved.request, resolved.messages)
    }

    /// `resolve`, plus the secret values (private environment, process environment) that went into the
    /// request, so history can redact them.
    public func resolveWithSecrets(_ job: SendJob) throws(CollectionError)
        -> (request: HTTPRequest, messages: [String], secrets: Set<String>) {
        let (file, template, context) = try sendContext(job)
        let resolver = Resolver(file: file.file, baseFolder: file.url.deletingLastPathComponent(),
                                context: context)
        let resolved = try resolver.resolve(template)
        return (options(job, resolved.request), resolved.messages.map(\.text), resolved.secrets)
    }

    /// The secret values known for `job` before its request is built: the environment's private values and
    /// the session's secret globals, so an error quoting one (an unknown variable, a script error) is masked.
    public func knownSecrets(_ job: SendJob) -> Set<String> {
        guard let (_, _, context) = try? sendContext(job) else { return [] }
        return context.environment.secretValues.union(context.secretGlobalValues)
    }

    func sendContext(_ job: SendJob) throws(CollectionError)
        -> (LoadedFile, RequestTemplate, VariableContext) {
        var (file, original) = try locate(job.ref)
        let template = RequestMapping.template(from: job.draft, original: original)
        let root = whole { $0?.root } ?? file.url.deletingLastPathComponent()
        let environments = try EnvironmentSet.discover(near: file.url, root: root)
        var environment = try environments.environment(named: job.environment)
        let wins = job.environment.map(defaultsWin.contains) == true
        for (name, value) in defaults where wins || environment.values[name] == nil {
            environment.values[name] = VariableValue(value)
        }
        var context = VariableContext(overrides: overrides.merging(job.answers) { $1 }, environment: environment,
                                      responses: responses.withLock { $0 }, globals: globals.withLock { $0 })
        // Variables of the files it imports (`import ./other.http`) fill in where the file has none.
        if !file.file.imports.isEmpty {
            file.file = ImportedFiles.load(for: file, values: .init(context)).addingVariables(to: file.file)
        }
        context.certificatePassphrase = job.certificatePassphrase
        // Reads anywhere under the folder opened; writes (`>>` in run blocks) beside each file.
        context.fileAccess = CollectionFileAccess(root: root, allowedReads: job.allowedReads,
                                                  allowedOverwrites: job.allowedOverwrites, ledger: ledger)
        return (file, template, context)
    }

    /// A WebSocket request is resolved as the GET that upgrades it. Timeout, attempts and cache mode came
    /// from the draft through the template's tags (`RequestOptions`).
    private func options(_ job: SendJob, _ resolved: HTTPRequest) -> HTTPRequest {
        var request = resolved
        if job.draft.isWebSocket { request.method = .get }
        return request
    }

    // MARK: - Private

    func locate(_ ref: RequestRef?) throws(CollectionError) -> (LoadedFile, RequestTemplate) {
        guard let ref else { throw .requestNotFound(id: "(unsaved request)") }
        let found = whole { collection -> (LoadedFile, RequestTemplate)? in
            guard let file = collection?.files.first(where: { $0.file.path == ref.file }),
                  file.file.requests.indices.contains(ref.index) else { return nil }
            return (file, file.file.requests[ref.index])
        }
        guard let found else { throw .requestNotFound(id: ref.description) }
        return found
    }

    /// Replaces the loaded copy of `path` with the file as it is on disk now (fresh fingerprint).
    func refreshFromDisk(_ path: String) throws(CollectionError) {
        guard let file = whole({ $0?.files.first { $0.file.path == path } }) else {
            throw .requestNotFound(id: path)
        }
        let fresh = try CollectionLoader.loadFile(file.url, displayPath: path)
        whole { collection in
            guard let index = collection?.files.firstIndex(where: { $0.url == file.url }) else { return }
            collection?.files[index] = fresh
        }
    }

    private func replace(_ file: LoadedFile, with text: String) throws(CollectionError) -> Collection {
        let saved = try CollectionWriter.save(text, over: file)
        let collection = whole { collection -> LoadedCollection? in
            guard var current = collection, let index = current.files.firstIndex(where: { $0.url == file.url }) else {
                return collection
            }
            current.files[index] = saved
            collection = current
            return current
        }
        var problems: [String] = []
        let path = self.path.withLock { $0 }
        return collection.map { model($0, path: path, problems: &problems) } ?? .empty
    }

    private func model(_ loaded: LoadedCollection, path: String, problems: inout [String]) -> Collection {
        let isSingleFile = loaded.files.count == 1 && path.hasSuffix(loaded.files[0].file.path)
            && !FileManager.default.isDirectory(path)
        let files = loaded.files.map { file -> CollectionFile in
            let display = isSingleFile ? [file.url.lastPathComponent] : file.file.path.split(separator: "/").map(String.init)
            var variables: [String: String] = [:]
            for definition in file.file.fileVariables { variables[definition.name] = definition.value }
            return CollectionFile(path: file.file.path, displayPath: display,
                                  requests: file.file.requests.map(RequestMapping.draft), variables: variables)
        }
        var environments: [String: [String: String]] = [:]
        var privateNames: [String: Set<String>] = [:]
        var defaultEnvironment: Collection.DefaultEnvironment?
        let near = loaded.files.first?.url ?? loaded.root.appendingPathComponent("x.http")
        do {
            let set = try EnvironmentSet.discover(near: near, root: loaded.root)
            // What the environment files ask that Courier does not do (httpyac's configuration, an unreadable
            // private file) is listed with the problems, as `courier run` and `check` print it.
            problems += set.warnings.map(\.description)
            defaultEnvironment = set.defaultChoice.map { .init(name: $0.name, reason: $0.shortExplanation) }
            for name in set.names + [EnvironmentSet.sharedName] {
                let values = try set.environment(named: name == EnvironmentSet.sharedName ? nil : name).values
                environments[name] = values.mapValues(\.value).merging(defaults) { defaultsWin.contains(name) ? $1 : $0 }
                    .merging(overrides) { _, override in override }
                privateNames[name] = Set(values.filter { $0.value.isSecret && overrides[$0.key] == nil }.keys)
            }
        } catch {
            problems.append(error.description)
        }
        if environments.isEmpty && !(overrides.isEmpty && defaults.isEmpty) {
            environments[EnvironmentSet.sharedName] = defaults.merging(overrides) { _, override in override }
        }
        // Parse errors stay listed until the file is fixed and reloaded, also after a save; so do imports that
        // cannot be read (`import ./gone.http`) or come back to their own file.
        // An import path's variables (`# @import {{root}}/auth.http`) may come from any environment.
        let everyValue = environments.values.reduce(into: [String: String]()) { $0.merge($1) { old, _ in old } }
        let known = ImportedFiles.PathValues(overrides: overrides, environment: everyValue)
        let importErrors = loaded.files.filter { !$0.file.imports.isEmpty }
            .flatMap { ImportedFiles.load(for: $0, values: known).diagnostics }.filter { $0.severity == .error }
        let problems = (loaded.errors + importErrors).map { Problem(file: $0.file, line: $0.line, message: $0.message) }
            + problems.map { Problem(message: $0) }
        var collection = Collection(root: path, files: files, environments: environments, problems: problems,
                                    privateNames: privateNames)
        collection.defaultEnvironment = defaultEnvironment
        return collection
    }
}
