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

/// What the explorer keeps of one request while it is open or not: its last response (with the scroll,
/// folds and search of the pane over it), the response before that for `d`, and where its last send is.
/// Opening another request parks the shown session and brings that request's own back.
public struct RequestSession: Sendable {
    public var response = ResponseState()
    /// The Response pane's model of the last response.
    public var pane: ResponsePaneState?
    /// The response before it, of the same request, for the viewer's diff.
    public var previousPane: ResponsePaneState?
    /// The history key the last response was recorded under.
    public var historyKey: String?
    /// The generation of this request's last send: its response, failure and history record carry it.
    public var generation: Int?

    public init() {}
}
