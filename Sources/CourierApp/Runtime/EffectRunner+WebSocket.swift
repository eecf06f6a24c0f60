import CourierCollections
import CourierHTTP
import CourierWebSocket
import Foundation

/// Connecting the WebSocket pane as its request says: resolved as a send resolves it, off the loop thread.
extension EffectRunner {
    /// Resolves `job` (variables, environment, private values, prompts, client certificate; its pre-request
    /// scripts first, as `courier run` runs them for a WEBSOCKET request), adds the jar's cookies, tells the screen the secrets to mask, then opens the pane's session with those settings.
    /// The session's automatic reconnects re-use them; connecting again (the pane's connect key) resolves
    /// afresh, so a changed environment or file counts from then on.
    func connectWebSocket(_ job: SendJob, subscriptions: [String]) {
        // Taken now, on the loop thread: a disconnect pressed while the request resolves wins.
        let ticket = webSocket.beginConnect()
        let store = self.store
        let queue = self.queue
        let cookies = configuration.cookies
        let webSocket = self.webSocket
        Task.detached(priority: .userInitiated) {
            // Resolving reads environment, certificate and body files: never on the loop thread.
            let resolution: Result<(HTTPRequest, Set<String>), CollectionError>
            if store.hasScripts(job) {
                // A script may run to its time limit: on a thread of its own, as for sends.
                resolution = await Self.onOwnThread { cancel in
                    var report = ScriptReport()
                    do throws(CollectionError) {
                        let prepared = try store.prepareWithScripts(job, report: &report, cancel: cancel)
                        return .success((prepared.request, prepared.resolved.secrets))
                    } catch {
                        return .failure(error)
                    }
                }
            } else {
                do throws(CollectionError) {
                    let resolved = try store.resolveWithSecrets(job)
                    resolution = .success((resolved.request, resolved.secrets))
                } catch {
                    resolution = .failure(error)
                }
            }
            let request: HTTPRequest
            var secrets: Set<String>
            switch resolution {
            case .success(let ready):
                (request, secrets) = ready
            case .failure(let error):
                // The message may quote a private value: the screen masks those.
                queue.post(.secretsLearned(store.knownSecrets(job)))
                queue.post(.webSocketUnresolved(Self.failure(error)))
                return
            }
            var settings = WebSocketConfiguration(request: request)
            if let cookies, let name = request.cookieJar {
                cookies.jar(name).addCookies(to: &settings.headers, for: request.url)
            }
            // A server may echo the handshake's credentials back in a message: the pane masks them.
            secrets.formUnion(request.secretValues)
            secrets.formUnion(settings.headers.secretValues)
            queue.post(.secretsLearned(secrets))
            queue.post(.webSocketResolved(unverifiedTLS: settings.isUnverifiedTLS))
            webSocket.connect(settings, subscriptions: subscriptions, ticket: ticket)
        }
    }
}
