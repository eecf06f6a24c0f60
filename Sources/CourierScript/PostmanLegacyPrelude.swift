/// The JavaScript behind Postman's legacy sandbox, which collections written before `pm` still use:
/// `tests["name"] = bool`, `responseBody`, `responseCode`, `responseHeaders`, `responseTime`, `environment`,
/// `globals`, `data`, `iteration`, the `postman` object, `xml2Json`, `CryptoJS` and `_` (loaded on first use).
/// `request` stays the JetBrains object, given the legacy members too: its `url` is a String object (so
/// `request.url.indexOf(…)` works) that still has `getRaw()`, its `headers` carry each header by name beside
/// `all()` and `findByName()`, and `request.data` is the body (form fields as an object).
enum PostmanLegacyPrelude {
    static let code = #"""
    function __courierPostmanLegacy(input, state, pmObject, requireModule, UnsupportedError) {
      "use strict";
      const scope = globalThis;
      function text(value) {
        if (value === undefined || value === null) return "";
        return typeof value === "object" ? JSON.stringify(value) : String(value);
      }
      function snapshot() { return Object.assign({}, input.environment, state.globals); }

      // MARK: tests["name"] = value: read once the script is done, in the order the names were set.
      const tests = {};
      scope.tests = tests;
      state.legacyTests = tests;

      scope.environment = snapshot();
      scope.globals = snapshot();
      scope.data = Object.assign({}, input.iterationData || {});
      scope.iteration = input.iteration || 0;

      // MARK: request, with the legacy members beside the JetBrains ones.
      const req = input.request;
      const request = scope.request;
      const url = new String(req.url);
      for (const key of ["getRaw", "tryGetSubstituted"]) {
        Object.defineProperty(url, key, { enumerable: false, value: request.url[key] });
      }
      request.url = url;
      request.name = req.name || "";
      request.id = req.name || "";
      request.description = "";
      for (const h of req.headers) {
        if (!(h.name in request.headers)) request.headers[h.name] = h.value;
      }
      request.data = (function () {
        const body = req.body === undefined ? "" : req.body;
        const type = (req.headers.find(function (h) { return h.name.toLowerCase() === "content-type"; }) || {}).value;
        if (!/x-www-form-urlencoded/i.test(type || "")) return body === "" ? {} : body;
        const fields = {};
        for (const pair of String(body).split("&")) {
          if (pair === "") continue;
          const equals = pair.indexOf("=");
          const decode = function (s) {
            try { return decodeURIComponent(s.replace(/\+/g, " ")); } catch (e) { return s; }
          };
          const key = decode(equals < 0 ? pair : pair.slice(0, equals));
          const value = equals < 0 ? "" : decode(pair.slice(equals + 1));
          if (Object.prototype.hasOwnProperty.call(fields, key)) {
            fields[key] = [].concat(fields[key], value);
          } else {
            fields[key] = value;
          }
        }
        return fields;
      })();

      // MARK: the response, as plain values.
      if (input.response) {
        const res = input.response;
        scope.responseBody = res.body;
        scope.responseTime = res.milliseconds;
        __courierLazyProperty(scope, "responseCode", true, function () {
          const reason = pmObject().response.status;
          return { code: res.status, name: reason, detail: reason };
        });
        const headers = {};
        for (const h of res.headers) headers[h.name] = h.value;
        scope.responseHeaders = headers;
        __courierLazyProperty(scope, "responseCookies", true, function () { return pmObject().cookies.all(); });
      }

      // MARK: the postman object.
      const postman = {
        setEnvironmentVariable: function (key, value) { state.globals[String(key)] = text(value); },
        getEnvironmentVariable: function (key) { return pmObject().environment.get(key); },
        clearEnvironmentVariable: function (key) { delete state.globals[String(key)]; },
        clearEnvironmentVariables: function () {
          for (const key of Object.keys(state.globals)) delete state.globals[key];
        },
        setGlobalVariable: function (key, value) { state.globals[String(key)] = text(value); },
        getGlobalVariable: function (key) { return pmObject().globals.get(key); },
        clearGlobalVariable: function (key) { delete state.globals[String(key)]; },
        clearGlobalVariables: function () {
          for (const key of Object.keys(state.globals)) delete state.globals[key];
        },
        setNextRequest: function (name) {
          state.nextRequest = name === null || name === undefined ? { stop: true } : { name: String(name) };
        },
      };
      if (input.response) {
        postman.getResponseHeader = function (name) { return pmObject().response.headers.get(name); };
        postman.getResponseCookie = function (name) { return pmObject().cookies.one(name); };
      }
      scope.postman = new Proxy(postman, {
        get: function (target, key) {
          if (typeof key !== "string" || key in target || key === "toJSON" || key === "then") return target[key];
          throw new UnsupportedError("postman." + key);
        },
      });

      // MARK: libraries the legacy sandbox had as globals, loaded only when a script touches them.
      __courierLazyProperty(scope, "CryptoJS", false, function () { return requireModule("crypto-js"); });
      __courierLazyProperty(scope, "_", false, function () { return requireModule("lodash"); });
      __courierLazyProperty(scope, "cheerio", false, function () { return requireModule("cheerio"); });
      __courierLazyProperty(scope, "tv4", false, function () { return requireModule("tv4"); });
      scope.xml2Json = function (xml) {
        let result = {};
        requireModule("xml2js").parseString(String(xml),
          { explicitArray: false, async: false, trim: true, mergeAttrs: false },
          function (error, parsed) { if (error) throw error; result = parsed; });
        return result;
      };
      if (!String.prototype.has) {
        Object.defineProperty(String.prototype, "has", { configurable: true, writable: true,
          value: function (part) { return this.indexOf(part) >= 0; } });
      }
    }

    // Called when the script is done: each tests["name"] becomes a test, failed when its value is falsy.
    function __courierPostmanLegacyFinish(state) {
      const tests = state.legacyTests;
      if (!tests) return;
      for (const name of Object.keys(tests)) {
        const passed = Boolean(tests[name]);
        state.tests.push({ name: name, passed: passed,
                           message: passed ? "" : "expected " + String(tests[name]) + " to be truthy" });
      }
    }
    """#
}
