import CJavaScriptCore
import Synchronization

/// One JavaScriptCore context in its own group, with the group's execution time limit set. It owns both
/// handles; every raw JavaScriptCore pointer of the module stays in this file.
final class JavaScriptContext {
    /// What an evaluation threw: its text (`TypeError: …`), its stack and the line JavaScriptCore gave it.
    struct Exception: Error {
        var message: String
        var stack: String
        var line: Int?
    }

    /// Groups (virtual machines) kept between scripts, because making one costs more than running a
    /// typical handler. Each script still gets a fresh global context, so nothing one defines reaches
    /// the next; a group is used by one script at a time.
    private static let idle = Mutex<[IdleGroup]>([])
    private static let keptGroups = 4

    private let group: JSContextGroupRef
    private let context: JSGlobalContextRef
    /// Cleared when an evaluation was stopped by the time limit: that group is not reused.
    private var reusable = true

    /// A fresh context whose every evaluation is stopped after `timeLimit` seconds.
    init(timeLimit: Double) {
        group = Self.idle.withLock { $0.popLast()?.group } ?? JSContextGroupCreate()
        // A nil callback makes JavaScriptCore terminate unconditionally once the limit is reached.
        JSContextGroupSetExecutionTimeLimit(group, timeLimit, nil, nil)
        context = JSGlobalContextCreateInGroup(group, nil)
    }

    deinit {
        JSGlobalContextRelease(context)
        let idle = IdleGroup(group: group)
        let kept = reusable && Self.idle.withLock { groups in
            guard groups.count < Self.keptGroups else { return false }
            groups.append(idle)
            return true
        }
        if !kept { JSContextGroupRelease(group) }
    }

    /// Evaluates `code` as if it started on line `line` of `sourceURL`; the result converted to a string.
    func evaluate(_ code: String, sourceURL: String, line: Int) -> Result<String, Exception> {
        let script = JSStringCreateWithUTF8CString(code)
        let source = JSStringCreateWithUTF8CString(sourceURL)
        defer {
            JSStringRelease(script)
            JSStringRelease(source)
        }
        var exception: JSValueRef?
        let value = JSEvaluateScript(context, script, nil, source, Int32(clamping: line), &exception)
        if let exception {
            let failure = describe(exception)
            if failure.message.contains(ScriptEngine.terminatedMarker) { reusable = false }
            return .failure(failure)
        }
        guard let value, !JSValueIsUndefined(context, value) else { return .success("") }
        return .success(string(value) ?? "")
    }

    private func describe(_ exception: JSValueRef) -> Exception {
        let message = string(exception) ?? "unknown JavaScript error"
        var stack = ""
        var line: Int?
        if JSValueIsObject(context, exception), let object = JSValueToObject(context, exception, nil) {
            if let value = property("stack", of: object), !JSValueIsUndefined(context, value) {
                stack = string(value) ?? ""
            }
            if let value = property("line", of: object), JSValueIsNumber(context, value) {
                line = Int(JSValueToNumber(context, value, nil))
            }
        }
        return Exception(message: message, stack: stack, line: line)
    }

    private func property(_ name: String, of object: JSObjectRef) -> JSValueRef? {
        let key = JSStringCreateWithUTF8CString(name)
        defer { JSStringRelease(key) }
        return JSObjectGetProperty(context, object, key, nil)
    }

    /// Defines `__courierDigest(algorithm, keyHex|null, dataHex)` for the prelude's `crypto` helpers.
    func installDigest() {
        let name = JSStringCreateWithUTF8CString("__courierDigest")
        defer { JSStringRelease(name) }
        let function = JSObjectMakeFunctionWithCallback(context, name) { context, _, _, count, arguments, _ in
            guard let context, let arguments, count == 3,
                  let algorithm = JavaScriptContext.string(arguments[0], in: context),
                  let data = JavaScriptContext.string(arguments[2], in: context) else {
                return JSValueMakeNull(context)
            }
            let key = arguments[1].flatMap {
                JSValueIsNull(context, $0) ? nil : JavaScriptContext.string($0, in: context)
            }
            guard let hex = ScriptDigest.hex(algorithm, keyHex: key, dataHex: data) else {
                return JSValueMakeNull(context)
            }
            let result = JSStringCreateWithUTF8CString(hex)
            defer { JSStringRelease(result) }
            return JSValueMakeString(context, result)
        }
        JSObjectSetProperty(context, JSContextGetGlobalObject(context), name, function,
                            JSPropertyAttributes(kJSPropertyAttributeReadOnly), nil)
    }

    private func string(_ value: JSValueRef) -> String? { Self.string(value, in: context) }

    private static func string(_ value: JSValueRef?, in context: JSContextRef) -> String? {
        guard let value, let text = JSValueToStringCopy(context, value, nil) else { return nil }
        defer { JSStringRelease(text) }
        let size = JSStringGetMaximumUTF8CStringSize(text)
        var buffer = [CChar](repeating: 0, count: size)
        _ = JSStringGetUTF8CString(text, &buffer, size)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A group no script is using, handed to the next script through the idle list. JavaScriptCore locks the
/// group's virtual machine on every call, and only one context at a time holds a group, hence unchecked.
private struct IdleGroup: @unchecked Sendable {
    let group: JSContextGroupRef
}
