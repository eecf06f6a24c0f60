import Foundation

/// `setTimeout`, `setImmediate` and their `clear…` in scripts, as Postman's sandbox and Node give them: a
/// timer fires once the script's body (and the promise jobs it started) is done, after its delay has passed in
/// real time, earliest first; what a callback starts runs before the next timer. `setInterval` is an error:
/// nothing would end a script whose interval is never cleared.
enum ScriptTimers {
    /// The most timers one script may fire, so that a timer re-arming itself for ever ends.
    static let maximumFired = 10_000

    static let code = #"""
    var __courierTimers = (function () {
      "use strict";
      const queue = [];
      let nextID = 1;
      function add(callback, delay, args) {
        if (typeof callback !== "function") throw new TypeError("a timer needs a function to call");
        const id = nextID++;
        queue.push({ id: id, due: Date.now() + Math.max(0, Number(delay) || 0), callback: callback, args: args });
        return id;
      }
      function clear(id) {
        const i = queue.findIndex(function (timer) { return timer.id === id; });
        if (i >= 0) queue.splice(i, 1);
      }
      function earliest() {
        let best = -1;
        for (let i = 0; i < queue.length; i++) {
          if (best < 0 || queue[i].due < queue[best].due) best = i;
        }
        return best;
      }
      const timers = {
        setTimeout: function (callback, delay) { return add(callback, delay, Array.prototype.slice.call(arguments, 2)); },
        setImmediate: function (callback) { return add(callback, 0, Array.prototype.slice.call(arguments, 1)); },
        clearTimeout: clear, clearImmediate: clear,
        setInterval: function () {
          const error = new Error("setInterval is not supported by Courier (use setTimeout)");
          error.name = "Unsupported";
          throw error;
        },
        clearInterval: function () {},
      };
      for (const name of Object.keys(timers)) globalThis[name] = timers[name];
      return {
        timers: timers,
        // Milliseconds until the next timer is due (0 when it is), or -1 when none is left.
        wait: function () {
          const i = earliest();
          return i < 0 ? -1 : Math.max(0, queue[i].due - Date.now());
        },
        fire: function () {
          const i = earliest();
          if (i < 0) return;
          const timer = queue.splice(i, 1)[0];
          timer.callback.apply(null, timer.args);
        },
      };
    })();
    """#

    /// Fires the script's timers in order, waiting for each to be due; the first callback that throws ends it
    /// with that exception, as would a script stopped or cancelled while it waits.
    static func run(in context: JavaScriptContext, jobs: PromiseJobs,
                    input: ScriptInput) -> Result<String, JavaScriptContext.Exception> {
        var fired = 0
        while true {
            guard case .success(let answer) = context.evaluate("__courierTimers.wait()",
                                                               sourceURL: ScriptPrelude.sourceURL, line: 1),
                  let wait = Int(answer), wait >= 0 else { return .success("") }
            if fired == maximumFired {
                return .failure(.init(message: "Error: stopped after \(maximumFired) timers", stack: "", line: nil))
            }
            // Waiting in slices, so a cancelled request stops the script within a tenth of a second.
            var left = wait
            while left > 0 {
                if input.isCancelled() || context.stop != nil { return .success("") }
                let slice = min(left, 100)
                Thread.sleep(forTimeInterval: Double(slice) / 1000)
                left -= slice
            }
            let evaluation = if case .run = jobs {
                context.evaluateRunningJobs("__courierTimers.fire()", sourceURL: ScriptPrelude.sourceURL, line: 1)
            } else {
                context.evaluate("__courierTimers.fire()", sourceURL: ScriptPrelude.sourceURL, line: 1)
            }
            if case .failure = evaluation { return evaluation }
            fired += 1
        }
    }
}
