import CourierBody
import CourierCollections
import CourierHTTP
import CourierHistory
import Foundation

/// The response `courier export swift --models` infers models from: the request sent once as `courier run`
/// sends it (its scripts, cookies, the requests it depends on, the HTTP cache when asked), or its newest
/// response in the explorer's history.
struct ExportResponse {
    /// Why there is no response to make models from.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var file: URL
    var displayPath: String
    var template: RequestTemplate
    var environmentName: String?
    var overrides: [String: String]

    /// The body, and the request as it was resolved for the send (nil from history).
    typealias Result = (body: Data, resolved: ResolvedRequest?)

    /// Sends the request once. A transport failure or an error status is a failure that says what to do.
    func send(cacheDirectory: String?, cacheMode: String?) throws -> Result {
        let name = template.name ?? template.displayName
        var invocation = RunCommand.Invocation(path: displayPath)
        invocation.names = [name]
        invocation.environment = environmentName
        invocation.overrides = overrides
        let plan = try RunPlan.make(invocation)
        guard let entry = plan.entries.first else { throw Failure(description: "nothing to send in \(displayPath)") }
        let environment = try entry.environment.get()
        let cacheFolder = cacheDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        var setup = ClientSetup()
        setup.cache = try ClientSetup.cache(directory: cacheFolder, requested: cacheMode != nil)
        setup.cookies = CookieJarStore()
        setup.cacheMode = cacheMode.flatMap(CacheMode.init(rawValue:))
        let runner = CollectionRunner(
            file: entry.loaded.file, baseFolder: entry.loaded.url.deletingLastPathComponent(),
            context: VariableContext(overrides: overrides, environment: environment), imports: entry.imports,
            send: setup.send(through: setup.makeClient()))
        let requests = entry.requests
        let outcomes = Interruptible.run { () async throws(APIError) -> [RunOutcome] in
            await runner.run(requests, failFast: true)
        }
        guard case .success(let all) = outcomes else { throw Failure(description: "'\(name)' was not sent") }
        guard let outcome = all.last(where: { $0.template.displayName == template.displayName }) else {
            let blocker = all.last.map { outcome in
                ": '\(outcome.template.displayName)', which it depends on, failed: "
                    + (outcome.failure?.summary ?? outcome.skipped ?? "no response")
            }
            throw Failure(description: "'\(name)' was not sent" + (blocker ?? ""))
        }
        defer { if let body = outcome.response?.body { TemporaryBodyFiles.release(body) } }
        guard let response = outcome.response else {
            let reason = outcome.failure?.summary ?? outcome.skipped ?? "no response"
            throw Failure(description: "'\(name)' got no response (\(reason)); with --from-history its newest "
                          + "response in the explorer's history is used instead")
        }
        guard response.status < 400 else {
            throw Failure(description: "'\(name)' answered \(response.status); models are made from a successful "
                          + "response")
        }
        return (try response.body.readAll(), outcome.resolved)
    }

    /// The request's newest successful response in history (kept by the explorer, secrets masked), matched
    /// by its name and its file's name.
    func fromHistory() throws -> Result {
        let name = template.name ?? template.displayName
        let store = HistoryStore(directory: HistoryStore.defaultDirectory())
        let fileName = file.lastPathComponent
        let entries = try store.list().filter { entry in
            entry.request.name == name
                && (entry.request.collectionPath.map { URL(fileURLWithPath: $0).lastPathComponent == fileName } ?? true)
        }
        guard let entry = entries.first(where: { ($0.response?.status ?? 999) < 400 }),
              let response = entry.response else {
            throw Failure(description: "no successful response of '\(name)' (\(fileName)) in history at "
                          + "\(store.directory.path); send it once without --from-history, or in the explorer")
        }
        guard response.storedBodyBytes >= response.bodyBytes else {
            throw Failure(description: "history kept only the start of '\(name)''s \(response.bodyBytes)-byte "
                          + "response (entry \(entry.id)); send it once without --from-history")
        }
        return (try store.body(id: entry.id), nil)
    }
}
