/// The JavaScript behind httpyac's `{{ … }}` scripts: every variable of the request as a global, `exports`
/// (what a script exports becomes a variable for the requests after it, as `client.global.set` does),
/// `request` and `response` as httpyac shapes them, `test()` with its helpers, `console`, `httpFile`,
/// `httpRegion`, `$global`, and `require` (Node's `assert` and `crypto`, and what `ScriptModules` lists). The
/// script itself runs inside a function, so `return` works at its top level; an async one, as httpyac runs
/// it, when it uses promises (`await` at the top level), and a plain one otherwise, so that it can run in
/// Courier's own process (`ScriptEngine.run`).
enum HttpyacPrelude {
    /// Globals the variables never replace.
    static let reserved = [
        "request", "response", "exports", "module", "require", "test", "console", "httpFile", "httpRegion",
        "sleep", "client", "crypto", "pm", "postman", "$global", "$httpyac", "$random", "__courier", "__dirname",
        "__filename", "undefined", "NaN", "Infinity", "eval", "arguments",
    ]

    /// The user's code wrapped in the function that runs it, `asynchronous` or not: the wrapper starts on the
    /// code's first line so that errors keep the file's line numbers.
    static func wrap(_ code: String, asynchronous: Bool) -> String {
        "__courier.state.httpyac.run(\(asynchronous ? "async " : "")function (exports, require, module, "
            + "__filename, __dirname) {" + code + "\n});"
    }

    /// Evaluated after the user's code: throws what its async body threw, so it is reported as any error.
    static let rethrow = "__courier.state.httpyac.rethrow();"

    static let code = #"""
    function __courierHttpyac(input, state, runTest, UnsupportedError) {
      "use strict";
      const scope = globalThis;
      const reserved = new Set(input.httpyac.reserved);
      function text(value) {
        if (value === undefined || value === null) return "";
        return typeof value === "object" ? JSON.stringify(value) : String(value);
      }
      function typed(value) {
        const first = String(value).trim().charAt(0);
        if (first === "{" || first === "[") {
          try { return JSON.parse(value); } catch (ignored) { return value; }
        }
        return value;
      }
      // Every variable the request sees, by name; a JSON object or array as the object.
      const literals = new Set(input.httpyac.literals || []);
      for (const name of Object.keys(input.httpyac.scope)) {
        if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) || reserved.has(name) || name in scope) continue;
        const value = input.httpyac.scope[name];
        let literal = value;
        if (literals.has(name)) { try { literal = JSON.parse(value); } catch (ignored) { literal = value; } }
        scope[name] = literals.has(name) ? literal : typed(value);
      }
      const exported = {};
      const module = { exports: exported };
      const globalStore = {};
      for (const key of Object.keys(state.globals)) globalStore[key] = typed(state.globals[key]);
      const seeded = Object.assign({}, state.globals);

      // MARK: request, as httpyac's HttpRequest: plain fields a pre-request script may change.
      const req = input.request;
      const headers = {};
      for (const h of req.headers) headers[h.name] = h.value;
      const original = { method: req.method, url: req.url, body: req.body, headers: JSON.stringify(headers) };
      const request = { protocol: "HTTP", method: req.method, url: req.url, headers: headers, body: req.body };

      // MARK: response, as httpyac's HttpResponse.
      let response;
      if (input.response) {
        const res = input.response;
        const lower = {};
        for (const h of res.headers) {
          const key = h.name.toLowerCase();
          if (lower[key] === undefined) lower[key] = h.value;
          else if (Array.isArray(lower[key])) lower[key].push(h.value);
          else lower[key] = key === "set-cookie" ? [lower[key], h.value] : lower[key] + ", " + h.value;
        }
        const contentType = String(lower["content-type"] || "");
        const parts = contentType.split(";").map(function (s) { return s.trim(); });
        const charset = parts.find(function (p) { return p.toLowerCase().indexOf("charset=") === 0; });
        let parsedBody;
        try { parsedBody = JSON.parse(res.body); } catch (ignored) { parsedBody = undefined; }
        response = {
          protocol: "HTTP", statusCode: res.status, headers: lower, body: res.body,
          parsedBody: parsedBody, prettyPrintBody: res.body,
          contentType: { mimeType: parts[0], charset: charset ? charset.substr(8) : undefined, contentType: contentType },
          timings: { total: res.milliseconds }, request: request,
        };
      }

      // MARK: test(), running at once as httpyac's does, with its helpers.
      function check(ok, message) { if (!ok) throw new Error(message); }
      function test(name, body) { runTest(name, typeof body === "function" ? body : function () {}); }
      function headerValue(key) { return response ? response.headers[String(key).toLowerCase()] : undefined; }
      test.status = function (status) {
        test("response status equals to " + status, function () {
          check(response && response.statusCode === status, "response status " + (response && response.statusCode)
            + " is not " + status);
        });
      };
      test.totalTime = function (most) {
        test("total time exceeded " + most, function () {
          check(response && response.timings.total <= most, "total time " + (response && response.timings.total)
            + " ms exceeds " + most + " ms");
        });
      };
      test.header = function (key, value) {
        test("response header " + key + " equals " + value, function () {
          check(headerValue(key) === value, "header " + key + " is " + headerValue(key));
        });
      };
      test.headerContains = function (key, value) {
        test("response header " + key + " contains " + value, function () {
          check(String(headerValue(key) || "").indexOf(value) >= 0, "header " + key + " is " + headerValue(key));
        });
      };
      test.responseBody = function (value) {
        test("response body equals " + value, function () {
          check(response && response.body === value, "response body is " + (response && response.body));
        });
      };
      test.hasResponseBody = function () {
        test("response body exists", function () { check(response && response.body.length > 0, "no response body"); });
      };
      test.hasNoResponseBody = function () {
        test("response body does not exists", function () {
          check(!response || response.body.length === 0, "response body exists");
        });
      };

      // MARK: require: Node's assert.
      function fail(message, fallback) { throw new Error(message === undefined ? fallback : String(message)); }
      function deepEqual(a, b) {
        if (a === b) return true;
        if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
        const ka = Object.keys(a), kb = Object.keys(b);
        return ka.length === kb.length && ka.every(function (k) { return deepEqual(a[k], b[k]); });
      }
      function show(value) { try { return JSON.stringify(value); } catch (ignored) { return String(value); } }
      const assert = function (value, message) { if (!value) fail(message, "assertion failed: " + show(value)); };
      assert.ok = assert;
      assert.equal = function (a, b, m) { if (a != b) fail(m, show(a) + " == " + show(b)); };
      assert.notEqual = function (a, b, m) { if (a == b) fail(m, show(a) + " != " + show(b)); };
      assert.strictEqual = function (a, b, m) { if (a !== b) fail(m, show(a) + " === " + show(b)); };
      assert.notStrictEqual = function (a, b, m) { if (a === b) fail(m, show(a) + " !== " + show(b)); };
      assert.deepEqual = function (a, b, m) { if (!deepEqual(a, b)) fail(m, show(a) + " deepEqual " + show(b)); };
      assert.deepStrictEqual = assert.deepEqual;
      assert.notDeepStrictEqual = function (a, b, m) { if (deepEqual(a, b)) fail(m, show(a) + " notDeepEqual " + show(b)); };
      assert.notDeepEqual = assert.notDeepStrictEqual;
      assert.match = function (s, re, m) { if (!re.test(s)) fail(m, show(s) + " does not match " + re); };
      assert.fail = function (m) { fail(m, "failed"); };
      assert.strict = assert;
      // Node's assert and crypto here; the libraries Postman scripts may require (uuid, lodash, moment,
      // chai, buffer, url, util, …) through the same loader.
      let modules;
      function require(name) {
        const bare = String(name).replace(/^node:/, "");
        if (bare === "assert" || bare === "assert/strict") return assert;
        if (bare === "crypto") return __courierNodeCrypto();
        if (!modules) modules = __courierMakeRequire(__courierModuleTable, __courierBuiltIns());
        return modules(bare);
      }

      scope.exports = exported;
      scope.module = module;
      scope.request = request;
      scope.response = response;
      scope.test = test;
      scope.require = require;
      scope.$global = globalStore;
      scope.httpFile = { fileName: input.httpyac.file };
      scope.httpRegion = { metaData: { name: req.name }, symbol: { name: req.name || "" } };
      scope.sleep = function () { return Promise.resolve(); };
      // httpyac's script API: variables set through it are exports; running or importing other requests from a
      // script is not (a request names what runs first with `# @ref NAME`, other files with `# @import`).
      scope.$httpyac = {
        setVariables: function (vars) { Object.assign(exported, vars || {}); },
        execute: function () { throw new UnsupportedError("$httpyac.execute (name the request with # @ref NAME)"); },
        import: function () { throw new UnsupportedError("$httpyac.import (import the file with # @import)"); },
        findHttpRegionInContext: function () { throw new UnsupportedError("$httpyac.findHttpRegionInContext"); },
      };
      const log = scope.console.log;
      scope.console = { log: log, info: log, warn: log, error: log, debug: log, trace: log };

      let failure = null;
      state.httpyac = {
        run: function (body) {
          let result;
          try {
            result = body(exported, require, module, input.httpyac.file, input.httpyac.folder);
          } catch (error) { failure = error; return; }
          if (result && typeof result.then === "function") {
            result.then(undefined, function (error) { failure = error; });
          }
        },
        // Called once the promise's jobs have run: an error the async body threw is the script's error.
        rethrow: function () { if (failure !== null) throw failure; },
      };
      // What the script set is kept even when it threw afterwards, as for JetBrains scripts.
      state.finishers.push(function () {
        for (const key of Object.keys(seeded)) if (!(key in globalStore)) delete state.globals[key];
        for (const key of Object.keys(globalStore)) {
          const value = text(globalStore[key]);
          if (seeded[key] !== value && !(seeded[key] !== undefined && text(typed(seeded[key])) === value)) {
            state.globals[key] = value;
          }
        }
        const values = module.exports === exported ? exported : Object.assign({}, exported, module.exports);
        for (const key of Object.keys(values)) {
          if (key === "$cancel") { state.cancelled = !!values[key]; continue; }
          if (values[key] === undefined) delete state.globals[key]; else state.globals[key] = text(values[key]);
        }
        if (request.url !== original.url) state.url = String(request.url);
        if (request.method !== original.method) state.method = String(request.method);
        if (request.body !== original.body) state.body = text(request.body);
        if (JSON.stringify(request.headers) !== original.headers) {
          state.headers = Object.keys(request.headers).map(function (k) { return [k, text(request.headers[k])]; });
          state.headersChanged = true;
        }
      });
      return state.httpyac;
    }
    """#
}
