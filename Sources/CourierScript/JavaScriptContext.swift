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

    /// Whether JavaScriptCore could be loaded (it is loaded on the first call; see CJavaScriptCore's shim.h).
    static var isAvailable: Bool { courier_jsc_load() }
    /// The shared library that is loaded (`COURIER_JAVASCRIPTCORE_LIBRARY` names another), for the error
    /// when it is missing.
    static var libraryName: String { String(cString: courier_jsc_library()) }

    /// A fresh context whose every evaluation is stopped after `timeLimit` seconds; only when `isAvailable`.
    init(timeLimit: Double) {
        group = Self.idle.withLock { $0.popLast()?.group } ?? courier_JSContextGroupCreate()
        // A nil callback makes JavaScriptCore terminate unconditionally once the limit is reached.
        courier_JSContextGroupSetExecutionTimeLimit(group, timeLimit, nil, nil)
        context = courier_JSGlobalContextCreateInGroup(group, nil)
    }

    deinit {
        courier_JSGlobalContextRelease(context)
        let idle = IdleGroup(group: group)
        let kept = reusable && Self.idle.withLock { groups in
            guard groups.count < Self.keptGroups else { return false }
            groups.append(idle)
            return true
        }
        if !kept { courier_JSContextGroupRelease(group) }
    }

    /// Evaluates `code` as if it started on line `line` of `sourceURL`; the result converted to a string.
    func evaluate(_ code: String, sourceURL: String, line: Int) -> Result<String, Exception> {
        let script = courier_JSStringCreateWithUTF8CString(code)
        let source = courier_JSStringCreateWithUTF8CString(sourceURL)
        defer {
            courier_JSStringRelease(script)
            courier_JSStringRelease(source)
        }
        var exception: JSValueRef?
        let value = courier_JSEvaluateScript(context, script, nil, source, Int32(clamping: line), &exception)
        if let exception {
            let failure = describe(exception)
            if failure.message.contains(ScriptEngine.terminatedMarker) { reusable = false }
            return .failure(failure)
        }
        guard let value, !courier_JSValueIsUndefined(context, value) else { return .success("") }
        return .success(string(value) ?? "")
    }

    private func describe(_ exception: JSValueRef) -> Exception {
        let message = string(exception) ?? "unknown JavaScript error"
        var stack = ""
        var line: Int?
        if courier_JSValueIsObject(context, exception), let object = courier_JSValueToObject(context, exception, nil) {
            if let value = property("stack", of: object), !courier_JSValueIsUndefined(context, value) {
                stack = string(value) ?? ""
            }
            if let value = property("line", of: object), courier_JSValueIsNumber(context, value) {
                line = Int(courier_JSValueToNumber(context, value, nil))
            }
        }
        return Exception(message: message, stack: stack, line: line)
    }

    private func property(_ name: String, of object: JSObjectRef) -> JSValueRef? {
        let key = courier_JSStringCreateWithUTF8CString(name)
        defer { courier_JSStringRelease(key) }
        return courier_JSObjectGetProperty(context, object, key, nil)
    }

    /// Defines `__courierDigest(algorithm, keyHex|null, dataHex)` for the prelude's `crypto` helpers.
    func installDigest() {
        let name = courier_JSStringCreateWithUTF8CString("__courierDigest")
        defer { courier_JSStringRelease(name) }
        let function = courier_JSObjectMakeFunctionWithCallback(context, name) { context, _, _, count, arguments, _ in
            guard let context, let arguments, count == 3,
                  let algorithm = JavaScriptContext.string(arguments[0], in: context),
                  let data = JavaScriptContext.string(arguments[2], in: context) else {
                return courier_JSValueMakeNull(context)
            }
            let key = arguments[1].flatMap {
                courier_JSValueIsNull(context, $0) ? nil : JavaScriptContext.string($0, in: context)
            }
            guard let hex = ScriptDigest.hex(algorithm, keyHex: key, dataHex: data) else {
                return courier_JSValueMakeNull(context)
            }
            let result = courier_JSStringCreateWithUTF8CString(hex)
            defer { courier_JSStringRelease(result) }
            return courier_JSValueMakeString(context, result)
        }
        courier_JSObjectSetProperty(context, courier_JSContextGetGlobalObject(context), name, function,
                            JSPropertyAttributes(kJSPropertyAttributeReadOnly), nil)
    }

    private func string(_ value: JSValueRef) -> String? { Self.string(value, in: context) }

    private static func string(_ value: JSValueRef?, in context: JSContextRef) -> String? {
        guard let value, let text = courier_JSValueToStringCopy(context, value, nil) else { return nil }
        defer { courier_JSStringRelease(text) }
        let size = courier_JSStringGetMaximumUTF8CStringSize(text)
        var buffer = [CChar](repeating: 0, count: size)
        _ = courier_JSStringGetUTF8CString(text, &buffer, size)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A group no script is using, handed to the next script through the idle list. JavaScriptCore locks the
/// group's virtual machine on every call, and only one context at a time holds a group, hence unchecked.
private struct IdleGroup: @unchecked Sendable {
    let group: JSContextGroupRef
}
