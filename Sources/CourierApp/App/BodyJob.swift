import CourierBody
import Foundation

/// Background work over response bodies that `update` asks for: a search, a JSONPath filter, building the
/// line index, or the diff with the previous response. Its generation names it: every report carries it, a newer job or Esc cancels it by it,
/// and a report whose generation no pane waits for any more is dropped (as sends are, see `LatestOnly`).
public struct BodyJob: Sendable, Hashable {
    /// What to do, over which lines.
    public enum Work: Sendable {
        case search(BodySearch, in: any LineSource)
        case filter(BodyFilter, over: BodyDocument)
        /// Index each source in turn (the raw body first: its quick byte scan serves raw `G` and search).
        case index([any LineSource])
        /// Diff a response against the one before it (status, headers, every pretty body line).
        case diff(old: ResponsePaneState, new: ResponsePaneState)
    }

    public let generation: Int
    public let work: Work

    /// Creates the value from its parts.
    public init(generation: Int, work: Work) {
        self.generation = generation
        self.work = work
    }

    /// One generation is one job: the sources it works over are reference types with no value to compare.
    public static func == (a: BodyJob, b: BodyJob) -> Bool { a.generation == b.generation }
    public func hash(into hasher: inout Hasher) { hasher.combine(generation) }
}

/// What a running body job tells the explorer, as the `.bodyJob` action.
public enum BodyJobReport: Sendable {
    /// A search step: the hits new since the previous report and how far it got.
    case searched(generation: Int, BodySearch.Progress)
    /// A filter step: the bytes read and matches found so far.
    case filtering(generation: Int, BodyFilter.Progress)
    /// The filter finished: the matches as a document, or why the body could not be filtered.
    case filtered(generation: Int, Result<BodyFilter.Output, BodyError>)
    /// The index grew; `finished` once every source is indexed.
    case indexed(generation: Int, finished: Bool)
    /// The diff against the previous response, as display lines.
    case diffed(generation: Int, StaticLines)

    /// The job the report is from.
    public var generation: Int {
        switch self {
        case .searched(let generation, _), .filtering(let generation, _), .filtered(let generation, _),
             .indexed(let generation, _), .diffed(let generation, _): generation
        }
    }

    /// Whether this is the job's last report.
    var isFinal: Bool {
        switch self {
        case .searched(_, let progress): progress.isFinished
        case .filtering: false
        case .filtered, .diffed: true
        case .indexed(_, let finished): finished
        }
    }

    /// This report folded into an earlier one not yet delivered, so a job that outruns the loop sends one
    /// action per frame: search hits add up, the rest is replaced by the newer news.
    func merged(after earlier: BodyJobReport?) -> BodyJobReport {
        guard case .searched(let generation, let newer) = self, case .searched(_, let older)? = earlier else {
            return self
        }
        return .searched(generation: generation, BodySearch.Progress(hits: older.hits + newer.hits,
                                                                     fraction: newer.fraction,
                                                                     isFinished: newer.isFinished))
    }
}
