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

    /// JavaScriptCore's functions, looked up the first time a script runs (a Swift global is initialised
    /// once, thread-safely); nil when the library or one of its functions is missing. This is the one table
    /// of the process: shim.h says why it is not kept in the header.
    private static let library: courier_jsc_table? = {
        let table = UnsafeMutablePointer<courier_jsc_table>.allocate(capacity: 1)
        defer { table.deallocate() }
        return courier_jsc_fill(table) ? table.pointee : nil
    }()

    private let jsc: courier_jsc_table
    private let group: JSContextGroupRef
    private let context: JSGlobalContextRef
    /// Cleared when an evaluation was stopped by the time limit: that group is not reused.
    private var reusable = true

    /// The shared library that is loaded (`COURIER_JAVASCRIPTCORE_LIBRARY` names another), for the error
    /// when it is missing.
    static var libraryName: String { String(cString: courier_jsc_library()) }

    /// A fresh context whose every evaluation is stopped after `timeLimit` seconds; nil when JavaScriptCore
    /// cannot be loaded (it is loaded on the first call).
    init?(timeLimit: Double) {
        guard let jsc = Self.library else { return nil }
        self.jsc = jsc
        group = Self.idle.withLock { $0.popLast()?.group } ?? jsc.JSContextGroupCreate()
        // A nil callback makes JavaScriptCore terminate unconditionally once the limit is reached.
        jsc.JSContextGroupSetExecutionTimeLimit(group, timeLimit, nil, nil)
        context = jsc.JSGlobalContextCreateInGroup(group, nil)
    }

    deinit {
        jsc.JSGlobalContextRelease(context)
        let idle = IdleGroup(group: group)
        let kept = reusable && Self.idle.withLock { groups in
            guard groups.count < Self.keptGroups else { return false }
            groups.append(idle)
            return true
        }
        if !kept { jsc.JSContextGroupRelease(group) }
    }

    /// Evaluates `code` as if it started on line `line` of `sourceURL`; the result converted to a string.
    func evaluate(_ code: String, sourceURL: String, line: Int) -> Result<String, Exception> {
        let script = jsc.JSStringCreateWithUTF8CString(code)
        let source = jsc.JSStringCreateWithUTF8CString(sourceURL)
        defer {
            jsc.JSStringRelease(script)
            jsc.JSStringRelease(source)
        }
        var exception: JSValueRef?
        let value = jsc.JSEvaluateScript(context, script, nil, source, Int32(clamping: line), &exception)
        if let exception {
            let failure = describe(exception)
            if failure.message.contains(ScriptEngine.terminatedMarker) { reusable = false }
            return .failure(failure)
        }
        guard let value, !jsc.JSValueIsUndefined(context, value) else { return .success("") }
        return .success(string(value) ?? "")
    }

    private func describe(_ exception: JSValueRef) -> Exception {
        let message = string(exception) ?? "unknown JavaScript error"
        var stack = ""
        var line: Int?
        if jsc.JSValueIsObject(context, exception), let object = jsc.JSValueToObject(context, exception, nil) {
            if let value = property("stack", of: object), !jsc.JSValueIsUndefined(context, value) {
                stack = string(value) ?? ""
            }
            if let value = property("line", of: object), jsc.JSValueIsNumber(context, value) {
                line = Int(jsc.JSValueToNumber(context, value, nil))
            }
        }
        return Exception(message: message, stack: stack, line: line)
    }

    private func property(_ name: String, of object: JSObjectRef) -> JSValueRef? {
        let key = jsc.JSStringCreateWithUTF8CString(name)
        defer { jsc.JSStringRelease(key) }
        return jsc.JSObjectGetProperty(context, object, key, nil)
    }

    /// Defines `__courierDigest(algorithm, keyHex|null, dataHex)` for the prelude's `crypto` helpers.
    func installDigest() {
        let name = jsc.JSStringCreateWithUTF8CString("__courierDigest")
        defer { jsc.JSStringRelease(name) }
        let function = jsc.JSObjectMakeFunctionWithCallback(context, name) { context, _, _, count, arguments, _ in
            // A C callback captures nothing, so it finds the table where every context found it.
            guard let jsc = JavaScriptContext.library else { return nil }
            guard let context, let arguments, count == 3,
                  let algorithm = JavaScriptContext.string(arguments[0], in: context, jsc),
                  let data = JavaScriptContext.string(arguments[2], in: context, jsc) else {
                return jsc.JSValueMakeNull(context)
            }
            let key = arguments[1].flatMap {
                jsc.JSValueIsNull(context, $0) ? nil : JavaScriptContext.string($0, in: context, jsc)
            }
            guard let hex = ScriptDigest.hex(algorithm, keyHex: key, dataHex: data) else {
                return jsc.JSValueMakeNull(context)
            }
            let result = jsc.JSStringCreateWithUTF8CString(hex)
            defer { jsc.JSStringRelease(result) }
            return jsc.JSValueMakeString(context, result)
        }
        jsc.JSObjectSetProperty(context, jsc.JSContextGetGlobalObject(context), name, function,
                            JSPropertyAttributes(kJSPropertyAttributeReadOnly), nil)
    }

    /// Defines `__courierReadModule(path)` (a library file's text, or null: `ScriptModules.read` decides) and
    /// `__courierRandomHex(count)` (random bytes in hex) for the `require` prelude.
    func installModuleFunctions() {
        define("__courierReadModule") { context, _, _, count, arguments, _ in
            guard let jsc = JavaScriptContext.library else { return nil }
            guard let context, let arguments, count == 1,
                  let path = JavaScriptContext.string(arguments[0], in: context, jsc),
                  let text = ScriptModules.read(path) else {
                return context.map { jsc.JSValueMakeNull($0) }
            }
            return JavaScriptContext.makeString(text, in: context, jsc)
        }
        define("__courierRandomHex") { context, _, _, count, arguments, _ in
            guard let jsc = JavaScriptContext.library, let context else { return nil }
            let wanted = count == 1 && jsc.JSValueIsNumber(context, arguments?[0])
                ? Int(jsc.JSValueToNumber(context, arguments?[0], nil)) : 0
            var generator = SystemRandomNumberGenerator()
            let hex = (0..<min(max(wanted, 0), 1 << 16)).map { _ in
                let byte = UInt8.random(in: 0...255, using: &generator)
                return (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }.joined()
            return JavaScriptContext.makeString(hex, in: context, jsc)
        }
    }

    /// A read-only global function named `name`.
    private func define(_ name: String, _ callback: JSObjectCallAsFunctionCallback) {
        let key = jsc.JSStringCreateWithUTF8CString(name)
        defer { jsc.JSStringRelease(key) }
        let function = jsc.JSObjectMakeFunctionWithCallback(context, key, callback)
        jsc.JSObjectSetProperty(context, jsc.JSContextGetGlobalObject(context), key, function,
                                JSPropertyAttributes(kJSPropertyAttributeReadOnly), nil)
    }

    private static func makeString(_ text: String, in context: JSContextRef, _ jsc: courier_jsc_table) -> JSValueRef {
        let value = jsc.JSStringCreateWithUTF8CString(text)
        defer { jsc.JSStringRelease(value) }
        return jsc.JSValueMakeString(context, value)
    }

    private func string(_ value: JSValueRef) -> String? { Self.string(value, in: context, jsc) }

    private static func string(_ value: JSValueRef?, in context: JSContextRef, _ jsc: courier_jsc_table)
        -> String? {
        guard let value, let text = jsc.JSValueToStringCopy(context, value, nil) else { return nil }
        defer { jsc.JSStringRelease(text) }
        let size = jsc.JSStringGetMaximumUTF8CStringSize(text)
        var buffer = [CChar](repeating: 0, count: size)
        _ = jsc.JSStringGetUTF8CString(text, &buffer, size)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A group no script is using, handed to the next script through the idle list. JavaScriptCore locks the
/// group's virtual machine on every call, and only one context at a time holds a group, hence unchecked.
private struct IdleGroup: @unchecked Sendable {
    let group: JSContextGroupRef
}
