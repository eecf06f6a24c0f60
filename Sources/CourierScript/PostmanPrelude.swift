/// The JavaScript behind Postman's `pm` object: variable scopes, `pm.response`, `pm.request`, `pm.test`
/// and `pm.expect` with the chai chains collections use. It runs on the same state as `client`, so
/// `pm.environment.set` and `client.global.set` fill one store of globals. Anything else throws
/// "pm.… is not supported by Courier".
///
/// `pm` is built the first time a script reads it, as is `require` (most scripts use neither, and building
/// them, with chai's chains and the built-in modules, was most of what a fresh context cost): both names are
/// defined up front as accessors that build on the first read and then become plain values, so a script sees
/// them as if they had always been there, and assigning either first replaces it without building it.
enum PostmanPrelude {
    static let code = #"""
    function __courierPostman(input, state, runTest, UnsupportedError) {
      "use strict";
      let built = null, made = null;
      function build() {
        if (built === null) built = __courierPostmanBuild(input, state, runTest, UnsupportedError);
        return built;
      }
      function makeRequire() {
        if (made === null) made = __courierMakeRequire(__courierModuleTable, __courierBuiltIns());
        return made;
      }
      __courierLazyProperty(globalThis, "pm", true, function () { return build().pm; });
      __courierLazyProperty(globalThis, "require", true, makeRequire);
      // httpyac's blocks have globals of their own (every variable by name): the legacy names would hide them.
      if (!input.httpyac) {
        __courierPostmanLegacy(input, state, function () { return build().raw; },
                               function (name) { return makeRequire()(name); }, UnsupportedError);
      }
    }

    // `name` on `object` (the global object, `pm`) as an accessor that makes it a plain value the first time it is
    // read (what `load` returns) or assigned (what is assigned), as a property a script assigns would be.
    // Object.defineProperty is taken when the accessor is made, before any script could replace it.
    function __courierLazyProperty(object, name, enumerable, load) {
      const defineProperty = Object.defineProperty;
      function define(value) {
        defineProperty(object, name, { __proto__: null, configurable: true, enumerable: enumerable, writable: true,
                                       value: value });
      }
      defineProperty(object, name, { __proto__: null, configurable: true, enumerable: enumerable,
        get: function () { const value = load(); define(value); return value; },
        set: function (value) { define(value); } });
    }

    // `pm` as the global holds it (strict: an unknown member throws) and the object itself, for the legacy
    // sandbox.
    function __courierPostmanBuild(input, state, runTest, UnsupportedError) {
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

      // MARK: pm.expect (PostmanExpectPrelude), loaded with require so jsonSchema can find ajv.
      const chai = __courierPostmanExpect(strict, AssertionError, reason, function (name) {
        return globalThis.require(name);
      });
      const expect = chai.chain;

      // A dynamic variable (`$guid`, `$randomInt`) as requests resolve it; undefined when Courier knows none.
      function dynamic(expression) {
        const value = typeof __courierDynamic === "function" ? __courierDynamic(expression) : null;
        return value === null ? undefined : value;
      }

      // MARK: variables: one store of globals for the run, the environment read-only beneath it.
      function scope(name, fallback, beneath) {
        return strict({
          get: function (key) {
            const value = own(state.globals, key);
            return value !== undefined ? value : fallback(key);
          },
          set: function (key, value) { state.globals[String(key)] = text(value); },
          unset: function (key) { delete state.globals[String(key)]; },
          // Scopes share one store of what scripts set (as the legacy clearEnvironmentVariables does).
          clear: function () { for (const key of Object.keys(state.globals)) delete state.globals[key]; },
          has: function (key) { return this.get(key) !== undefined; },
          toObject: function () { return Object.assign({}, beneath || input.environment, state.globals); },
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
      // Collection variables are the file's; a name the file lacks may be one the import moved to $shared.
      const fileVariables = input.fileVariables || {};
      const collectionValue = function (key) {
        const value = own(fileVariables, key);
        return value !== undefined ? value : own(input.environment, key);
      };
      const row = input.iterationData || {};
      const variableValue = function (key) {
        const local = own(state.variables, key);
        if (local !== undefined) return local;
        const data = own(row, key);
        if (data !== undefined) return data;
        const environment = own(input.environment, key);
        return environment !== undefined ? environment : own(fileVariables, key);
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
        one: function (key) { const i = headerIndex(key); return i < 0 ? undefined : this.all()[i]; },
        each: function (fn) { this.all().forEach(function (h) { fn(h); }); },
        map: function (fn) { return this.all().map(function (h) { return fn(h); }); },
        filter: function (fn) { return this.all().filter(function (h) { return fn(h); }); },
        count: function () { return state.headers.length; },
        toJSON: function () { return this.all(); },
      }, "pm.request.headers");
      // pm.request is made the first time it is read: what a script changed in it goes back when it is done.
      function requestObject() {
        const changes = __courierPostmanRequest(input, state, strict, requestHeaders, function (template) {
          return pm.variables.replaceIn(template);
        });
        state.finishers.push(changes.finish);
        return changes.request;
      }
      const pm = {
        environment: scope("environment", environmentValue),
        collectionVariables: scope("collectionVariables", collectionValue,
                                   Object.assign({}, input.environment, fileVariables)),
        globals: scope("globals", environmentValue),
        variables: scope("variables", variableValue, Object.assign({}, fileVariables, input.environment, row)),
        iterationData: iterationData,
        info: strict({ requestName: req.name || "", requestId: dynamic("$guid") || "",
                       iteration: input.iteration || 0, iterationCount: input.iterationCount || 1,
                       eventName: input.phase === "pre" ? "prerequest" : "test" }, "pm.info"),
        execution: strict({
          setNextRequest: function (name) {
            state.nextRequest = name === null || name === undefined ? { stop: true } : { name: String(name) };
          },
          // The request is not sent and is reported as skipped; in a test script it changes nothing.
          skipRequest: function () { if (input.phase === "pre") state.cancelled = true; },
          location: Object.assign(String(req.name || "").split(" / "), { current: req.name || "" }),
        }, "pm.execution"),
        // Courier has no view to render a template in: the call is accepted, shows nothing, and says so once.
        visualizer: strict({
          set: function () {
            if (!state.visualizerNoted) state.logs.push("note: pm.visualizer.set shows nothing in Courier");
            state.visualizerNoted = true;
          },
          clear: function () {},
        }, "pm.visualizer"),
        require: function (name) {
          throw new UnsupportedError("pm.require('" + name + "') (packages of a Postman team's library)");
        },
        test: function (name, body) { runTest(name, body); return globalThis.pm; },
        expect: chai.expect,
      };
      pm.test.skip = function () {};
      pm.environment.name = input.environmentName || "";
      // Postman's precedence: local, then the iteration's data, then what scripts set in the other scopes, then
      // the environment, then the collection's (the file's) variables.
      pm.variables.get = function (key) {
        const local = own(state.variables, key);
        if (local !== undefined) return local;
        const data = own(row, key);
        if (data !== undefined) return data;
        const set = own(state.globals, key);
        return set !== undefined ? set : variableValue(key);
      };
      pm.variables.set = function (key, value) { state.variables[String(key)] = text(value); };
      pm.variables.unset = function (key) { delete state.variables[String(key)]; };
      // What pm.response.json() throws on a body that is not JSON, worded as Postman's: where it went wrong
      // when the first character already does.
      function jsonError(body, cause) {
        const error = new Error();
        error.name = "JSONError";
        const at = body.search(/\S/);
        if (at < 0) {
          error.message = "JSONError: No data, empty input at 1:1";
        } else if ("{[\"-0123456789tfn".indexOf(body.charAt(at)) < 0) {
          const before = body.slice(0, at).split("\n");
          error.message = "JSONError: Unexpected token '" + body.charAt(at) + "' at " + before.length + ":"
            + (before[before.length - 1].length + 1);
        } else {
          error.message = "JSONError: " + cause.message;
        }
        return error;
      }
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
          one: function (key) { return this.all().find(function (h) { return h.key.toLowerCase() === String(key).toLowerCase(); }); },
          each: function (fn) { this.all().forEach(function (h) { fn(h); }); },
          map: function (fn) { return this.all().map(function (h) { return fn(h); }); },
          filter: function (fn) { return this.all().filter(function (h) { return fn(h); }); },
          find: function (fn) { return this.all().find(function (h) { return fn(h); }); },
          count: function () { return res.headers.length; },
          idx: function (i) { return this.all()[i]; },
          toJSON: function () { return this.all(); },
        }, label + ".headers");
        const response = {
          code: res.status,
          status: reason(res.status),
          responseTime: res.milliseconds,
          responseSize: res.body.length,
          headers: headers,
          json: function () {
            try { return JSON.parse(res.body); } catch (e) { throw jsonError(res.body, e); }
          },
          text: function () { return res.body; },
          reason: function () { return reason(res.status); },
          details: function () { return { code: res.status, name: reason(res.status), detail: "" }; },
          size: function () {
            const head = res.headers.reduce(function (n, h) { return n + h.name.length + h.value.length + 4; }, 0);
            return { body: res.body.length, header: head, total: res.body.length + head };
          },
        };
        response.to = strict({
          get have() { return expect(response, undefined, label + ".to.have"); },
          get be() { return expect(response, undefined, label + ".to.be"); },
          get not() { return expect(response, undefined, label + ".to").not; },
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
      __courierLazyProperty(pm, "request", true, requestObject);
      __courierLazyProperty(pm, "cookies", true, function () {
        return __courierPostmanCookies(input, strict, UnsupportedError, function (fn) { sent.push(fn); });
      });
      return { pm: strict(pm, "pm"), raw: pm };
    }
    """#
}
