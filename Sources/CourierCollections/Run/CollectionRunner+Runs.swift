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
    func target(of directive: RunDirective)
        -> Result<(CollectionRunner, [RequestTemplate]), RunTargetMissing> {
        imports.target(of: directive, from: file, baseFolder: baseFolder).map { found in
            (found.file.map(runner(for:)) ?? self, found.requests)
        }
    }

    /// A runner for another file, with the same client, sharing this run's responses and globals.
    private func runner(for loaded: LoadedFile) -> CollectionRunner {
        var runner = CollectionRunner(file: loaded.file, baseFolder: loaded.url.deletingLastPathComponent(),
                                      context: context,
                                      imports: ImportedFiles.load(for: loaded, values: .init(context)),
                                      exchange: exchange, send: send)
        runner.showSecrets = showSecrets
        runner.observer = observer
        runner.call = call
        return runner
    }
}

