import CourierHTTP
import Foundation

/// One run block on the way to the request being run: what a cycle is detected by.
struct RunLink: Sendable, Hashable {
    /// The file's path as printed, and the block's ordinal there.
    var file: String
    var ordinal: Int

    init(_ block: RequestTemplate) { (file, ordinal) = (block.id.file, block.id.ordinal) }
}

/// JetBrains' `run #name` and `run ./other.http` blocks: each runs what it names, in order, where it is
/// written; the requests run are reported like any other, their named responses serve the requests after.
extension CollectionRunner {
    /// How many run blocks may run one another, a guard against cycles that pass through differently
    /// spelled paths.
    static let maximumRunDepth = 32

    /// Runs every `run` line of `block`. A line that names nothing, or that would run `block` again, fails
    /// the block with an error at its line. False when the run stops.
    func runBlock(_ block: RequestTemplate, variables: inout VariableContext, outcomes: inout [RunOutcome],
                  chain: [RunLink], failFast: Bool, onOutcome: (RunOutcome) -> Void) async -> Bool {
        let running = Set(chain + [RunLink(block)])
        for directive in block.runs {
            let failure: String
            switch target(of: directive) {
            case .success(let (runner, requests)):
                if let again = requests.first(where: { $0.isRunBlock && running.contains(RunLink($0)) }) {
                    failure = "run cycle: '\(directive.text)' runs '\(again.displayName)' again, which is "
                        + "already running"
                } else if chain.count >= Self.maximumRunDepth {
                    failure = "'run' blocks nest more than \(Self.maximumRunDepth) deep; is there a cycle?"
                } else {
                    let saved = variables.overrides
                    // Values written on the `run` line beat the files' own; `--var` still beats them.
                    for definition in directive.overrides where saved[definition.name] == nil {
                        variables.overrides[definition.name] = definition.value
                    }
                    let goOn = await runner.runSteps(requests, variables: &variables, outcomes: &outcomes,
                                                     chain: chain + [RunLink(block)], failFast: failFast,
                                                     onOutcome: onOutcome)
                    variables.overrides = saved
                    if !goOn { return false }
                    continue
                }
            case .failure(let missing):
                failure = missing.message
            }
            var outcome = RunOutcome(template: block, context: RequestContext())
            let diagnostic = Diagnostic(file: file.path, line: directive.line, message: failure)
            outcome.failure = .collection(.syntax(diagnostic))
            if let name = block.name { variables.responses.recordFailure(name: name, reason: failure) }
            outcomes.append(outcome)
            onOutcome(outcome)
            if failFast { return false }
        }
        return true
    }

    /// The runner for the file that holds what `directive` names, and the requests to run there.
    private func target(of directive: RunDirective) -> Result<(CollectionRunner, [RequestTemplate]), RunTargetMissing> {
        switch directive.target {
        case .request(let name):
            if let request = file.requests.first(where: { $0.name == name }) { return .success((self, [request])) }
            if let (found, request) = imports.request(named: name) { return .success((runner(for: found), [request])) }
            let known = file.requests.compactMap(\.name) + imports.names
            let close = NameSuggestions.closest(to: name, in: known)
            return .failure(RunTargetMissing("no request is named '\(name)' in this file or the files it imports"
                + (close.isEmpty ? "" : "; did you mean \(close.map { "'\($0)'" }.joined(separator: ", "))?")))
        case .file(let path):
            let url = ImportedFiles.url(of: path, relativeTo: baseFolder.appendingPathComponent("x.http"))
            let display = ImportedFiles.displayPath(of: path, relativeTo: file.path)
            do {
                let loaded = try CollectionLoader.loadFile(url, displayPath: display)
                if let error = loaded.file.diagnostics.first(where: { $0.severity == .error }) {
                    return .failure(RunTargetMissing("cannot run '\(path)': \(error)"))
                }
                return .success((runner(for: loaded), loaded.file.requests))
            } catch {
                let reason = FileManager.default.fileExists(atPath: url.path) ? "\(error)" : "no such file"
                return .failure(RunTargetMissing("cannot run '\(path)': \(reason)"))
            }
        }
    }

    /// A runner for another file, with the same client, sharing this run's responses and globals.
    private func runner(for loaded: LoadedFile) -> CollectionRunner {
        CollectionRunner(file: loaded.file, baseFolder: loaded.url.deletingLastPathComponent(), context: context,
                         imports: ImportedFiles.load(for: loaded), exchange: exchange, send: send)
    }
}

/// Why a `run` line names nothing that can run.
struct RunTargetMissing: Error {
    var message: String
    init(_ message: String) { self.message = message }
}
