import CJavaScriptCore
import Synchronization

/// One JavaScriptCore context in a group (virtual machine) of its own, watched by a `ScriptWatch` through the
/// group's execution time limit. It owns both handles; every raw JavaScriptCore pointer of the module stays in
/// this file.
///
/// How a script is stopped: JavaScriptCore's watchdog calls back every `slice` seconds of CPU time the script
/// uses, and the watch decides. What the watchdog would miss is closed off. WebAssembly loops never check for
/// it, so WebAssembly is turned off. And promise jobs (`then` callbacks, code after `await`) run when
/// JavaScriptCore's lock is let go, each as a new entry into JavaScript, where the watchdog starts its count
/// over: an endless chain of short jobs is never stopped, and watching them closely enough to stop one
/// (a zero slice) fires the watchdog so often that JavaScriptCore trips over its own trap bookkeeping and
/// aborts the process. So in Courier's own process jobs never run: the context holds the lock from creation to
/// release, and unless its queue is known to be empty (`handOn`, from `PromiseJobGuard`) never lets it go: its
/// virtual machine ends with it, dropping whatever jobs were queued. In a script process (`ScriptProcess`) the
/// user's code is evaluated with the lock let go (`evaluateRunningJobs`), so its jobs run, and the parent's
/// kill stops the chain the watchdog cannot.
final class JavaScriptContext {
    /// What an evaluation threw: its text (`TypeError: …`), its stack and the line JavaScriptCore gave it.
    struct Exception: Error {
        var message: String
        var stack: String
        var line: Int?
    }

    /// Groups (virtual machines) kept between scripts, because making one costs more than running a typical
    /// handler. Each script still gets a fresh global context, so nothing one defines reaches the next; a
    /// group is used by one script at a time.
    private static let idle = Mutex<[IdleGroup]>([])
    private static let keptGroups = 4
    /// Seconds of CPU time between the watchdog's calls while a script runs: how soon a cancel or the end of
    /// the time limit is noticed.
    private static let slice = 0.02

    /// JavaScriptCore's functions, looked up the first time a script runs (a Swift global is initialised
    /// once, thread-safely); nil when the library or one of its functions is missing. This is the one table
    /// of the process: shim.h says why it is not kept in the header.
    static let library: courier_jsc_table? = {
        let table = UnsafeMutablePointer<courier_jsc_table>.allocate(capacity: 1)
        defer { table.deallocate() }
        guard courier_jsc_fill(table) else { return nil }
        let jsc = table.pointee
        // Before the first virtual machine, after which the options are read-only. WebAssembly loops never
        // check for the time limit, and its memories grow outside any bound a script can be given. Polling
        // traps make optimised loops check for the watchdog themselves instead of waiting for a signal to
        // patch their code, which under load came seconds late. Shared memory and other realms would reach
        // constructors the binary-data guard (`ScriptLimits`) cannot see.
        _ = jsc.jsc_options_set_boolean("useWasm", 0)
        _ = jsc.jsc_options_set_boolean("usePollingTraps", 1)
        _ = jsc.jsc_options_set_boolean("useSharedArrayBuffer", 0)
        _ = jsc.jsc_options_set_boolean("useShadowRealm", 0)
        return jsc
    }()

    private let jsc: courier_jsc_table
    private let kept: KeptGroup
    private var group: JSContextGroupRef { kept.group }
    private let context: JSGlobalContextRef
    /// The watchdog's side of the watch; it outlives every callback (see `deinit`).
    private let guardian: Guardian
    /// Set when no promise job can be queued: the lock may then be let go and the group handed on.
    var handOn = false

    /// The shared library that is loaded (`COURIER_JAVASCRIPTCORE_LIBRARY` names another), for the error
    /// when it is missing.
    static var libraryName: String { String(cString: courier_jsc_library()) }

    /// A fresh context whose scripts are stopped after `timeLimit` seconds of CPU time, or as soon as
    /// `isCancelled` says so; nil when JavaScriptCore cannot be loaded (it is loaded on the first call).
    /// Use it, and let it go, on one thread: it holds JavaScriptCore's lock for that thread all along.
    init?(timeLimit: Double, isCancelled: @escaping @Sendable () -> Bool = { false }) {
        guard let jsc = Self.library else { return nil }
        self.jsc = jsc
        let kept = Self.idle.withLock { $0.popLast()?.kept } ?? KeptGroup(group: jsc.JSContextGroupCreate())
        self.kept = kept
        guardian = Guardian(jsc: jsc, group: kept.group, watch: ScriptWatch(budget: timeLimit, isCancelled: isCancelled),
                            slice: Self.slice)
        guardian.arm()
        context = jsc.JSGlobalContextCreateInGroup(kept.group, nil)
        jsc.JSLock(context)
    }

    deinit {
        guardian.watch.close()
        if handOn && guardian.watch.stop == nil {
            // The queue is empty, so letting the lock go runs nothing; the callback is cleared before the
            // guardian goes.
            jsc.JSUnlock(context)
            jsc.JSGlobalContextRelease(context)
            jsc.JSContextGroupClearExecutionTimeLimit(group)
            let idle = kept
            let handedOn = Self.idle.withLock { groups in
                guard groups.count < Self.keptGroups else { return false }
                groups.append(IdleGroup(kept: idle))
                return true
            }
            if !handedOn { idle.release(jsc) }
        } else {
            // Released with the lock still held, so no queued job runs: the group's release ends the virtual
            // machine, and with it the watchdog's calls, while the guardian is still alive.
            jsc.JSGlobalContextRelease(context)
            kept.release(jsc)
        }
    }

    /// The address of the context's global object, which native callbacks are called with: the key under
    /// which they find what was registered for this context.
    var globalAddress: UInt { Self.address(of: jsc.JSContextGetGlobalObject(context)) }

    static func address(of object: JSObjectRef?) -> UInt { UInt(bitPattern: object) }

    /// Why the script was stopped (its time limit, a cancel), once it was.
    var stop: ScriptWatch.Stop? { guardian.watch.stop }

    /// Starts the time limit over for the user's code, after Courier's own preludes.
    func startUserTime() { guardian.watch.restart() }

    /// After a stop, lets a little more run to read back the state the script left.
    func allowReadingBack() { guardian.watch.allowReadingBack(seconds: 1) }

    /// Evaluates `code` as if it started on line `line` of `sourceURL`; the result converted to a string.
    func evaluate(_ code: String, sourceURL: String, line: Int) -> Result<String, Exception> {
        let script = jsc.JSStringCreateWithUTF8CString(code)
        let source = jsc.JSStringCreateWithUTF8CString(sourceURL)
        defer {
            jsc.JSStringRelease(script)
            jsc.JSStringRelease(source)
        }
        return evaluate(script, source: source, line: line)
    }

    /// Evaluates a prelude made into the engine's strings once (`PreparedScript`), from its first line: parsed
    /// once for the group (`KeptGroup.script`), else (it does not parse) as any text is, which reports why.
    func evaluate(_ prepared: PreparedScript) -> Result<String, Exception> {
        guard prepared.text != nil else { return .failure(Exception(message: "no prelude", stack: "")) }
        guard let script = kept.script(prepared, jsc) else {
            return evaluate(prepared.text, source: prepared.sourceURL, line: 1)
        }
        var exception: JSValueRef?
        let value = jsc.JSScriptEvaluate(context, script, nil, &exception)
        return result(value, exception: exception)
    }

    private func evaluate(_ script: JSStringRef?, source: JSStringRef?, line: Int) -> Result<String, Exception> {
        var exception: JSValueRef?
        let value = jsc.JSEvaluateScript(context, script, nil, source, Int32(clamping: line), &exception)
        return result(value, exception: exception)
    }

    private func result(_ value: JSValueRef?, exception: JSValueRef?) -> Result<String, Exception> {
        if let exception { return .failure(describe(exception)) }
        guard let value, !jsc.JSValueIsUndefined(context, value) else { return .success("") }
        return .success(string(value) ?? "")
    }

    /// Evaluates `code` as `evaluate` does, then runs the promise jobs it queued until none is left or the
    /// watch stops them: JavaScriptCore runs them when its lock is let go, as it is here around the
    /// evaluation. Only in a script process, whose parent kills it when they outrun the time limit.
    func evaluateRunningJobs(_ code: String, sourceURL: String, line: Int) -> Result<String, Exception> {
        jsc.JSUnlock(context)
        defer { jsc.JSLock(context) }
        return evaluate(code, sourceURL: sourceURL, line: line)
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
    func define(_ name: String, _ callback: JSObjectCallAsFunctionCallback) {
        let key = jsc.JSStringCreateWithUTF8CString(name)
        defer { jsc.JSStringRelease(key) }
        let function = jsc.JSObjectMakeFunctionWithCallback(context, key, callback)
        jsc.JSObjectSetProperty(context, jsc.JSContextGetGlobalObject(context), key, function,
                                JSPropertyAttributes(kJSPropertyAttributeReadOnly), nil)
    }

    static func makeString(_ text: String, in context: JSContextRef, _ jsc: courier_jsc_table) -> JSValueRef {
        let value = jsc.JSStringCreateWithUTF8CString(text)
        defer { jsc.JSStringRelease(value) }
        return jsc.JSValueMakeString(context, value)
    }

    private func string(_ value: JSValueRef) -> String? { Self.string(value, in: context, jsc) }

    static func string(_ value: JSValueRef?, in context: JSContextRef, _ jsc: courier_jsc_table)
        -> String? {
        guard let value, let text = jsc.JSValueToStringCopy(context, value, nil) else { return nil }
        defer { jsc.JSStringRelease(text) }
        let size = jsc.JSStringGetMaximumUTF8CStringSize(text)
        var buffer = [CChar](repeating: 0, count: size)
        _ = jsc.JSStringGetUTF8CString(text, &buffer, size)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// The watchdog's callback and what it needs: the watch, and the group to arm again. JavaScriptCore calls the
/// callback on the script's own thread, holding the script's lock.
private final class Guardian {
    let jsc: courier_jsc_table
    let group: JSContextGroupRef
    let watch: ScriptWatch
    private let slice: Double

    init(jsc: courier_jsc_table, group: JSContextGroupRef, watch: ScriptWatch, slice: Double) {
        self.jsc = jsc
        self.group = group
        self.watch = watch
        self.slice = slice
    }

    /// Sets the watchdog to call back after `slice` seconds of CPU time.
    func arm() {
        jsc.JSContextGroupSetExecutionTimeLimit(group, slice, Self.callback, Unmanaged.passUnretained(self).toOpaque())
    }

    /// True stops the script (JavaScriptCore throws its uncatchable termination). After a false, the watchdog
    /// does not restart its own timer (the deadline it compares with is still set), so the callback arms it.
    private static let callback: CourierShouldTerminateCallback = { _, info in
        guard let info else { return true }
        let guardian = Unmanaged<Guardian>.fromOpaque(info).takeUnretainedValue()
        if guardian.watch.shouldStop() { return true }
        guardian.arm()
        return false
    }
}

/// A group no script is using, handed to the next script through the idle list.
private struct IdleGroup: Sendable {
    let kept: KeptGroup
}

/// A group (virtual machine) and the preludes parsed for it, which any context of the group can evaluate (and
/// no other: JavaScriptCore stops the process if one is evaluated in another group's context). JavaScriptCore
/// locks the group's virtual machine on every call, and only one context at a time holds a group, hence
/// unchecked.
private final class KeptGroup: @unchecked Sendable {
    let group: JSContextGroupRef
    /// By the address of the prelude's text, which is never released.
    private var scripts: [UInt: JSScriptRef] = [:]

    init(group: JSContextGroupRef) {
        self.group = group
    }

    /// `prepared` parsed for this group, the first time it is asked for; nil when it does not parse.
    func script(_ prepared: PreparedScript, _ jsc: courier_jsc_table) -> JSScriptRef? {
        let key = UInt(bitPattern: prepared.text)
        if let made = scripts[key] { return made }
        guard let made = jsc.JSScriptCreateFromString(group, prepared.sourceURL, 1, prepared.text, nil, nil) else {
            return nil
        }
        scripts[key] = made
        return made
    }

    /// Releases the parsed preludes, then the group: its virtual machine ends with it when no context is left.
    func release(_ jsc: courier_jsc_table) {
        for script in scripts.values { jsc.JSScriptRelease(script) }
        scripts = [:]
        jsc.JSContextGroupRelease(group)
    }
}

/// A prelude's text and source URL made into JavaScriptCore's strings once for the process, since every
/// context evaluates the same preludes: made anew for each script, converting the 100 KB of text from UTF-8 and
/// hashing it again for the engine's code cache (which finds the compiled prelude by its text) was a tenth of
/// a script's run. Never released. The engine's strings are immutable and counted atomically, hence unchecked.
struct PreparedScript: @unchecked Sendable {
    fileprivate let text: JSStringRef?
    fileprivate let sourceURL: JSStringRef?

    /// Made once a context exists (JavaScriptCore is loaded then); without the library both are nil, and
    /// evaluating it fails.
    init(_ code: String, sourceURL: String) {
        let jsc = JavaScriptContext.library
        text = jsc?.JSStringCreateWithUTF8CString(code)
        self.sourceURL = jsc?.JSStringCreateWithUTF8CString(sourceURL)
    }
}
