/// One `.http` file of a collection.
public struct CollectionFile: Sendable, Hashable {
    /// The file's path on disk.
    public var path: String
    /// The folders between the collection root and the file, then the file name: how the tree nests it.
    public var displayPath: [String]
    public var requests: [RequestDraft]
    /// `@name = value` variables declared in the file.
    public var variables: [String: String]

    public init(path: String, displayPath: [String], requests: [RequestDraft], variables: [String: String] = [:]) {
        self.path = path
        self.displayPath = displayPath
        self.requests = requests
        self.variables = variables
    }
}
