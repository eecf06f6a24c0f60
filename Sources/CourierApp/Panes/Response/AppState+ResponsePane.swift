import CourierTerminal
import Foundation

extension AppState {
    /// Whether the response viewer is showing the current response.
    var viewerActive: Bool {
        guard case .received = response.phase else { return false }
        return responsePane != nil
    }

    mutating func runResponsePane(_ command: ResponsePaneCommand) -> [Effect] {
        guard viewerActive, var pane = responsePane else {
            status = StatusMessage("No response yet: \(keys.spelling(of: .global(.send))) sends the request")
            return []
        }
        pane.pageSize = max(1, layout.contentHeight(.response) - 3)
        pane.searchKey = keys.spelling(of: .responsePane(.beginSearch))
        let submitted = command == .submit ? pane.prompt : nil
        let effect = pane.handle(command)
        // Each kind of prompt remembers what it was given, for ↑ in the next one.
        if let submitted { promptHistory.record(submitted.text, in: submitted.historyKind) }
        if [.beginSearch, .beginFilter, .beginGoToLine].contains(command), let kind = pane.prompt?.historyKind {
            pane.prompt?.line.history = promptHistory[kind]
        }
        var effects: [Effect] = []
        switch effect {
        case .copy(let text)?:
            effects.append(.copyToClipboard(text))
        case .saveBody?:
            modals.append(.prompt(PromptState(title: "Save the body to file", text: "response.body", purpose: .saveResponse)))
        case .search(let search)?:
            effects.append(.bodyJob(pane.begin(search, generation: nextBodyJobGeneration(), masker: screenMasker)))
        case .filter(let filter)?:
            effects.append(.bodyJob(pane.begin(filter, generation: nextBodyJobGeneration())))
        case .indexForJump?:
            if let job = pane.beginJumpIndexing(generation: nextBodyJobGeneration()) { effects.append(.bodyJob(job)) }
        case .loadPrevious?:
            // This session's previous response first; else the one before it in history (kept across runs).
            if previousResponsePane == nil, let key = currentHistoryKey {
                pane.message = "Reading the previous response from history…"
                responsePane = pane
                return effects + [.loadPreviousResponse(requestKey: key, skipNewest: responseKey == key)]
            }
            if let job = pane.beginCompare(with: previousResponsePane, generation: nextBodyJobGeneration()) {
                effects.append(.bodyJob(job))
            }
        case nil:
            break
        }
        responsePane = pane
        return effects
    }

    /// Compares the shown response with the previous one read from history, when it is still the open
    /// request's.
    mutating func comparePrevious(_ previous: ResponsePaneState?, requestKey: String) -> [Effect] {
        guard currentHistoryKey == requestKey, var pane = responsePane else { return [] }
        previousResponsePane = previous
        pane.message = nil
        let job = pane.beginCompare(with: previous, generation: nextBodyJobGeneration())
        responsePane = pane
        return job.map { [.bodyJob($0)] } ?? []
    }

    /// Gives the response of the newest send to the request that sent it, open or parked; the response it
    /// replaces is kept for `d`. Returns the job that indexes the new body in the background.
    mutating func showResponsePane(_ pane: ResponsePaneState, generation: Int) -> [Effect] {
        guard generation == self.generation else { return [] }
        inFlight = nil
        var pane = pane
        // The whole send, not only its last attempt: retries and their waits count.
        if let flight, flight.generation == generation {
            pane.info.attempts = flight.attempt
            pane.info.elapsed = clock().timeIntervalSince(flight.started)
        }
        flight = nil
        pane.pageSize = max(1, layout.contentHeight(.response) - 3)
        let indexing = pane.beginIndexing(generation: nextBodyJobGeneration())
        updateSession(generation: generation) { session in
            if let current = session.pane { session.previousPane = current }
            session.pane = pane
            session.response.phase = .received
        }
        return indexing.map { [.bodyJob($0)] } ?? []
    }
}
