import CourierCollections
import CourierHTTP

/// The counts of a `courier run`, over every file it ran, for the summary line and the exit code.
struct RunTally: Sendable {
    var succeeded = 0
    var failed = 0
    var skipped = 0
    /// Files that could not run at all (no usable environment), by the path printed for them.
    var filesWithErrors: Set<String> = []
    /// The exit status of each failed request, in order (`ExitStatus`): one number when all failed alike.
    var failureStatuses: [Int32] = []
    /// What the `--report` files are made of.
    var report = RunReport()
    /// Requests that could not be built (bad input: an unknown variable, an unreadable file): exit code 3.
    var badInput = 0

    /// A script chose what ran next (`postman.setNextRequest`): requests it passed over are not failures.
    var steered = false

    /// Requests that ran (or were skipped): anything else planned was not run.
    var ran: Int { succeeded + failed + skipped }

    /// Counts the outcomes of one file.
    mutating func add(_ outcomes: [RunOutcome]) {
        for outcome in outcomes { add(outcome) }
    }

    /// Counts one outcome: a sequential run counts each as it is printed, with no array made for it.
    mutating func add(_ outcome: RunOutcome) {
        if outcome.scripts.nextRequest != nil { steered = true }
        if outcome.skipped != nil {
            skipped += 1
        } else if outcome.succeeded {
            succeeded += 1
        } else {
            failed += 1
            if case .collection = outcome.failure { badInput += 1 }
            failureStatuses.append(Self.exitStatus(of: outcome.failure))
        }
    }

    /// Adds another tally's counts (one file's); its report is not merged.
    mutating func add(counts other: RunTally) {
        succeeded += other.succeeded
        failed += other.failed
        skipped += other.skipped
        badInput += other.badInput
        failureStatuses += other.failureStatuses
        steered = steered || other.steered
    }

    /// A transport failure's own exit status (a refused connection's 7), else 1.
    private static func exitStatus(of failure: RunOutcome.Failure?) -> Int32 {
        switch failure {
        case .transport(let error): ExitStatus.of(error.kind)
        case .webSocket(let failure):
            if case .client(let kind) = failure.kind { ExitStatus.of(kind) } else { ExitStatus.failed }
        default: ExitStatus.failed
        }
    }

    /// `3 succeeded, 1 failed, 2 skipped, 4 not run`: the last two only when there are any.
    func summary(planned: Int) -> String {
        var text = "\(succeeded) succeeded, \(failed) failed"
        if skipped > 0 { text += ", \(skipped) skipped" }
        if planned > ran { text += ", \(planned - ran) not run" }
        return text
    }

    /// The exit codes of `courier run` besides `ExitStatus`'s (`RunCommand.badInputNote`).
    enum ExitCode {
        static let badInput: Int32 = 3
    }

    /// A file with errors first; then a request that could not be built, unless another request failed
    /// otherwise (an unknown token is often a failed login's doing); then any failure or request not run.
    func exitCode(planned: Int, planHasErrors: Bool) -> Int32 {
        if planHasErrors || !filesWithErrors.isEmpty { return ExitCode.badInput }
        if badInput > 0 && badInput == failed { return ExitCode.badInput }
        if ran < planned && !steered { return ExitStatus.failed }
        return ExitStatus.combining(failureStatuses)
    }
}
