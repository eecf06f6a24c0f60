/// The JavaScript behind `pm.expect`: chai's BDD chains as collections write them (flags `not`, `deep`, `own`,
/// `nested`, `any`, `all`, `include` and `length` before the word that asserts), and the words Postman's
/// sandbox adds for a response (`to.be.success`, `to.have.jsonBody`, `to.have.jsonSchema` …). A word chai
/// has and this lacks throws "pm.expect(…).word is not supported by Courier".
enum PostmanExpectPrelude {
    static let code = #"""
    function __courierPostmanExpect(strict, AssertionError, reason, requireModule) {
      "use strict";
      const format = __courierChaiFormat;
      function deepEqual(a, b) {
        if (a === b) return true;
        if (typeof a === "number" && typeof b === "number") return isNaN(a) && isNaN(b);
        if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
        if (Array.isArray(a) !== Array.isArray(b)) return false;
        if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
        const keysA = Object.keys(a), keysB = Object.keys(b);
        if (keysA.length !== keysB.length) return false;
        return keysA.every(function (k) {
          return Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]);
        });
      }
      // chai's type names: "array", "null", "date", "regexp" … and typeof's for the rest.
      function typeName(value) {
        if (value === null) return "null";
        if (value === undefined) return "undefined";
        if (typeof value === "object" || typeof value === "function") {
          const tag = Object.prototype.toString.call(value).slice(8, -1).toLowerCase();
          return tag === "object" || tag === "function" ? typeof value : tag;
        }
        return typeof value;
      }
      function isResponse(value) {
        return value !== null && typeof value === "object" && typeof value.code === "number"
          && typeof value.json === "function" && typeof value.text === "function";
      }
      // "a.b[0].c" → ["a", "b", "0", "c"], as chai's nested properties and lodash's paths spell them.
      function pathParts(path) {
        return String(path).replace(/\[(\w+)\]/g, ".$1").split(".").filter(function (p) { return p !== ""; });
      }
      function walk(object, path) {
        let value = object;
        for (const part of pathParts(path)) {
          if (value === null || value === undefined || typeof value !== "object" && typeof value !== "string"
              || !(part in Object(value))) return { found: false };
          value = value[part];
        }
        return { found: true, value: value };
      }

      function expect(actual, message, label) {
        const flags = { negated: false, deep: false, own: false, nested: false, any: false, all: false,
                        contains: false, length: false, ordered: false };
        const chain = {};
        let proxy;
        const prefix = message === undefined ? "" : String(message) + ": ";
        function check(ok, yes, no) {
          if (flags.negated ? ok : !ok) throw new AssertionError(prefix + (flags.negated ? no : yes));
          return proxy;
        }
        function says(verb, expected) {
          const tail = expected === undefined ? "" : " " + expected;
          return ["expected " + format(actual) + " to " + verb + tail,
                  "expected " + format(actual) + " to not " + verb + tail];
        }
        function assert(ok, verb, expected) { const m = says(verb, expected); return check(ok, m[0], m[1]); }
        // A word that asserts when called and, read without a call, sets a flag for the word after it.
        function chainable(flag, method) {
          return function () {
            if (flag) flags[flag] = true;
            return new Proxy(method, {
              get: function (target, key) { return proxy[key]; },
              apply: function (target, self, args) { return method.apply(null, args); },
            });
          };
        }
        for (const word of ["to", "be", "been", "is", "that", "which", "and", "has", "have", "with", "at", "of",
                            "same", "does", "still", "also", "but"]) {
          Object.defineProperty(chain, word, { get: function () { return proxy; } });
        }
        for (const flag of ["deep", "own", "nested", "any", "all", "ordered"]) {
          Object.defineProperty(chain, flag, { get: function () { flags[flag] = true; return proxy; } });
        }
        Object.defineProperty(chain, "not", { get: function () { flags.negated = !flags.negated; return proxy; } });

        const properties = {
          // On a response, Postman's `to.be.ok` means status 200; elsewhere chai's truthiness.
          ok: function () {
            if (isResponse(actual)) {
              const m = ["expected response to have status code 200 but got " + actual.code,
                         "expected response to not have status code 200"];
              return check(actual.code === 200, m[0], m[1]);
            }
            return assert(!!actual, "be truthy");
          },
          true: function () { return assert(actual === true, "be true"); },
          false: function () { return assert(actual === false, "be false"); },
          null: function () { return assert(actual === null, "be null"); },
          undefined: function () { return assert(actual === undefined, "be undefined"); },
          NaN: function () { return assert(typeof actual === "number" && isNaN(actual), "be NaN"); },
          finite: function () { return assert(typeof actual === "number" && isFinite(actual), "be a finite number"); },
          exist: function () { return assert(actual !== null && actual !== undefined, "exist"); },
          exists: function () { return assert(actual !== null && actual !== undefined, "exist"); },
          empty: function () {
            let ok;
            if (typeof actual === "string" || Array.isArray(actual)) ok = actual.length === 0;
            else if (actual instanceof Map || actual instanceof Set) ok = actual.size === 0;
            else ok = actual !== null && typeof actual === "object" && Object.keys(actual).length === 0;
            return assert(ok, "be empty");
          },
          extensible: function () { return assert(Object.isExtensible(Object(actual)), "be extensible"); },
          sealed: function () { return assert(Object.isSealed(Object(actual)), "be sealed"); },
          frozen: function () { return assert(Object.isFrozen(Object(actual)), "be frozen"); },
          // Postman's response words.
          json: function () {
            let error = null;
            try { actual.json(); } catch (e) { error = e.message; }
            const m = ["expected response body to be a valid json but got error " + error,
                       "expected response body not to be a valid json"];
            return check(isResponse(actual) && error === null, m[0], m[1]);
          },
          withBody: function () {
            const body = isResponse(actual) ? actual.text() : "";
            return check(typeof body === "string" && body.length > 0, "expected response to have content in body",
                         "expected response to not have content in body");
          },
          error: function () {
            const c = Math.floor(actual.code / 100);
            return check(c === 4 || c === 5, "expected response code to be 4XX or 5XX but found " + actual.code,
                         "expected response code to not be 4XX or 5XX");
          },
        };
        const classes = { info: 1, success: 2, redirection: 3, clientError: 4, serverError: 5 };
        for (const name of Object.keys(classes)) {
          properties[name] = function () {
            const c = isResponse(actual) ? Math.floor(actual.code / 100) : undefined;
            return check(c === classes[name], "expected response code to be " + classes[name] + "XX but found "
                         + (actual && actual.code), "expected response code to not be " + classes[name] + "XX");
          };
        }
        const named = { accepted: 202, withoutContent: 204, badRequest: 400, unauthorized: 401, unauthorised: 401,
                        forbidden: 403, notFound: 404, notAcceptable: 406, rateLimited: 429 };
        for (const name of Object.keys(named)) {
          properties[name] = function () {
            const got = actual && actual.code;
            return check(got === named[name], "expected response to have status code " + named[name]
                         + " but got " + got, "expected response to not have status code " + got);
          };
        }
        for (const name of Object.keys(properties)) {
          Object.defineProperty(chain, name, { get: properties[name] });
        }

        function equal(expected) {
          if (flags.deep) return assert(deepEqual(actual, expected), "deeply equal", format(expected));
          return assert(actual === expected, "equal", format(expected));
        }
        function eql(expected) { return assert(deepEqual(actual, expected), "deeply equal", format(expected)); }
        function include(expected) {
          let ok;
          if (typeof actual === "string") ok = actual.indexOf(String(expected)) >= 0;
          else if (Array.isArray(actual)) ok = actual.some(function (item) { return deepEqual(item, expected); });
          else if (actual instanceof Set) ok = actual.has(expected);
          else if (actual && typeof actual === "object" && expected && typeof expected === "object")
            ok = Object.keys(expected).every(function (k) { return k in actual && deepEqual(actual[k], expected[k]); });
          else ok = false;
          return assert(ok, "include", format(expected));
        }
        function typeCheck(type) {
          const wanted = String(type).toLowerCase();
          const article = /^[aeiou]/.test(wanted) ? "be an" : "be a";
          return assert(typeName(actual) === wanted, article, wanted);
        }
        // above, below, least, most and within: of the value, or of its length after `length`.
        function measured() {
          if (!flags.length) return actual;
          return actual instanceof Map || actual instanceof Set ? actual.size
            : actual === null || actual === undefined ? undefined : actual.length;
        }
        function compare(verb, test) {
          return function (n) {
            const value = measured();
            const subject = flags.length ? "have a length " : "be ";
            const m = ["expected " + format(actual) + " to " + subject + verb + " " + format(n)
                         + (flags.length ? " but got " + value : ""),
                       "expected " + format(actual) + " to not " + subject + verb + " " + format(n)];
            return check(test(value, n), m[0], m[1]);
          };
        }
        const above = compare("above", function (v, n) { return v > n; });
        const below = compare("below", function (v, n) { return v < n; });
        const least = compare("at least", function (v, n) { return v >= n; });
        const most = compare("at most", function (v, n) { return v <= n; });
        function lengthOf(n) {
          const value = actual === null || actual === undefined ? undefined
            : actual instanceof Map || actual instanceof Set ? actual.size : actual.length;
          const m = ["expected " + format(actual) + " to have a length of " + n + " but got " + value,
                     "expected " + format(actual) + " to not have a length of " + n];
          return check(value === n, m[0], m[1]);
        }
        function property(name, value) {
          const hasValue = arguments.length > 1;
          let found, got;
          if (flags.nested) {
            const at = walk(actual, name);
            found = at.found; got = at.value;
          } else {
            const object = actual === null || actual === undefined ? undefined : Object(actual);
            found = object !== undefined && (flags.own ? Object.prototype.hasOwnProperty.call(object, name)
                                                        : name in object);
            got = found ? object[name] : undefined;
          }
          const kind = (flags.nested ? "nested " : flags.own ? "own " : "") + "property " + format(name);
          if (!hasValue || !flags.negated) {
            const m = says("have " + kind);
            check(found, m[0], m[1]);
          }
          if (hasValue) {
            const same = flags.deep ? deepEqual(got, value) : got === value;
            const m = ["expected " + format(actual) + " to have " + kind + " of " + format(value) + ", but got "
                         + format(got),
                       "expected " + format(actual) + " to not have " + kind + " of " + format(value)];
            check(found && same, m[0], m[1]);
          }
          return flags.negated ? proxy : expect(got, message, label);
        }
        function keys() {
          let wanted = Array.isArray(arguments[0]) ? arguments[0]
            : arguments[0] !== null && typeof arguments[0] === "object" && arguments.length === 1
              ? Object.keys(arguments[0]) : Array.prototype.slice.call(arguments);
          wanted = wanted.map(String);
          const have = actual instanceof Map ? Array.from(actual.keys()).map(String)
            : actual !== null && typeof actual === "object" ? Object.keys(actual) : [];
          let ok;
          if (flags.any) ok = wanted.some(function (k) { return have.indexOf(k) >= 0; });
          else {
            ok = wanted.length > 0 && wanted.every(function (k) { return have.indexOf(k) >= 0; });
            if (!flags.contains) ok = ok && have.length === wanted.length;
          }
          // As chai words it: "have key 'a'", "have keys 'a', and 'b'", "contain any of keys 'a', or 'b'".
          const shown = wanted.map(format);
          const last = shown.pop();
          const list = shown.length === 0 ? last : shown.join(", ") + (flags.any ? ", or " : ", and ") + last;
          return assert(ok, (flags.contains ? "contain " : "have ") + (flags.any ? "any of " : "")
                        + (wanted.length > 1 ? "keys" : "key"), list);
        }
        function members(list) {
          const same = flags.deep ? deepEqual : function (a, b) { return a === b; };
          let ok = Array.isArray(actual) && Array.isArray(list);
          if (ok && flags.ordered) {
            ok = (flags.contains ? list.length <= actual.length : list.length === actual.length)
              && list.every(function (item, i) { return same(actual[i], item); });
          } else if (ok) {
            const left = actual.slice();
            ok = list.every(function (item) {
              const i = left.findIndex(function (candidate) { return same(candidate, item); });
              if (i < 0) return false;
              left.splice(i, 1);
              return true;
            }) && (flags.contains || left.length === 0);
          }
          return assert(ok, (flags.contains ? "be a superset of " : "have the same ")
                        + (flags.ordered ? "ordered " : "") + "members as", format(list));
        }
        function throws(kind, pattern) {
          let thrown = null, threw = false;
          try { actual(); } catch (e) { thrown = e; threw = true; }
          let ok = threw;
          if (ok && typeof kind === "function") ok = thrown instanceof kind;
          const text = thrown && thrown.message !== undefined ? String(thrown.message) : String(thrown);
          const wanted = typeof kind === "string" || kind instanceof RegExp ? kind : pattern;
          if (ok && typeof wanted === "string") ok = text.indexOf(wanted) >= 0;
          if (ok && wanted instanceof RegExp) ok = wanted.test(text);
          const m = ["expected " + format(actual) + " to throw" + (wanted === undefined ? "" : " " + format(wanted))
                       + (threw ? " but it threw " + format(text) : " but it did not"),
                     "expected " + format(actual) + " to not throw but it threw " + format(text)];
          return check(ok, m[0], m[1]);
        }
        // Postman's response words that take arguments.
        function status(code) {
          if (typeof code === "number") {
            const got = actual && actual.code;
            return check(got === code, "expected response to have status code " + code + " but got " + got,
                         "expected response to not have status code " + got);
          }
          const got = actual && typeof actual.reason === "function" ? actual.reason() : actual && actual.status;
          return check(got === code, "expected response to have status reason " + format(code) + " but got "
                       + format(got), "expected response to not have status reason " + format(got));
        }
        function body(expected) {
          const text = actual && typeof actual.text === "function" ? actual.text() : actual;
          if (arguments.length === 0) {
            return check(typeof text === "string" && text.length > 0, "expected response to have content in body",
                         "expected response to not have content in body");
          }
          if (expected instanceof RegExp) return assert(expected.test(text), "have a body matching", String(expected));
          if (expected !== null && typeof expected === "object") {
            let json;
            try { json = JSON.parse(text); } catch (e) { json = undefined; }
            return check(deepEqual(json, expected), "expected response body json to equal " + format(expected)
                         + " but got " + format(json), "expected response body json to not equal " + format(expected));
          }
          return check(text === expected, "expected response body to equal " + format(expected) + " but got "
                       + format(text), "expected response body to not equal " + format(expected));
        }
        function jsonBody(path, value) {
          let json, error = null;
          try { json = actual.json(); } catch (e) { error = e.message; }
          if (arguments.length === 0) {
            return check(error === null, "expected response body to be a valid json but got error " + error,
                         "expected response body not to be a valid json");
          }
          const at = walk(json, path);
          if (arguments.length < 2 || !flags.negated) {
            check(at.found, "expected " + format(json) + " in response to contain property " + format(path),
                  "expected " + format(json) + " in response to not contain property " + format(path));
          }
          if (arguments.length > 1) {
            check(at.found && deepEqual(at.value, value), "expected response body json at " + format(path)
                    + " to contain " + format(value) + " but got " + format(at.value),
                  "expected response body json at " + format(path) + " to not contain " + format(value));
          }
          return proxy;
        }
        function header(name, value) {
          const got = actual && actual.headers ? actual.headers.get(name) : undefined;
          const what = isResponse(actual) ? "response" : "request";
          if (arguments.length < 2 || !flags.negated) {
            check(got !== undefined, "expected " + what + " to have header with key '" + name + "'",
                  "expected " + what + " to not have header with key '" + name + "'");
          }
          if (arguments.length > 1) {
            check(got === value, "expected '" + name + "' " + what + " header to be " + format(value) + " but got "
                    + format(got), "expected '" + name + "' " + what + " header to not be " + format(got));
          }
          return proxy;
        }
        function jsonSchema(schema, options) {
          let json;
          try { json = actual.json(); } catch (e) { json = undefined; }
          const errors = schemaErrors(schema, json, options);
          return check(errors.length === 0, "expected data to satisfy schema but found following errors: \n"
                       + errors.join(", "), "expected data to not satisfy schema");
        }
        function responseTime(limit) {
          const got = actual && actual.responseTime;
          if (arguments.length === 0) return assert(typeof got === "number", "have a response time");
          return check(got === limit, "expected response to have a response time of " + limit + " but got " + got,
                       "expected response to not have a response time of " + limit);
        }
        function statusReason(wanted) { return status(String(wanted)); }
        function statusCode(code) { return status(Number(code)); }

        Object.assign(chain, {
          equal: equal, equals: equal, eq: equal,
          eql: eql, eqls: eql,
          a: typeCheck, an: typeCheck,
          above: above, gt: above, greaterThan: above,
          below: below, lt: below, lessThan: below,
          least: least, gte: least, greaterThanOrEqual: least,
          most: most, lte: most, lessThanOrEqual: most,
          within: function (low, high) {
            const value = measured();
            const m = says((flags.length ? "have a length within " : "be within ") + low + ".." + high);
            return check(value >= low && value <= high, m[0], m[1]);
          },
          oneOf: function (list) {
            const ok = list.some(function (item) { return flags.deep ? deepEqual(item, actual) : item === actual; });
            return assert(ok, "be one of", format(list));
          },
          match: function (pattern) { return assert(pattern.test(String(actual)), "match", String(pattern)); },
          matches: function (pattern) { return assert(pattern.test(String(actual)), "match", String(pattern)); },
          string: function (part) { return assert(String(actual).indexOf(part) >= 0, "contain", format(part)); },
          satisfy: function (test) { return assert(!!test(actual), "satisfy", format(test)); },
          satisfies: function (test) { return assert(!!test(actual), "satisfy", format(test)); },
          closeTo: function (n, delta) {
            return assert(Math.abs(actual - n) <= delta, "be close to", n + " +/- " + delta);
          },
          approximately: function (n, delta) {
            return assert(Math.abs(actual - n) <= delta, "be close to", n + " +/- " + delta);
          },
          instanceOf: function (type) { return assert(actual instanceof type, "be an instance of", type.name); },
          instanceof: function (type) { return assert(actual instanceof type, "be an instance of", type.name); },
          throw: throws, throws: throws, Throw: throws,
          property: property,
          ownProperty: function (name, value) {
            flags.own = true;
            return arguments.length > 1 ? property(name, value) : property(name);
          },
          haveOwnProperty: function (name, value) {
            flags.own = true;
            return arguments.length > 1 ? property(name, value) : property(name);
          },
          keys: keys, key: keys,
          members: members,
          status: status, statusCode: statusCode, statusReason: statusReason,
          body: body, jsonBody: jsonBody, header: header, jsonSchema: jsonSchema, responseTime: responseTime,
        });
        Object.defineProperty(chain, "include", { get: chainable("contains", include) });
        Object.defineProperty(chain, "includes", { get: chainable("contains", include) });
        Object.defineProperty(chain, "contain", { get: chainable("contains", include) });
        Object.defineProperty(chain, "contains", { get: chainable("contains", include) });
        Object.defineProperty(chain, "length", { get: chainable("length", lengthOf) });
        Object.defineProperty(chain, "lengthOf", { get: chainable("length", lengthOf) });
        proxy = strict(chain, label);
        return proxy;
      }

      // JSON Schema through Debian's ajv (as Postman's sandbox validates); `$schema` names a draft ajv may lack.
      function schemaErrors(schema, data, options) {
        let Ajv;
        try { Ajv = requireModule("ajv"); } catch (e) {
          throw new AssertionError("jsonSchema needs the ajv library: " + e.message);
        }
        const copy = Object.assign({}, schema);
        delete copy.$schema;
        const ajv = new Ajv(Object.assign({ allErrors: true, schemaId: "auto", logger: false }, options || {}));
        const validate = ajv.compile(copy);
        if (validate(data)) return [];
        return (validate.errors || []).map(function (e) {
          return (e.dataPath || e.instancePath || "data") + " " + e.message;
        });
      }

      const pmExpect = function (value, message) { return expect(value, message, "pm.expect(…)"); };
      pmExpect.fail = function (message) { throw new AssertionError(message || "expect.fail()"); };
      return { expect: pmExpect, chain: expect, schemaErrors: schemaErrors, deepEqual: deepEqual };
    }
    """#
}
