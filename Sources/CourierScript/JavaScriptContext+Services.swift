import CJavaScriptCore
import CourierMessage
import Foundation
import Synchronization

extension JavaScriptContext {
    /// The services of every context that has some, by the address of its global object: a C callback
    /// captures nothing, so it finds them here.
    private static let registered = Mutex<[UInt: ScriptServices]>([:])

    /// Defines `__courierSend(requestJSON)` when `services` can send (`ScriptSendWire` says what crosses) and
    /// `__courierDynamic(expression)` when they know dynamic variables (a value, or null); `forgetServices()`
    /// must follow before the context goes.
    func install(_ services: ScriptServices) {
        guard services.send != nil || services.dynamicValue != nil || services.cookies != nil else { return }
        let key = globalAddress
        Self.registered.withLock { $0[key] = services }
        if services.send != nil {
            define("__courierSend") { context, _, _, count, arguments, _ in
                guard let jsc = JavaScriptContext.library, let context else { return nil }
                let send = JavaScriptContext.services(of: context, jsc)?.send
                guard let send, let arguments, count == 1,
                      let json = JavaScriptContext.string(arguments[0], in: context, jsc) else {
                    return JavaScriptContext.makeString(ScriptSendWire.failure("pm.sendRequest takes a request"),
                                                        in: context, jsc)
                }
                return JavaScriptContext.makeString(ScriptSendWire.answer(json, send: send), in: context, jsc)
            }
        }
        if services.cookies != nil {
            define("__courierCookies") { context, _, _, count, arguments, _ in
                guard let jsc = JavaScriptContext.library, let context else { return nil }
                guard let cookies = JavaScriptContext.services(of: context, jsc)?.cookies, let arguments, count == 1,
                      let call = JavaScriptContext.string(arguments[0], in: context, jsc) else {
                    return jsc.JSValueMakeNull(context)
                }
                return JavaScriptContext.makeString(cookies(call), in: context, jsc)
            }
        }
        if services.dynamicValue != nil {
            define("__courierDynamic") { context, _, _, count, arguments, _ in
                guard let jsc = JavaScriptContext.library, let context else { return nil }
                guard let dynamic = JavaScriptContext.services(of: context, jsc)?.dynamicValue,
                      let arguments, count == 1,
                      let expression = JavaScriptContext.string(arguments[0], in: context, jsc),
                      let value = dynamic(expression) else {
                    return jsc.JSValueMakeNull(context)
                }
                return JavaScriptContext.makeString(value, in: context, jsc)
            }
        }
    }

    /// Drops what `install` registered for this context.
    func forgetServices() {
        let key = globalAddress
        _ = Self.registered.withLock { $0.removeValue(forKey: key) }
    }

    private static func services(of context: JSContextRef, _ jsc: courier_jsc_table) -> ScriptServices? {
        let key = address(of: jsc.JSContextGetGlobalObject(context))
        return registered.withLock { $0[key] }
    }
}

/// What crosses between `pm.sendRequest`'s JavaScript and the sender, as JSON text: the request as
/// `{method, url, headers: [[name, value]…], body}`, and back `{response: {status, headers, body,
/// milliseconds}}` or `{error: message}`.
enum ScriptSendWire {
    static func answer(_ json: String,
                       send: (ScriptOutgoingRequest) -> Result<ScriptResponse, ScriptSendFailure>) -> String {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any],
              let url = object["url"] as? String else {
            return failure("pm.sendRequest takes a URL or a request with a url")
        }
        let pairs = (object["headers"] as? [[String]] ?? []).filter { $0.count == 2 }
        let request = ScriptOutgoingRequest(method: object["method"] as? String ?? "GET", url: url,
                                            headers: HTTPHeaders(pairs.map { HTTPHeaders.Field($0[0], $0[1]) }),
                                            body: object["body"] as? String)
        switch send(request) {
        case .failure(let failure):
            return self.failure(failure.message)
        case .success(let response):
            let reply: [String: Any] = ["response": [
                "status": response.status, "body": response.body, "milliseconds": response.milliseconds,
                "headers": response.headers.map { ["name": $0.name, "value": $0.value] },
            ] as [String: Any]]
            let data = (try? JSONSerialization.data(withJSONObject: reply)) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
    }

    static func failure(_ message: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: ["error": message])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
