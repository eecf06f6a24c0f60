/// The JavaScript that builds `client`, `request`, `response`, `$random` and `crypto` in a fresh context
/// before a script runs. Scripts see plain JavaScript objects; what they change is read back as JSON by
/// `__courier.finish()`, so no script ever holds a native handle.
enum ScriptPrelude {
    /// The source URL the prelude is evaluated under; stack frames from it are not the user's lines.
    static let sourceURL = "courier:prelude"

    static let code = #"""
    var __courier = (function () {
      "use strict";
      const exitSignal = { toString: function () { return "__courier_exit__"; } };
      class AssertionError extends Error {
        constructor(message) { super(message); this.name = "AssertionError"; }
      }
      class UnsupportedError extends Error {
        constructor(what) { super(what + " is not supported by Courier"); this.name = "Unsupported"; }
      }
      const state = { globals: {}, variables: {}, tests: [], logs: [], pending: [], headers: null, finishers: [] };

      function text(value) {
        if (value === undefined || value === null) return "";
        return typeof value === "object" ? JSON.stringify(value) : String(value);
      }
      function logText(values) {
        return values.map(function (v) {
          if (v === null || v === undefined) return String(v);
          return typeof v === "string" ? v : text(v);
        }).join(" ");
      }
      function describe(error) {
        if (error && error.message !== undefined) return String(error.message);
        return String(error);
      }
      function lookup(map, name) {
        const key = String(name);
        return Object.prototype.hasOwnProperty.call(map, key) ? map[key] : null;
      }
      function firstHeader(pairs, name) {
        const wanted = String(name).toLowerCase();
        for (const pair of pairs) if (pair[0].toLowerCase() === wanted) return pair[1];
        return null;
      }
      function allHeaders(pairs, name) {
        const wanted = String(name).toLowerCase();
        return pairs.filter(function (p) { return p[0].toLowerCase() === wanted; }).map(function (p) { return p[1]; });
      }
      function runTest(name, body) {
        try {
          const value = body();
          if (value !== null && typeof value === "object" && typeof value.then === "function") {
            // An async test passes when its promise is fulfilled (its jobs run before the script ends).
            const entry = { name: String(name), passed: false, message: "the test's promise did not settle" };
            value.then(function () { entry.passed = true; entry.message = ""; },
                       function (error) { entry.message = describe(error); });
            state.tests.push(entry);
            return;
          }
          state.tests.push({ name: String(name), passed: true, message: "" });
        } catch (error) {
          if (error === exitSignal) throw error;
          state.tests.push({ name: String(name), passed: false, message: describe(error) });
        }
      }

      // MARK: $random and crypto, as the JetBrains reference lists them.
      function randomFrom(alphabet, length) {
        let out = "";
        for (let i = 0; i < (length === undefined ? 10 : length); i++) {
          out += alphabet[Math.floor(Math.random() * alphabet.length)];
        }
        return out;
      }
      const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
      const random = {
        get uuid() {
          return "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".replace(/[xy]/g, function (c) {
            const r = Math.floor(Math.random() * 16);
            return (c === "x" ? r : (r & 3) | 8).toString(16);
          });
        },
        get email() { return randomFrom("abcdefghijklmnopqrstuvwxyz", 8) + "@example.com"; },
        integer: function (from, to) {
          const low = from === undefined ? 0 : Math.ceil(from), high = to === undefined ? 1000 : Math.floor(to);
          return low + Math.floor(Math.random() * Math.max(high - low, 0));
        },
        float: function (from, to) {
          const low = from === undefined ? 0 : from, high = to === undefined ? 1000 : to;
          return low + Math.random() * (high - low);
        },
        alphabetic: function (length) { return randomFrom(letters, length); },
        alphanumeric: function (length) { return randomFrom(letters + "0123456789_", length); },
        hexadecimal: function (length) { return randomFrom("0123456789abcdef", length); },
      };

      function utf8Hex(value) {
        const bytes = unescape(encodeURIComponent(String(value)));
        let hex = "";
        for (let i = 0; i < bytes.length; i++) hex += bytes.charCodeAt(i).toString(16).padStart(2, "0");
        return hex;
      }
      const base64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
      function hexToBase64(hex) {
        let out = "";
        for (let i = 0; i < hex.length; i += 6) {
          const chunk = hex.substr(i, 6), bits = chunk.length * 4;
          const n = parseInt(chunk.padEnd(6, "0"), 16);
          for (let j = 0; j < 4; j++) {
            out += j * 6 < bits ? base64Alphabet[(n >> (18 - j * 6)) & 63] : "=";
          }
        }
        return out;
      }
      function base64ToHex(text) {
        const clean = String(text).replace(/-/g, "+").replace(/_/g, "/").replace(/[^A-Za-z0-9+/]/g, "");
        let bits = 0, count = 0, hex = "";
        for (const c of clean) {
          bits = (bits << 6) | base64Alphabet.indexOf(c);
          count += 6;
          if (count >= 8) { count -= 8; hex += ((bits >> count) & 255).toString(16).padStart(2, "0"); }
        }
        return hex;
      }
      function digestBuilder(algorithm, secretHex) {
        let data = "";
        const builder = {
          updateWithText: function (value) { data += utf8Hex(value); return builder; },
          updateWithHex: function (value) { data += String(value).toLowerCase(); return builder; },
          updateWithBase64: function (value) { data += base64ToHex(value); return builder; },
          digest: function () {
            if (typeof __courierDigest !== "function") throw new UnsupportedError("crypto");
            const hex = __courierDigest(algorithm, secretHex, data);
            return {
              toHex: function () { return hex; },
              toBase64: function () { return hexToBase64(hex); },
              toUrlSafeBase64: function () {
                return hexToBase64(hex).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
              },
            };
          },
        };
        return builder;
      }
      function hmacBuilder(algorithm) {
        return {
          withTextSecret: function (secret) { return digestBuilder(algorithm, utf8Hex(secret)); },
          withHexSecret: function (secret) { return digestBuilder(algorithm, String(secret).toLowerCase()); },
          withBase64Secret: function (secret) { return digestBuilder(algorithm, base64ToHex(secret)); },
        };
      }
      const algorithms = ["md5", "sha1", "sha256", "sha384", "sha512"];
      const crypto = { hmac: {} };
      for (const name of algorithms) {
        crypto[name] = function () { return digestBuilder(name, null); };
        crypto.hmac[name] = function () { return hmacBuilder(name); };
      }
      function btoaText(value) { return hexToBase64(utf8Hex(value)); }
      function atobText(value) {
        const hex = base64ToHex(value);
        let out = "";
        for (let i = 0; i < hex.length; i += 2) out += String.fromCharCode(parseInt(hex.substr(i, 2), 16));
        return out;
      }

      // MARK: client, request and response.
      function boot(input) {
        state.globals = input.globals;
        state.variables = input.requestVariables;
        const req = input.request;
        state.headers = req.headers.map(function (h) { return [h.name, h.value]; });
        const globalStore = {
          set: function (name, value) { state.globals[String(name)] = text(value); },
          get: function (name) { return lookup(state.globals, name); },
          isEmpty: function () { return Object.keys(state.globals).length === 0; },
          clear: function (name) { delete state.globals[String(name)]; },
          clearAll: function () { for (const key of Object.keys(state.globals)) delete state.globals[key]; },
        };
        const environment = { get: function (name) { return lookup(input.environment, name); } };
        const variables = {
          get: function (name) { return lookup(state.variables, name); },
          set: function (name, value) { state.variables[String(name)] = text(value); },
        };
        const client = {
          global: globalStore,
          variables: { global: globalStore, environment: environment, request: variables },
          test: function (name, body) { state.pending.push([name, body]); },
          assert: function (condition, message) {
            if (!condition) throw new AssertionError(message === undefined ? "assertion failed" : String(message));
          },
          log: function () { state.logs.push(logText(Array.prototype.slice.call(arguments))); },
          exit: function () { throw exitSignal; },
        };
        // What is still written as {{name}} once Courier substituted what it knew: a request variable this
        // script set since, as the JetBrains client substitutes it.
        function withScriptVariables(value) {
          if (typeof value !== "string") return value;
          return value.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, function (written, name) {
            return Object.prototype.hasOwnProperty.call(state.variables, name) ? state.variables[name] : written;
          });
        }
        function header(h) {
          return {
            name: h.name, value: h.value,
            getRawValue: function () { return h.raw; },
            tryGetSubstitutedValue: function () { return withScriptVariables(h.value); },
          };
        }
        const request = {
          method: req.method,
          url: {
            getRaw: function () { return req.rawURL; },
            tryGetSubstituted: function () { return withScriptVariables(req.url); },
            toString: function () { return withScriptVariables(req.url); },
          },
          headers: {
            all: function () { return req.headers.map(header); },
            findByName: function (name) {
              const wanted = String(name).toLowerCase();
              const found = req.headers.find(function (h) { return h.name.toLowerCase() === wanted; });
              return found ? header(found) : null;
            },
          },
          body: {
            getRaw: function () { return req.rawBody === undefined ? null : req.rawBody; },
            tryGetSubstituted: function () { return req.body === undefined ? null : withScriptVariables(req.body); },
          },
          environment: environment,
          variables: variables,
          iteration: function () { return 0; },
        };
        const scope = globalThis;
        scope.client = client;
        scope.request = request;
        scope.$random = random;
        scope.crypto = crypto;
        // JavaScriptCore's own console writes to the process's standard error; scripts log to the result.
        try {
          scope.console = { log: client.log, info: client.log, warn: client.log, error: client.log };
        } catch (ignored) {}
        // The JetBrains handlers' jsonPath(data, path): the one value a path selects, an array when it selects
        // several, null when none.
        if (typeof __courierJSONPath === "function") {
          scope.jsonPath = function (data, path) {
            const json = typeof data === "string" ? data : JSON.stringify(data === undefined ? null : data);
            const answer = JSON.parse(__courierJSONPath(json, String(path)));
            if (answer.error !== undefined) throw new Error("jsonPath: " + answer.error);
            return answer.values.length === 0 ? null : answer.values.length === 1 ? answer.values[0] : answer.values;
          };
        }
        if (typeof scope.btoa !== "function") scope.btoa = btoaText;
        if (typeof scope.atob !== "function") scope.atob = atobText;
        if (input.response) {
          const res = input.response;
          const headerPairs = res.headers.map(function (h) { return [h.name, h.value]; });
          const contentType = firstHeader(headerPairs, "Content-Type") || "";
          const parts = contentType.split(";").map(function (s) { return s.trim(); });
          const charsetPart = parts.find(function (p) { return p.toLowerCase().indexOf("charset=") === 0; });
          let body = res.body;
          if (/[/+]json$/i.test(parts[0]) || parts[0].toLowerCase() === "application/json") {
            try { body = JSON.parse(res.body); } catch (ignored) { body = res.body; }
          }
          scope.response = {
            status: res.status,
            body: body,
            headers: {
              valueOf: function (name) { return firstHeader(headerPairs, name); },
              valuesOf: function (name) { return allHeaders(headerPairs, name); },
            },
            contentType: { mimeType: parts[0], charset: charsetPart ? charsetPart.substr(8) : "utf-8" },
          };
        }
        if (typeof __courierPostman === "function") __courierPostman(input, state, runTest, UnsupportedError);
        if (input.httpyac && typeof __courierHttpyac === "function") {
          __courierHttpyac(input, state, runTest, UnsupportedError);
        }
      }

      // Tests declared with client.test run after the script, as the JetBrains reference says.
      function finish() {
        for (const finisher of state.finishers) finisher();
        for (const pending of state.pending) {
          try { runTest(pending[0], pending[1]); } catch (error) { if (error === exitSignal) break; throw error; }
        }
        return JSON.stringify({
          globals: state.globals, variables: state.variables, tests: state.tests, logs: state.logs,
          headers: state.headersChanged ? state.headers : null,
          url: state.url, method: state.method, body: state.body, cancelled: !!state.cancelled,
        });
      }
      return { boot: boot, finish: finish, state: state };
    })();
    """#
}
