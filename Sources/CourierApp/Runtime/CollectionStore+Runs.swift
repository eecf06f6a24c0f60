import CourierCollections
import CourierHTTP
import Foundation

/// A run block (`run #login`, `run ./setup.http`) sent from the explorer: what it names runs in order, as
/// `courier run` runs it, through the explorer's client; named responses and script globals are kept for the
/// session like those of any request sent.
extension CollectionStore {
    /// Runs the run block of `job` and returns the outcome of every request it ran, in order.
    public func runBlock(_ job: SendJob, send: @escaping CollectionRunner.Send) async throws(CollectionError)
        -> [RunOutcome] {
        let (file, template, context) = try sendContext(job)
        let runner = CollectionRunner(file: file.file, baseFolder: file.url.deletingLastPathComponent(),
                                      context: context, imports: ImportedFiles.load(for: file), send: send)
        let (outcomes, responses, globals) = await runner.runKeepingState([template])
        self.responses.withLock { $0 = responses }
        self.globals.withLock { $0 = globals }
        return outcomes
    }
}

extension CollectionStore {
    /// Whether the job's request runs other requests first (httpyac's `# @ref`, kulala.nvim's `run` lines above
    /// it) or repeats (`# @loop`): it is sent through the collection runner, as `courier run` sends it.
    public func runsThroughRunner(_ job: SendJob) -> Bool {
        guard let (_, template) = try? locate(job.ref) else { return false }
        return !template.references.isEmpty || template.loop != nil || !template.runsBefore.isEmpty
            || template.tags[CollectionRunner.disabledTag] != nil
    }
}

extension RunOutcome {
    /// `login 200`, `me failed: status 404`: one request of a run block, for the Response pane's line.
    public var shortSummary: String {
        let name = template.displayName
        if let failure, response == nil { return "\(name) failed: \(failure.summary)" }
        let status = "\(name) \(response.map { String($0.status) } ?? "skipped")"
        // The answer came but what the request does with it failed: a `>> file` it may not write.
        if case .collection(let error)? = failure { return status + ", then: \(error)" }
        return status
    }
}
