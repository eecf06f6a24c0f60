/// What becomes of a script's promise jobs (`then` callbacks, code after `await`) where it runs.
enum PromiseJobs {
    /// They run after the script's code, until none is left: in a script process, which its parent kills
    /// when an endless chain of them outruns the time limit (`ScriptProcess`).
    case run
    /// They never run, and `then` throws `refusal` (`PromiseJobGuard`): in Courier's own process, where
    /// nothing could stop an endless chain of them.
    case dropped(refusal: String)
}

/// Promise jobs in a script that runs in Courier's own process: they never run (`JavaScriptContext` says why),
/// so `then`, `catch` and `finally` are refused with an error on their line, and code after an `await` simply
/// does not resume. Scripts whose source names promises (`usesPromises`) run in a script process instead, where
/// they work; here are only the others, which reach a promise by a computed name if at all, and scripts of a
/// program that has no script process (`ScriptProcess.executable`).
///
/// A script's virtual machine can only be handed to the next script if no job is left in its queue, since
/// handing it on lets JavaScriptCore run them. Jobs come from promise reactions and `await`; without the
/// `Promise` global, async syntax (`async`, `await`, `import()`) or code compiled at run time, a script has no
/// way to make a promise (the few built-ins that return one are removed). So the guard notes when the script
/// reads `Promise` or compiles code (`eval`, `Function`, generator functions), and `usesPromises` looks for
/// async syntax in its source: when neither says so, the queue is empty and the machine is reused.
enum PromiseJobGuard {
    /// Why `then` throws in a script that reached a promise without naming one.
    static let unnamedRefusal = "promise callbacks (then, catch, finally) run only in scripts whose source "
        + "names Promise, then, async or await"
    /// Why `then` throws when this program has no script process to run promises in.
    static let noProcessRefusal = "promise callbacks (then, catch, finally) do not run here: this program has "
        + "no script process to run scripts that use promises in (ScriptProcess.executable)"

    /// The words that send a script to a script process: what makes promises (`Promise`, async syntax,
    /// `import()`), what uses them (`then`), and what compiles code that may (`eval`, `Function`).
    static let promiseWords = ["Promise", "then", "async", "await", "import", "eval", "Function"]

    /// The guard's JavaScript, evaluated before the preludes, with `then` throwing `refusal` (plain text, one
    /// of the two above); it defines `__courierJobsPossible()`.
    static func code(refusal: String) -> String {
        """
        (function () {
          "use strict";
          const global = globalThis;
          const defineProperty = Object.defineProperty, getPrototypeOf = Object.getPrototypeOf;
          const apply = Reflect.apply, construct = Reflect.construct, TypeErrorType = TypeError;
          const PromiseType = Promise, originalEval = eval;
          let touched = false;

          function seal(object, key, value) {
            defineProperty(object, key, { value: value, writable: false, enumerable: false, configurable: false });
          }
          seal(PromiseType.prototype, "then", function then() {
            throw new TypeErrorType("\(refusal)");
          });
          defineProperty(global, "Promise", {
            get: function () { touched = true; return PromiseType; }, enumerable: false, configurable: false
          });
          // Constructors that compile code, replaced by ones that note it; their prototypes are kept.
          function compiling(Original, name) {
            const Noting = {
              [name]: function () {
                touched = true;
                return new.target === undefined ? apply(Original, undefined, arguments)
                                                 : construct(Original, arguments, new.target);
              }
            }[name];
            defineProperty(Noting, "prototype", { value: Original.prototype, writable: false });
            seal(Original.prototype, "constructor", Noting);
            return Noting;
          }
          seal(global, "Function", compiling(Function, "Function"));
          compiling(getPrototypeOf(function* () {}).constructor, "GeneratorFunction");
          seal(global, "eval", { eval: function (code) { touched = true; return originalEval(code); } }.eval);
          // Built-ins that return a promise without the Promise global.
          delete Array.fromAsync;
          delete Atomics.waitAsync;
          seal(global, "__courierJobsPossible", function () { return touched; });
        })();
        """
    }

    /// Whether `source` names any of `promiseWords` as a word of its own (`thenable` and `authentication` do
    /// not count; a word in a string or a comment does, which costs a script process for nothing). A script
    /// that spells one otherwise (`globalThis["Pro" + "mise"]`) runs in Courier's process, where its jobs
    /// never run.
    static func usesPromises(_ source: String) -> Bool {
        let utf8 = source.utf8
        var start: String.UTF8View.Index?
        var index = utf8.startIndex
        while true {
            let byte: UInt8? = index == utf8.endIndex ? nil : utf8[index]
            if let byte, isIdentifierByte(byte) {
                if start == nil { start = index }
            } else if let begun = start {
                let word = utf8[begun..<index]
                if promiseWords.contains(where: { $0.utf8.elementsEqual(word) }) { return true }
                start = nil
            }
            guard byte != nil else { return false }
            index = utf8.index(after: index)
        }
    }

    /// Letters, digits, `_`, `$` and every byte of a non-ASCII character: what an identifier is made of.
    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), 0x80...: true
        default: false
        }
    }
}
