/// Which Response panes wait for which body jobs (search, filter, index, diff), open or parked.
extension AppState {
    /// A new body job's generation.
    mutating func nextBodyJobGeneration() -> Int {
        bodyJobGeneration += 1
        return bodyJobGeneration
    }

    /// The body jobs some pane waits for: the open request's and those of parked requests, whose search or
    /// index goes on while another request is open. The response kept for `d` waits for none.
    var runningBodyJobs: Set<Int> {
        var jobs = Set(session.pane?.runningJobs ?? [])
        for parked in sessions.values { jobs.formUnion(parked.pane?.runningJobs ?? []) }
        return jobs
    }

    /// Gives a body job's report to the pane waiting for it; a report no pane waits for is dropped.
    mutating func applyBodyJob(_ report: BodyJobReport) {
        if session.pane?.apply(report) == true { return }
        // The keys copied apart, so changing a parked pane does not copy the whole dictionary.
        for key in Array(sessions.keys) where sessions[key]?.pane?.apply(report) == true { return }
    }
}
