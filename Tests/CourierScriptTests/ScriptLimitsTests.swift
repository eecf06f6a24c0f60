import Testing
@testable import CourierScript

/// A script's limits hold whatever it tries: binary data past 256 MB is refused however it is asked for, a
/// promise reached without naming one never runs its callbacks in Courier's process, and a cancel stops a
/// script at once. Binary data here is refused before it is allocated, so these tests stay small.
@Suite struct ScriptLimitsTests {
    func run(_ code: String, timeLimit: Double = ScriptEngine.defaultTimeLimit,
             isCancelled: @escaping @Sendable () -> Bool = { false }) -> ScriptResult {
        let input = ScriptInput(phase: .preRequest, request: ScriptRequest(method: "GET", rawURL: "http://h/"),
                                timeLimit: timeLimit, isCancelled: isCancelled)
        return ScriptEngine.run(ScriptSource(code: code, file: "limits.http", line: 1), input: input)
    }

    /// Runs each attempt in its own try, logging `limit` when the guard refused it.
    func attempts(_ attempts: [String]) -> [String] {
        let code = attempts.map { attempt in
            """
            try { \(attempt); client.log("allocated"); }
            catch (error) { client.log(String(error.message).includes("256 MB") ? "limit" : error.name + ": " + error.message); }
            """
        }.joined(separator: "\n")
        let result = run(code)
        #expect(result.error == nil, "\(String(describing: result.error))")
        return result.logs
    }

    @Test func everyWayOfAskingForTooMuchBinaryDataIsRefused() {
        let logs = attempts([
            "new ArrayBuffer(300 << 20)",
            "new Uint8Array(300 << 20)",
            "new Float64Array(40 << 20)",
            "Reflect.construct(Uint8Array, [300 << 20])",
            "new (new Uint8Array(1).constructor)(300 << 20)",
            "new (Object.getPrototypeOf(new ArrayBuffer(1)).constructor)(300 << 20)",
            "class Big extends Uint8Array {}; new Big(300 << 20)",
            "Uint8Array.from({ length: 300 << 20 })",
            "new Uint8Array({ length: 300 << 20 })",
            "new ArrayBuffer(8, { maxByteLength: 300 << 20 })",
            "new ArrayBuffer(8).transfer(300 << 20)",
            "new (new Proxy(Int32Array, {}))(80 << 20)",
        ])
        #expect(logs == Array(repeating: "limit", count: 12), "\(logs)")
    }

    @Test func copiesCountAndTheCountAddsUp() {
        // A view's copy counts even through the original type (constructor unset), and all a script
        // allocated counts together
        let logs = attempts([
            "globalThis.big = new Uint8Array(130 << 20)",
            "Object.defineProperty(big, 'constructor', { value: undefined }); big.slice()",
            "big.toReversed()",
            "new Uint8Array(100 << 20)",
            "new Uint8Array(30 << 20)",
        ])
        #expect(logs == ["allocated", "limit", "limit", "allocated", "limit"], "\(logs)")
    }

    @Test func aSizeIsReadOnceSoValueOfCannotChangeIt() {
        let result = run("""
            let calls = 0;
            const buffer = new ArrayBuffer({ valueOf() { calls++; return calls > 1 ? 300 << 20 : 16; } });
            client.log(buffer.byteLength, calls);
            """)
        #expect(result.logs == ["16 1"], "\(result.logs) \(String(describing: result.error))")
    }

    @Test func theGuardedConstructorsCannotBeReplacedOrRemoved() {
        let result = run("""
            const before = Uint8Array;
            try { Uint8Array = function () {}; } catch (error) {}
            try { delete globalThis.Uint8Array; } catch (error) {}
            try { Object.defineProperty(Uint8Array.prototype, "constructor", { value: 1 }); } catch (error) {}
            client.log(Uint8Array === before, new Uint8Array(1).constructor === Uint8Array,
                       Object.getOwnPropertyDescriptor(globalThis, "ArrayBuffer").configurable);
            """)
        #expect(result.logs == ["true true false"], "\(result.logs) \(String(describing: result.error))")
    }

    @Test func whatAScriptReplacesBeforeItFirstNamesABufferTypeDoesNotReachTheGuard() {
        // Given a script that replaces, before it first reads ArrayBuffer or a typed array (when the guard wraps
        // them), what the guard calls and what a property descriptor or a loop would look up on prototypes
        let tampering = """
            const realConstruct = Reflect.construct;
            Reflect.construct = function (type, args, target) { return realConstruct(type, [8], target); };
            Reflect.apply = function () { return 0; };
            Object.defineProperty = function (object) { return object; };
            Object.getOwnPropertyDescriptor = function () { return { value: 0, configurable: true }; };
            Math.trunc = function () { return 1; };
            Array.prototype[Symbol.iterator] = function* () {};
            Object.prototype.get = function () { return 0; };
            Object.prototype.writable = true;
            Object.prototype.configurable = true;
            """
        let logs = attempts([tampering] + [
            "new ArrayBuffer(300 << 20)",
            "new Uint8Array(300 << 20)",
            "Uint8Array.from({ length: 300 << 20 })",
            "globalThis.big = new Uint8Array(130 << 20)",
            "big.slice()",
            "new (Object.getPrototypeOf(new ArrayBuffer(1)).constructor)(300 << 20)",
        ])
        // Then every attempt past the limit is still refused, and what is within it still allocates
        #expect(logs == ["allocated", "limit", "limit", "limit", "allocated", "limit", "limit"], "\(logs)")
    }

    @Test func functionsAScriptPutsOnPrototypesBeforeTheFirstReadNeverSeeAnOriginalType() {
        // Given functions put where a static or a method the guard wraps would be found if the type lacked its own
        let result = run("""
            const seen = [];
            Object.prototype.fromBase64 = function () { seen.push(this); return null; };
            Function.prototype.fromHex = function () { seen.push(this); return null; };
            Object.prototype.transfer = function () { seen.push(this); };
            Object.prototype.toReversed = function () { seen.push(this); };
            Int8Array.fromBase64("AAAA");
            Int16Array.fromHex("00");
            try { new ArrayBuffer(1).transfer(); } catch (error) {}
            try { new Uint8Array(1).toReversed(); } catch (error) {}
            // Then whatever they were called on counts what it allocates
            const counted = seen.filter(function (found) {
              if (typeof found !== "function") return true;
              try { new found(300 << 20); return false; } catch (error) { return String(error.message).includes("256 MB"); }
            });
            client.log(seen.length > 0, counted.length === seen.length, typeof ArrayBuffer.isView);
            """)
        #expect(result.logs == ["true true function"], "\(result.logs) \(String(describing: result.error))")
    }

    @Test func aFirstReadAtAnyDepthOfTheStackLeavesTheTypesGuardedOrUnusable() {
        // Given scripts that first read a typed array with the stack nearly full, so that wrapping the types may
        // fail at any point of the way (a frame or a few short of the engine's limit)
        for spare in 0..<24 {
            let result = run("""
                function depth(n) { try { return depth(n + 1); } catch (error) { return n; } }
                const deepest = depth(0);
                function read(n) {
                  if (n > 0) return read(n - 1);
                  try { return typeof Uint8Array; } catch (error) { return error.name; }
                }
                read(deepest - \(spare));
                let big;
                try { big = new Uint8Array(300 << 20).length; }
                catch (error) { big = String(error.message).includes("256 MB") ? "limit" : error.name; }
                let small;
                try { small = new Uint8Array(8).slice(2).length; } catch (error) { small = error.name; }
                client.log(big, small);
                """)
            // Then afterwards the types either count what they allocate or cannot be used: never the originals
            #expect(result.error == nil, "\(String(describing: result.error))")
            let logs = result.logs.first ?? ""
            #expect(logs == "limit 6" || logs == "TypeError TypeError", "\(spare): \(logs)")
        }
    }

    @Test func aSubclassMayGiveItsPrototypeItsOwnCopyingMethods() {
        // As node's Buffer polyfill does, in strict code, where assigning over a read-only inherited
        // property would throw.
        let result = run("""
            (function () {
                "use strict";
                function Bytes() {}
                Object.setPrototypeOf(Bytes.prototype, Uint8Array.prototype);
                Bytes.prototype.slice = function () { return "own slice"; };
                Bytes.prototype.subarray = function () { return "own subarray"; };
                client.log(new Bytes().slice(), new Bytes().subarray(), new Uint8Array([1, 2, 3]).slice(1).join());
            })();
            """)
        #expect(result.logs == ["own slice own subarray 2,3"], "\(result.logs) \(String(describing: result.error))")
    }

    @Test func binaryDataWorksAsUsualWithinTheLimit() {
        let result = run("""
            class Sub extends Uint8Array {}
            client.log(new Uint8Array([1, 2, 3]).map(x => x * 2).join(), Uint8Array.from([1, 2], x => x + 1).join(),
                       Uint8Array.of(5, 6).length, new Uint16Array(new ArrayBuffer(8), 2, 2).length,
                       new Uint8Array(4) instanceof Uint8Array, Uint8Array.BYTES_PER_ELEMENT, Float64Array.name,
                       new Sub(3) instanceof Sub && new Sub(3).length === 3, new Uint8Array(4).subarray(1).length,
                       ArrayBuffer.isView(new DataView(new ArrayBuffer(2))), new Uint8Array(new Set([1, 2, 3])).length,
                       new ArrayBuffer(4).slice(1).byteLength, new Int32Array(new Int8Array([1, -1])).join(),
                       new ArrayBuffer(2, { maxByteLength: 8 }).resizable, typeof WebAssembly, typeof SharedArrayBuffer);
            """)
        #expect(result.error == nil, "\(String(describing: result.error))")
        #expect(result.logs == ["2,4,6 2,3 2 2 true 1 Float64Array true 3 true 3 3 1,-1 true undefined undefined"])
    }

    @Test func aPromiseReachedWithoutNamingOneRunsNoCallbackInCouriersProcess() {
        // Given a script that reaches Promise and then() by computed names, so it runs in Courier's process
        let result = run("""
            client.global.set("before", "yes");
            const P = globalThis["Pro" + "mise"];
            P.resolve(1)["th" + "en"](function again() { P.resolve()["th" + "en"](again); });
            """)
        // Then then() is an error on its line that says which scripts may use promises
        #expect(result.globals == ["before": "yes"])
        #expect(result.error?.line == 3)
        #expect(result.error?.message == "TypeError: " + PromiseJobGuard.unnamedRefusal, "\(String(describing: result.error))")
    }

    @Test func jobsQueuedWithoutThenNeverRunInTheScriptsThatFollow() {
        // Given scripts that leave endless jobs queued without naming a promise word (so they run in Courier's
        // process): a thenable, reached through a computed name, and an async loop started from compiled code
        // (the engine hands idle virtual machines on)
        let queued = [
            #"globalThis["Pro" + "mise"].resolve({ ["th" + "en"]() { for (;;) {} } });"#,
            #"globalThis["ev" + "al"]("(as" + "ync function () { for (;;) aw" + "ait null; })()");"#,
        ]
        for code in queued {
            let result = run(code, timeLimit: 1)
            #expect(result.error == nil, "\(String(describing: result.error))")
        }
        // When more scripts run after them, on whatever machines are handed on
        for index in 0..<6 {
            let result = run("client.global.set('n', '\(index)')", timeLimit: 1)
            // Then each runs at once: no job of the earlier scripts ran in between
            #expect(result.error == nil && result.globals == ["n": "\(index)"], "\(String(describing: result.error))")
        }
    }

    @Test func aCancelledScriptStopsAtOnceWhateverItsTimeLimit() {
        // Given a script allowed ten minutes, whose caller has given up on it
        let result = run("while (true) {}", timeLimit: 600, isCancelled: { true })
        // Then it is stopped at the watchdog's next check and says it was cancelled
        guard case .cancelled = result.error?.reason else {
            Issue.record("expected a cancel, got \(String(describing: result.error))")
            return
        }
        #expect(result.error?.message == "script stopped: its request was cancelled")
    }
}
