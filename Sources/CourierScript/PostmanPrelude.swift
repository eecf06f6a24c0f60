/// The JavaScript behind Postman's `pm` object: variable scopes, `pm.response`, `pm.request`, `pm.test`
/// and `pm.expect` with the chai chains collections use. It runs on the same state as `client`, so
/// `pm.environment.set` and `client.global.set` fill one store of globals. Anything else throws
/// "pm.… is not supported by Courier".
enum PostmanPrelude {
    static let code = #"""
    function __courierPostman(input, state, runTest, UnsupportedError) {
      "use strict";
      class AssertionError extends Error {
        constructor(message) { super(message); this.name = "AssertionError"; }
      }
      // Names every object answers without being asked for (printing, promises, JSON).
      const quiet = ["toJSON", "then", "toString", "valueOf", "inspect", "constructor", "length", "nodeType"];
      function strict(object, path) {
        return new Proxy(object, {
          get: function (target, key) {
            if (typeof key !== "string" || key in target || quiet.indexOf(key) >= 0) return target[key];
            throw new UnsupportedError(path + "." + key);
          },
        });
      }
      function text(value) {
        if (value === undefined || value === null) return "";
        return typeof value === "object" ? JSON.stringify(value) : String(value);
      }
      function own(map, name) {
        return Object.prototype.hasOwnProperty.call(map, String(name)) ? map[String(name)] : undefined;
      }
      function format(value) {
        if (typeof value === "string") return "'" + value + "'";
        if (value === undefined) return "undefined";
        try { return JSON.stringify(value); } catch (e) { return String(value); }
      }
      function deepEqual(a, b) {
        if (a === b) return true;
        if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
        if (Array.isArray(a) !== Array.isArray(b)) return false;
        const keysA = Object.keys(a), keysB = Object.keys(b);
        if (keysA.length !== keysB.length) return false;
        return keysA.every(function (k) { return deepEqual(a[k], b[k]); });
      }
      function typeName(value) {
        if (value === null) return "null";
        if (Array.isArray(value)) return "array";
        return typeof value;
      }
      function reason(code) {
        const reasons = { 100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted",
          203: "Non-Authoritative Information", 204: "No Content", 205: "Reset Content", 206: "Partial Content",
          207: "Multi-Status", 300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other",
          304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
          401: "Unauthorized", 402: "Payment Required", 403: "Forbidden", 404: "Not Found",
          405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict", 410: "Gone",
          411: "Length Required", 412: "Precondition Failed", 413: "Payload Too Large", 414: "URI Too Long",
          415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
          418: "I'm a teapot", 422: "Unprocessable Entity", 423: "Locked", 425: "Too Early",
          426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
          431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
          500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
          504: "Gateway Timeout", 505: "HTTP Version Not Supported", 511: "Network Authentication Required" };
        return reasons[code] || "";
      }

      // MARK: pm.expect, a chai subset.
      function expect(actual, label) {
        let negated = false;
        const chain = {};
        function check(ok, message, negatedMessage) {
          if (negated ? ok : !ok) throw new AssertionError(negated ? negatedMessage : message);
          return proxy;
        }
        function says(verb, expected) {
          return ["expected " + format(actual) + " to " + verb + (expected === undefined ? "" : " " + expected),
                  "expected " + format(actual) + " to not " + verb + (expected === undefined ? "" : " " + expected)];
        }
        for (const word of ["to", "be", "been", "is", "that", "which", "and", "has", "have", "with", "at", "of",
                            "same", "does", "deep", "still", "also"]) {
          Object.defineProperty(chain, word, { get: function () { return proxy; } });
        }
        Object.defineProperty(chain, "not", { get: function () { negated = !negated; return proxy; } });
        const getters = {
          // On pm.response, Postman's `to.be.ok` means status 200; elsewhere chai's truthiness.
          ok: [function () {
            if (actual && typeof actual.code === "number" && typeof actual.json === "function") {
              return actual.code === 200;
            }
            return !!actual;
          }, "be ok"],
          true: [function () { return actual === true; }, "be true"],
          false: [function () { return actual === false; }, "be false"],
          null: [function () { return actual === null; }, "be null"],
          undefined: [function () { return actual === undefined; }, "be undefined"],
          exist: [function () { return actual !== null && actual !== undefined; }, "exist"],
          empty: [function () {
            if (typeof actual === "string" || Array.isArray(actual)) return actual.length === 0;
            return actual !== null && typeof actual === "object" && Object.keys(actual).length === 0;
          }, "be empty"],
          json: [function () {
            return actual && actual.headers && /json/i.test(actual.headers.get("Content-Type") || "");
          }, "be JSON"],
          success: [function () { const c = actual && actual.code; return c >= 200 && c < 300; }, "be a success"],
        };
        for (const name of Object.keys(getters)) {
          Object.defineProperty(chain, name, { get: function () {
            const m = says(getters[name][1]);
            return check(getters[name][0](), m[0], m[1]);
          } });
        }
        function equal(expected) {
          const m = says("equal", format(expected));
          return check(actual === expected, m[0], m[1]);
        }
        function eql(expected) {
          const m = says("deeply equal", format(expected));
          return check(deepEqual(actual, expected), m[0], m[1]);
        }
        function include(expected) {
          let ok;
          if (typeof actual === "string") ok = actual.indexOf(String(expected)) >= 0;
          else if (Array.isArray(actual)) ok = actual.some(function (item) { return deepEqual(item, expected); });
          else if (actual && typeof actual === "object" && expected && typeof expected === "object")
            ok = Object.keys(expected).every(function (k) { return deepEqual(actual[k], expected[k]); });
          else ok = false;
          const m = says("include", format(expected));
          return check(ok, m[0], m[1]);
        }
        function typeCheck(type) {
          const wanted = String(type).toLowerCase();
          const m = says("be a", wanted);
          return check(typeName(actual) === wanted, m[0], m[1]);
        }
        function compare(verb, ok, expected) {
          const m = says(verb, format(expected));
          return check(ok, m[0], m[1]);
        }
        Object.assign(chain, {
          equal: equal, equals: equal, eq: equal,
          eql: eql, eqls: eql,
          include: include, includes: include, contain: include, contains: include,
          a: typeCheck, an: typeCheck,
          above: function (n) { return compare("be above", actual > n, n); },
          gt: function (n) { return compare("be above", actual > n, n); },
          greaterThan: function (n) { return compare("be above", actual > n, n); },
          below: function (n) { return compare("be below", actual < n, n); },
          lt: function (n) { return compare("be below", actual < n, n); },
          lessThan: function (n) { return compare("be below", actual < n, n); },
          least: function (n) { return compare("be at least", actual >= n, n); },
          most: function (n) { return compare("be at most", actual <= n, n); },
          within: function (low, high) {
            return compare("be within", actual >= low && actual <= high, low + ".." + high);
          },
          oneOf: function (list) { return compare("be one of", list.indexOf(actual) >= 0, list); },
          match: function (pattern) { return compare("match", pattern.test(String(actual)), String(pattern)); },
          lengthOf: function (n) {
            const length = actual === null || actual === undefined ? undefined : actual.length;
            const m = says("have a length of", n + " but got " + length);
            return check(length === n, m[0], m[1]);
          },
          property: function (name, value) {
            const has = actual !== null && actual !== undefined && typeof actual === "object" && name in actual;
            const m = says("have property", format(name));
            check(has, m[0], m[1]);
            if (arguments.length > 1) {
              const v = says("have property " + format(name) + " of", format(value));
              check(has && deepEqual(actual[name], value), v[0], v[1]);
            }
            return negated ? proxy : expect(has ? actual[name] : undefined, label);
          },
          keys: function () {
            const wanted = Array.isArray(arguments[0]) ? arguments[0] : Array.prototype.slice.call(arguments);
            const ok = actual && typeof actual === "object" && wanted.every(function (k) { return k in actual; });
            return compare("have keys", ok, wanted);
          },
          status: function (code) {
            const got = actual && actual.code;
            const ok = typeof code === "number" ? got === code : actual && actual.status === code;
            const m = ["expected response to have status " + format(code) + " but got " + format(got),
                       "expected response to not have status " + format(code)];
            return check(ok, m[0], m[1]);
          },
          body: function (expected) {
            const got = actual && typeof actual.text === "function" ? actual.text() : actual;
            const ok = arguments.length === 0 ? got !== undefined && got !== "" : got === expected;
            return compare("have body", ok, arguments.length === 0 ? undefined : format(expected));
          },
          header: function (name, value) {
            const got = actual && actual.headers ? actual.headers.get(name) : undefined;
            const ok = got !== undefined && (arguments.length < 2 || got === value);
            return compare("have header", ok, format(name) + (arguments.length > 1 ? ": " + format(value) : ""));
          },
        });
        const proxy = strict(chain, label || "pm.expect(…)");
        return proxy;
      }
      expect.fail = function (message) { throw new AssertionError(message || "expect.fail()"); };

      // A dynamic variable (`$guid`, `$randomInt`) as requests resolve it; undefined when Courier knows none.
      function dynamic(expression) {
        const value = typeof __courierDynamic === "function" ? __courierDynamic(expression) : null;
        return value === null ? undefined : value;
      }

      // MARK: variables: one store of globals for the run, the environment read-only beneath it.
      function scope(name, fallback) {
        return strict({
          get: function (key) {
            const value = own(state.globals, key);
            return value !== undefined ? value : fallback(key);
          },
          set: function (key, value) { state.globals[String(key)] = text(value); },
          unset: function (key) { delete state.globals[String(key)]; },
          has: function (key) { return this.get(key) !== undefined; },
          toObject: function () { return Object.assign({}, input.environment, state.globals); },
          replaceIn: function (template) {
            const self = this;
            return String(template).replace(/\{\{\s*([^{}]+?)\s*\}\}/g, function (whole, key) {
              const value = key.charAt(0) === "$" ? dynamic(key) : self.get(key);
              return value === undefined ? whole : value;
            });
          },
        }, "pm." + name);
      }
      const environmentValue = function (key) { return own(input.environment, key); };
      const row = input.iterationData || {};
      const variableValue = function (key) {
        const local = own(state.variables, key);
        if (local !== undefined) return local;
        const data = own(row, key);
        return data !== undefined ? data : own(input.environment, key);
      };
      // pm.iterationData: this iteration's row of `courier run --data`, read-only.
      const iterationData = strict({
        get: function (key) { return own(row, key); },
        has: function (key) { return own(row, key) !== undefined; },
        toObject: function () { return Object.assign({}, row); },
        toJSON: function () { return Object.assign({}, row); },
        unset: function (key) { delete row[String(key)]; },
        replaceIn: function (template) {
          return String(template).replace(/\{\{\s*([^{}]+?)\s*\}\}/g, function (whole, key) {
            const value = own(row, key);
            return value === undefined ? whole : value;
          });
        },
      }, "pm.iterationData");

      // MARK: pm.request and pm.response.
      const req = input.request;
      function headerIndex(key) {
        const wanted = String(key).toLowerCase();
        return state.headers.findIndex(function (pair) { return pair[0].toLowerCase() === wanted; });
      }
      function headerPair(entry, value) {
        if (typeof entry === "string") {
          const colon = entry.indexOf(":");
          return value !== undefined || colon < 0 ? [entry, text(value)]
                                                   : [entry.slice(0, colon).trim(), entry.slice(colon + 1).trim()];
        }
        return [String(entry.key), text(entry.value)];
      }
      const requestHeaders = strict({
        get: function (key) { const i = headerIndex(key); return i < 0 ? undefined : state.headers[i][1]; },
        has: function (key) { return headerIndex(key) >= 0; },
        add: function (entry, value) {
          state.headers.push(headerPair(entry, value));
          state.headersChanged = true;
        },
        upsert: function (entry, value) {
          const pair = headerPair(entry, value), i = headerIndex(pair[0]);
          if (i < 0) state.headers.push(pair); else state.headers[i] = pair;
          state.headersChanged = true;
        },
        remove: function (key) {
          const wanted = String(key).toLowerCase();
          state.headers = state.headers.filter(function (pair) { return pair[0].toLowerCase() !== wanted; });
          state.headersChanged = true;
        },
        toObject: function () {
          const out = {};
          for (const pair of state.headers) out[pair[0]] = pair[1];
          return out;
        },
        all: function () { return state.headers.map(function (p) { return { key: p[0], value: p[1] }; }); },
      }, "pm.request.headers");
      const pm = {
        environment: scope("environment", environmentValue),
        collectionVariables: scope("collectionVariables", environmentValue),
        globals: scope("globals", environmentValue),
        variables: scope("variables", variableValue),
        iterationData: iterationData,
        info: strict({ requestName: req.name || "", iteration: input.iteration || 0,
                       iterationCount: input.iterationCount || 1,
                       eventName: input.phase === "pre" ? "prerequest" : "test" }, "pm.info"),
        request: strict({
          method: req.method,
          url: strict({ toString: function () { return req.url; }, raw: req.rawURL }, "pm.request.url"),
          headers: requestHeaders,
          body: strict({ mode: "raw", raw: req.body === undefined ? "" : req.body,
                         toString: function () { return req.body === undefined ? "" : req.body; } },
                       "pm.request.body"),
        }, "pm.request"),
        execution: strict({ setNextRequest: function (name) {
          state.nextRequest = name === null || name === undefined ? { stop: true } : { name: String(name) };
        } }, "pm.execution"),
        test: function (name, body) { runTest(name, body); },
        expect: function (value) { return expect(value, "pm.expect(…)"); },
      };
      pm.test.skip = function () {};
      pm.variables.set = function (key, value) { state.variables[String(key)] = text(value); };
      pm.variables.unset = function (key) { delete state.variables[String(key)]; };
      // A response as scripts read it: pm.response, and what pm.sendRequest hands its callback.
      function responseOf(res, label) {
        const headers = strict({
          get: function (key) {
            const wanted = String(key).toLowerCase();
            const found = res.headers.find(function (h) { return h.name.toLowerCase() === wanted; });
            return found ? found.value : undefined;
          },
          has: function (key) { return this.get(key) !== undefined; },
          toObject: function () {
            const out = {};
            for (const h of res.headers) out[h.name.toLowerCase()] = h.value;
            return out;
          },
          all: function () { return res.headers.map(function (h) { return { key: h.name, value: h.value }; }); },
        }, label + ".headers");
        const response = {
          code: res.status,
          status: reason(res.status),
          responseTime: res.milliseconds,
          responseSize: res.body.length,
          headers: headers,
          json: function () {
            try { return JSON.parse(res.body); } catch (e) {
              throw new AssertionError(label + ".json(): the body is not JSON (" + e.message + ")");
            }
          },
          text: function () { return res.body; },
        };
        response.to = strict({
          get have() { return expect(response, label + ".to.have"); },
          get be() { return expect(response, label + ".to.be"); },
          get not() { return expect(response, label + ".to").not; },
        }, label + ".to");
        return strict(response, label);
      }
      if (input.response) pm.response = responseOf(input.response, "pm.response");
      // pm.sendRequest: sent when called, through Courier's client; the callback runs after the script's body,
      // as Postman's does once the response is in. Without a callback, a promise.
      const sent = [];
      state.finishers.push(function () { while (sent.length > 0) sent.shift()(); });
      pm.sendRequest = function (request, callback) {
        if (typeof __courierSend !== "function") {
          throw new UnsupportedError("pm.sendRequest");
        }
        const answer = JSON.parse(__courierSend(JSON.stringify(__courierOutgoing(request))));
        const error = answer.error !== undefined ? new Error(answer.error) : null;
        const response = error ? null : responseOf(answer.response, "pm.sendRequest response");
        if (typeof callback === "function") {
          sent.push(function () { callback(error, response); });
          return undefined;
        }
        return error ? Promise.reject(error) : Promise.resolve(response);
      };
      globalThis.pm = strict(pm, "pm");
      globalThis.require = __courierMakeRequire(__courierModuleTable, __courierBuiltIns());
      // httpyac's blocks have globals of their own (every variable by name): the legacy names would hide them.
      if (!input.httpyac) __courierPostmanLegacy(input, state, pm, globalThis.require, UnsupportedError);
    }
    """#
}
