import CourierBody

/// The JSONPath filter the Response pane is waiting for: its path and how far its job got.
public struct ResponseFiltering: Sendable {
    public var path: JSONPath
    /// The body job running the filter; its reports carry this.
    public var generation: Int
    public var progress = BodyFilter.Progress(scanned: 0, total: 0, matches: 0)

    /// A filter just started over a body of `total` bytes so far.
    public init(path: JSONPath, generation: Int, total: Int) {
        self.path = path
        self.generation = generation
        progress.total = total
    }
}
