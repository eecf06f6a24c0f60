import CourierHTTP
import CourierScript
import CourierSecurity
import Foundation
import Synchronization

/// What a request's scripts may ask of Courier while they run: `pm.sendRequest` through the run's own client
/// (its transport, TLS verification, idle timeout, cookie jar; the request's `# @timeout` and
/// `# @connection-timeout`),
/// and the dynamic variables requests use, for `pm.variables.replaceIn`.
struct ScriptSending: Sendable {
    let send: CollectionRunner.Send
    let template: RequestTemplate
    /// The run's cookie jars, for `pm.cookies.jar()`; nil where there are none.
    var cookieJars: CookieJarStore?

    /// The services for a script of `template` run with `context`; a request it sends is abandoned once
    /// `isCancelled` says so (the explorer's Ctrl-C).
    func services(for context: VariableContext, isCancelled: @escaping @Sendable () -> Bool,
                  sent: ScriptSentLog? = nil) -> ScriptServices {
        let send = self.send
        let options = template.options
        // The script's requests share the cookie jar of the request they run for, as the resolver names it.
        let jar = template.tags[Resolver.noCookieJarTag] == nil
            ? context.environment.name ?? CookieJarStore.defaultJarName : nil
        return ScriptServices(send: { outgoing in
                                  let result = Self.send(outgoing, through: send, options: options, cookieJar: jar,
                                                         isCancelled: isCancelled)
                                  sent?.record(outgoing, result)
                                  return result
                              },
                              dynamicValue: Self.dynamicValues(context.dynamic), cookies: cookieCalls(jar: jar))
    }

    /// Answers `pm.cookies.jar()` on the jar named `jar`; nil when the request keeps no cookies or the run has none.
    private func cookieCalls(jar: String?) -> (@Sendable (String) -> String)? {
        guard let jar, let cookieJars else { return nil }
        return { call in ScriptCookieWire.answer(call, jar: cookieJars.jar(jar)) }
    }

    /// `$guid`, `$randomInt`, `$timestamp`… as requests resolve them; never a secret (`$processEnv`,
    /// `$dotenv` and `$env.NAME` have nothing to read here, so they stay as written).
    static func dynamicValues(_ dynamic: DynamicValues) -> @Sendable (String) -> String? {
        { expression in
            let sources = DynamicVariables.Sources(dynamic: dynamic, processEnvironment: [:],
                                                   dotenv: { () throws(CollectionError) in [:] },
                                                   environmentValue: { _ in nil })
            guard let value = try? DynamicVariables(sources: sources).value(expression), !value.isSecret else {
                return nil
            }
            return value.text
        }
    }

    /// Seconds between looks at the script's cancel while its request is out.
    static let cancelCheckInterval = 0.05

    /// Sends `outgoing` and waits for the whole response. Called on a script's own thread (`OwnThread`), never
    /// on the cooperative pool, so waiting here blocks no task.
    static func send(_ outgoing: ScriptOutgoingRequest, through send: @escaping CollectionRunner.Send,
                     options: RequestOptions, cookieJar: String? = nil,
                     isCancelled: @Sendable () -> Bool) -> Result<ScriptResponse, ScriptSendFailure> {
        guard let url = URL(string: outgoing.url), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host?.isEmpty == false else {
            return .failure(ScriptSendFailure("'\(outgoing.url)' is not an http or https URL"))
        }
        var request = HTTPRequest(method: HTTPMethod(outgoing.method), url: url, headers: outgoing.headers,
                                  body: outgoing.body.map { .data(Data($0.utf8)) } ?? .empty)
        request.cookieJar = cookieJar
        if let timeout = options.timeout { request.timeout = .milliseconds(Int64(timeout * 1000)) }
        if let connect = options.connectionTimeout { request.connectTimeout = .milliseconds(Int64(connect * 1000)) }
        let answer = Mutex<Result<ScriptResponse, ScriptSendFailure>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let task = Task { [request] in
            let result: Result<ScriptResponse, ScriptSendFailure>
            do {
                let response = try await send(request, RequestContext())
                let body = try response.body.readAll()
                result = .success(ScriptResponse(status: response.status, headers: response.headers,
                                                 body: String(decoding: body, as: UTF8.self),
                                                 milliseconds: Int(response.timing.total.milliseconds)))
            } catch let error as APIError {
                result = .failure(ScriptSendFailure(error.description))
            } catch {
                result = .failure(ScriptSendFailure(APIError(error).description))
            }
            answer.withLock { $0 = result }
            done.signal()
        }
        while done.wait(timeout: .now() + cancelCheckInterval) == .timedOut {
            if isCancelled() { task.cancel() }
        }
        return answer.withLock { $0 } ?? .failure(ScriptSendFailure("no response"))
    }
}

/// The requests a request's scripts sent (`pm.sendRequest`), a line each for the run's output beside the
/// script's own log lines: method, URL (its secret query values and password masked), and the status and time,
/// or why no response came.
final class ScriptSentLog: Sendable {
    private let lines = Mutex<[String]>([])

    func record(_ outgoing: ScriptOutgoingRequest, _ result: Result<ScriptResponse, ScriptSendFailure>) {
        let what = "pm.sendRequest \(outgoing.method) \(SecretPolicy.maskedURL(outgoing.url))"
        let line = switch result {
        case .success(let response): "\(what): \(response.status) in \(response.milliseconds) ms"
        case .failure(let failure): "\(what): no response: \(failure.message)"
        }
        lines.withLock { $0.append(line) }
    }

    /// The lines recorded so far, in the order the requests were sent; the log is emptied.
    func take() -> [String] {
        lines.withLock { taken in
            defer { taken.removeAll() }
            return taken
        }
    }
}
