import CourierCollections
import CourierHTTP
import Foundation
import Synchronization

/// Follows one explorer send while it is under way (a `RunObserver`): as each request goes out it tells the
/// screen the secrets to mask, the jar's cookies sent, and for a live send what is being sent; it keeps the
/// request id the client's events carry, for the log when a newer send supersedes this one.
final class SendWatcher: RunObserver {
    private let queue: ActionQueue
    private let cookies: CookieJarStore?
    private let name: String
    private let generation: Int
    private let live: Bool
    private let sent = Mutex<RequestID?>(nil)

    init(queue: ActionQueue, cookies: CookieJarStore?, name: String, generation: Int, live: Bool) {
        self.queue = queue
        self.cookies = cookies
        self.name = name
        self.generation = generation
        self.live = live
    }

    /// The id of the last request this send put on the wire, if any did go out.
    var sentID: RequestID? { sent.withLock { $0 } }

    func willSend(_ request: HTTPRequest, secrets: Set<String>, context: RequestContext) {
        sent.withLock { $0 = context.id }
        // What this request sends as credentials may come back in the response (a server that echoes the
        // request): the screen masks it like the private values that went in.
        queue.post(.secretsLearned(secrets))
        if let cookies, let jar = request.cookieJar {
            let lines = cookies.jar(jar).cookies(for: request.url)
                .map { "\($0.name)=\($0.shownValue(showSecrets: false))" }
            queue.post(.requestCookies(request: name, lines: lines))
        }
        if live {
            queue.post(.liveSendStarted(generation: generation, method: request.method.rawValue,
                                        url: request.url.absoluteString))
        }
    }
}
