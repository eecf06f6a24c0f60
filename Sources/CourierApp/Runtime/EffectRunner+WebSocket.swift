import CourierCollections
import CourierHTTP
import CourierWebSocket
import Foundation

/// Connecting the WebSocket pane as its request says: sent as any request is (`CollectionStore.send`, the
/// path `courier run` takes: pre-request scripts, variables, environment, private values, prompts, client
/// certificate), its handshake handed to the pane's session, off the loop thread.
extension EffectRunner {
    /// Resolves `job` through the send path, adds the jar's cookies, tells the screen the secrets to mask,
    /// then opens the pane's session with those settings. The session's automatic reconnects re-use them;
    /// connecting again (the pane's connect key) resolves afresh, so a changed environment or file counts from
    /// then on.
    func connectWebSocket(_ job: SendJob, subscriptions: [Int]) {
        // Taken now, on the loop thread: a disconnect pressed while the request resolves wins.
        let ticket = webSocket.beginConnect()
        let store = self.store
        let queue = self.queue
        let cookies = configuration.cookies
        let webSocket = self.webSocket
        let client = self.client
        Task.detached(priority: .userInitiated) {
            let exchange: CollectionRunner.Exchange = { resolved in
                var settings = WebSocketConfiguration(request: resolved.request)
                if let cookies, let name = resolved.request.cookieJar {
                    cookies.jar(name).addCookies(to: &settings.headers, for: resolved.request.url)
                }
                // A server may echo the handshake's credentials back in a message: the pane masks them.
                queue.post(.secretsLearned(resolved.secretSet.union(settings.headers.secretValues)))
                let messages = resolved.messages.map(\.text)
                queue.post(.webSocketResolved(unverifiedTLS: settings.isUnverifiedTLS, messages: messages))
                // A GRAPHQL subscription's connection_init and subscribe go out on every connect.
                let sent = resolved.template.kind == .graphql
                    ? messages : subscriptions.filter(messages.indices.contains).map { messages[$0] }
                webSocket.connect(settings, subscriptions: sent, ticket: ticket)
                // The pane's session goes on from here; the send itself is done.
                return WebSocketRunResult(url: resolved.request.url)
            }
            let unresolved: CollectionError
            do throws(CollectionError) {
                let outcomes = try await store.send(job, exchange: exchange) { request, context async throws(APIError) in
                    try await client.send(request, context: context)
                }.outcomes
                // A request that could not be resolved (an unknown variable, a missing file) connects nothing and
                // says why.
                guard !outcomes.contains(where: { $0.webSocket != nil }),
                      case .collection(let error)? = outcomes.last?.failure else { return }
                unresolved = error
            } catch {
                unresolved = error
            }
            // The message may quote a private value: the screen masks those.
            queue.post(.secretsLearned(store.knownSecrets(job)))
            queue.post(.webSocketUnresolved(Self.failure(unresolved)))
        }
    }
}
