/// Promise jobs in request scripts: they never run (`JavaScriptContext` says why), so `then`, `catch` and
/// `finally` are refused with an error on their line, and code after an `await` simply does not resume.
///
/// A script's virtual machine can only be handed to the next script if no job is left in its queue, since
/// handing it on lets JavaScriptCore run them. Jobs come from promise reactions and `await`; without the
/// `Promise` global, async syntax (`async`, `await`, `import()`) or code compiled at run time, a script has no
/// way to make a promise (the few built-ins that return one are removed). So the guard notes when the script
/// reads `Promise` or compiles code (`eval`, `Function`, generator functions), and `mayHaveQueuedJobs` looks for
/// async syntax in its source: when neither says so, the queue is empty and the machine is reused.
enum PromiseJobGuard {
    /// The guard's JavaScript, evaluated before the preludes; it defines `__courierJobsPossible()`.
    static let code = """
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
        throw new TypeErrorType("promise callbacks (then, catch, finally) do not run in request scripts, "
          + "which run synchronously");
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

    /// Whether `source` has syntax that makes promise jobs without the `Promise` global: async functions,
    /// `await` or `import()`. Words are matched anywhere (in strings and names too): a false yes only costs a
    /// fresh virtual machine.
    static func mayHaveQueuedJobs(_ source: String) -> Bool {
        ["async", "await", "import"].contains { source.contains($0) }
    }
}
