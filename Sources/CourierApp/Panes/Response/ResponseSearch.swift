import CourierBody

/// The search the Response pane shows: its query, the hits its job has reported so far and how far it got.
public struct ResponseSearch: Sendable {
    public var query: SearchQuery
    /// The body job finding the hits; its reports carry this.
    public var generation: Int
    public var hits = SearchHits()
    /// Fraction of lines searched (0…1).
    public var progress: Double = 0
    public var isFinished = false

    /// A search just started, with no hits yet.
    public init(query: SearchQuery, generation: Int) {
        self.query = query
        self.generation = generation
    }
}
