import CourierCollections

/// The counts of a `courier run`, over every file it ran, for the summary line and the exit code.
struct RunTally: Sendable {
    var succeeded = 0
    var failed = 0
    var skipped = 0
    /// Files that could not run at all (no usable environment), by the path printed for them.
    var filesWithErrors: Set<String> = []
    /// What `--report junit FILE` writes.
    var report = JUnitReport()

    /// Requests that ran (or were skipped): anything else planned was not run.
    var ran: Int { succeeded + failed + skipped }

    /// Counts the outcomes of one file.
    mutating func add(_ outcomes: [RunOutcome]) {
        for outcome in outcomes {
            if outcome.skipped != nil {
                skipped += 1
            } else if outcome.succeeded {
                succeeded += 1
            } else {
                failed += 1
            }
        }
    }

    /// `3 succeeded, 1 failed, 2 skipped, 4 not run`: the last two only when there are any.
    func summary(planned: Int) -> String {
        var text = "\(succeeded) succeeded, \(failed) failed"
        if skipped > 0 { text += ", \(skipped) skipped" }
        if planned > ran { text += ", \(planned - ran) not run" }
        return text
    }
}
