/// Which saved request a piece of per-request state belongs to: its file and its name, so it survives
/// requests being added or removed around it (an index would shift). An unnamed request falls back to
/// its index.
public struct RequestIdentity: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var name: String

    public init(file: String, name: String) {
        self.file = file
        self.name = name
    }

    /// The identity of the request `ref` points at in `collection`.
    public init(_ ref: RequestRef, in collection: Collection) {
        let name = collection.request(ref)?.name ?? ""
        self.init(file: ref.file, name: name.isEmpty ? "#\(ref.index)" : name)
    }

    public var description: String { "\(name) (\(file))" }
}
