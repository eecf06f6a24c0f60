/// A loaded collection: its `.http` files and environments, as the explorer shows them.
public struct Collection: Sendable, Hashable {
    /// The file or folder the user opened.
    public var root: String
    public var files: [CollectionFile]
    /// Environment name → variables (shared merged with private).
    public var environments: [String: [String: String]]
    /// Every error found while loading, in file and line order; the Problems list shows them all.
    public var problems: [Problem]
    /// Environment name → names of its private variables (`http-client.private.env.json`), which the
    /// screen shows masked.
    public var privateNames: [String: Set<String>]
    /// The environment the files' own rules choose when the user names none (`EnvironmentSet.defaultChoice`),
    /// and why, for the status line.
    public var defaultEnvironment: DefaultEnvironment?

    /// An environment chosen without the user naming one, and why ("whose addresses are all on this machine").
    public struct DefaultEnvironment: Sendable, Hashable {
        public var name: String
        public var reason: String
        public init(name: String, reason: String) { self.name = name; self.reason = reason }
    }

    public init(root: String, files: [CollectionFile], environments: [String: [String: String]] = [:],
                problems: [Problem] = [], privateNames: [String: Set<String>] = [:]) {
        self.root = root
        self.files = files
        self.environments = environments
        self.problems = problems
        self.privateNames = privateNames
    }

    public static let empty = Collection(root: "", files: [])

    /// The saved request a reference points at.
    public func request(_ ref: RequestRef) -> RequestDraft? {
        guard let file = files.first(where: { $0.path == ref.file }), file.requests.indices.contains(ref.index)
        else { return nil }
        return file.requests[ref.index]
    }

    /// The file-level variables (`@name = value`) of the file holding `ref`.
    public func fileVariables(_ ref: RequestRef?) -> [String: String] {
        guard let ref, let file = files.first(where: { $0.path == ref.file }) else { return [:] }
        return file.variables
    }

    /// Environment names, sorted.
    public var environmentNames: [String] { environments.keys.filter { !$0.hasPrefix("$") }.sorted() }
}
