import CourierCollections
import CourierHTTP
import Foundation

/// Sending from the explorer: a request (a run block, a request with `# @ref` or `# @loop`, a WebSocket
/// request's handshake, a GRPC call) goes out through `CollectionRunner`, the path `courier run` takes, with
/// one resolved context; named responses and script globals are kept for the session.
extension CollectionStore {
    /// Sends the request of `job` (and whatever it runs first) through `send`; WebSocket requests go to
    /// `exchange`, GRPC ones to `call`. Returns the request sent and the outcome of every request that ran, in
    /// order: the request's own alone, or those a run block, `# @ref` or `# @loop` ran.
    /// `cookieJars` are the jars the client sends with, which scripts reach through `pm.cookies.jar()`.
    public func send(_ job: SendJob, observer: (any RunObserver)? = nil, exchange: CollectionRunner.Exchange? = nil,
                     call: CollectionRunner.Call? = nil, cookieJars: CookieJarStore? = nil,
                     send: @escaping CollectionRunner.Send) async throws(CollectionError)
        -> (request: RequestTemplate, outcomes: [RunOutcome]) {
        let (file, template, context) = try sendContext(job)
        var runner = CollectionRunner(file: file.file, baseFolder: file.url.deletingLastPathComponent(),
                                      context: context,
                                      imports: ImportedFiles.load(for: file, values: .init(context)),
                                      exchange: exchange, send: send)
        runner.observer = observer
        runner.call = call
        runner.cookieJars = cookieJars
        // kulala runs a leading `### Shared` request before the request sent alone.
        let (outcomes, responses, globals) = await runner.runKeepingState(file.file.withKulalaSharedRequest([template]))
        self.responses.withLock { $0 = responses }
        self.globals.withLock { $0 = globals }
        return (template, outcomes)
    }
}
