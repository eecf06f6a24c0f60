import CourierBody
import CourierSecurity
import Foundation

/// The pane's background work as body jobs: the app gives each job a generation and starts it as an effect;
/// the job's reports come back as actions and change the pane here, and only while the pane still waits
/// for that generation, so a late report of a replaced search or a cancelled filter is dropped.
extension ResponsePaneState {
    /// Shows `search` as running over the lines on screen, as drawn with `masker`, and returns its job.
    mutating func begin(_ search: BodySearch, generation: Int, masker: SecretMasker? = nil) -> BodyJob {
        self.search = ResponseSearch(query: search.query, generation: generation)
        currentHit = nil
        return BodyJob(generation: generation, work: .search(search, in: lines(masker: masker)))
    }

    /// Shows `filter` as running over the body and returns its job.
    mutating func begin(_ filter: BodyFilter, generation: Int) -> BodyJob {
        filtering = ResponseFiltering(path: filter.path, generation: generation, total: body.byteCount)
        return BodyJob(generation: generation, work: .filter(filter, over: body))
    }

    /// The job that builds the line index and the pretty checkpoints, so `G`, go-to-line and search need not
    /// wait; nil when both are complete already.
    mutating func beginIndexing(generation: Int) -> BodyJob? {
        // The raw index first: it is a quick byte scan, so raw `G` and raw search never wait for the pretty
        // checkpoints, which cost a formatting pass over the whole body.
        let sources: [any LineSource] = [body] + (pretty.map { [$0] } ?? [])
        guard sources.contains(where: { !$0.isComplete }) else { return nil }
        indexing = generation
        return BodyJob(generation: generation, work: .index(sources))
    }

    /// The job that indexes the lines on screen for a jump waiting for them (`jump(to:)`): the filter's result
    /// or a body still arriving, which the pane's index job does not cover.
    mutating func beginJumpIndexing(generation: Int) -> BodyJob? {
        guard pendingLine != nil else { return nil }
        jumpIndexing = generation
        return BodyJob(generation: generation, work: .index([source]))
    }

    /// Whether the pane's index job is still running over `source` (the raw or the pretty body).
    func coversByIndexJob(_ source: any LineSource) -> Bool {
        guard indexing != nil else { return false }
        return source === body || pretty.map { source === $0 } == true
    }

    /// The job that diffs this response against `previous`, which reads both bodies whole; nil (with a
    /// message) when there is no previous response.
    mutating func beginCompare(with previous: ResponsePaneState?, generation: Int) -> BodyJob? {
        guard let previous else { message = "No previous response of this request to compare with"; return nil }
        comparing = generation
        message = "Comparing with the previous response…"
        return BodyJob(generation: generation, work: .diff(old: previous, new: self))
    }

    /// The generations of the jobs this pane waits for; one that disappears from here is cancelled.
    var runningJobs: [Int] {
        [search.flatMap { $0.isFinished ? nil : $0.generation }, filtering?.generation, indexing, comparing,
         jumpIndexing]
            .compactMap { $0 }
    }

    /// Applies a job's report; false when the pane waits for no job of that generation (it is dropped).
    mutating func apply(_ report: BodyJobReport) -> Bool {
        switch report {
        case .searched(let generation, let progress):
            guard search?.generation == generation else { return false }
            search?.hits.append(contentsOf: progress.hits)
            search?.progress = progress.fraction
            search?.isFinished = progress.isFinished
            // Enter on a search goes to its first match (from the cursor) as soon as one is found.
            if currentHit == nil, search?.hits.isEmpty == false { jumpToHit(forward: true) }
        case .filtering(let generation, let progress):
            guard filtering?.generation == generation else { return false }
            filtering?.progress = progress
        case .filtered(let generation, let outcome):
            guard filtering?.generation == generation else { return false }
            finishFilter(outcome)
        case .indexed(let generation, let finished):
            if jumpIndexing == generation {
                if finished { jumpIndexing = nil }
            } else {
                guard indexing == generation else { return false }
                if finished { indexing = nil }
            }
            // A jump asked for before the index reached its line moves there now.
            advance()
        case .diffed(let generation, let lines):
            guard comparing == generation else { return false }
            showDiff(lines)
        }
        return true
    }
}
