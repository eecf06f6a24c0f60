/// The JavaScript behind `pm.cookies`: the cookies the request sent (its `Cookie` header) and, in a test
/// script, those its response set (`Set-Cookie`, which win), by name. `pm.cookies.jar()` reaches the cookie jar
/// the run's requests use (`get`, `getAll`, `set`, `unset`, `clear`, each with a callback run after the script's
/// body, as `pm.sendRequest`'s is), through `__courierCookies` where Courier offers it.
enum PostmanCookiesPrelude {
    static let code = #"""
    function __courierPostmanCookies(input, strict, UnsupportedError, later) {
      "use strict";
      const cookies = [];
      function put(cookie) {
        const i = cookies.findIndex(function (c) { return c.name === cookie.name; });
        if (i < 0) cookies.push(cookie); else cookies[i] = cookie;
      }
      for (const h of input.request.headers) {
        if (h.name.toLowerCase() !== "cookie") continue;
        for (const pair of String(h.value).split(";")) {
          const equals = pair.indexOf("=");
          if (equals > 0) put({ name: pair.slice(0, equals).trim(), value: pair.slice(equals + 1).trim() });
        }
      }
      for (const h of input.response ? input.response.headers : []) {
        if (h.name.toLowerCase() !== "set-cookie") continue;
        const fields = String(h.value).split(";");
        const equals = fields[0].indexOf("=");
        if (equals <= 0) continue;
        const cookie = { name: fields[0].slice(0, equals).trim(), value: fields[0].slice(equals + 1).trim() };
        for (const field of fields.slice(1)) {
          const at = field.indexOf("=");
          const key = (at < 0 ? field : field.slice(0, at)).trim().toLowerCase();
          const value = at < 0 ? true : field.slice(at + 1).trim();
          if (key === "domain") cookie.domain = value;
          else if (key === "path") cookie.path = value;
          else if (key === "expires") cookie.expires = value;
          else if (key === "max-age") cookie.maxAge = Number(value);
          else if (key === "secure") cookie.secure = true;
          else if (key === "httponly") cookie.httpOnly = true;
        }
        put(cookie);
      }
      function find(name) { return cookies.find(function (c) { return c.name === String(name); }); }
      return strict({
        get: function (name) { const c = find(name); return c ? c.value : undefined; },
        has: function (name) { return find(name) !== undefined; },
        one: function (name) { return find(name); },
        all: function () { return cookies.slice(); },
        count: function () { return cookies.length; },
        each: function (fn) { cookies.forEach(function (c) { fn(c); }); },
        map: function (fn) { return cookies.map(function (c) { return fn(c); }); },
        filter: function (fn) { return cookies.filter(function (c) { return fn(c); }); },
        toObject: function () {
          const out = {};
          for (const c of cookies) out[c.name] = c.value;
          return out;
        },
        jar: function () {
          if (typeof __courierCookies !== "function") {
            throw new UnsupportedError("pm.cookies.jar() here (courier run offers it to requests that keep cookies)");
          }
          function call(op, url, extra, callback, pick) {
            const target = url && typeof url === "object" && typeof url.toString === "function" ? url.toString() : url;
            const answer = JSON.parse(__courierCookies(JSON.stringify(Object.assign({ op: op, url: String(target) }, extra))));
            const error = answer.error !== undefined ? new Error(answer.error) : null;
            if (typeof callback === "function") {
              later(function () { if (error) callback(error); else callback(null, pick(answer.cookies)); });
            }
          }
          return strict({
            get: function (url, name, callback) {
              call("get", url, { name: String(name) }, callback, function (found) {
                return found.length > 0 ? found[0].value : undefined;
              });
            },
            getAll: function (url, callback) { call("getAll", url, {}, callback, function (found) { return found; }); },
            set: function (url, name, value, callback) {
              const cookie = name !== null && typeof name === "object" ? name : { name: String(name), value: value };
              if (name !== null && typeof name === "object") callback = value;
              call("set", url, { cookie: cookie }, callback, function (found) { return found[0]; });
            },
            unset: function (url, name, callback) {
              call("unset", url, { name: String(name) }, callback, function () { return undefined; });
            },
            clear: function (url, callback) { call("clear", url, {}, callback, function () { return undefined; }); },
          }, "pm.cookies.jar()");
        },
      }, "pm.cookies");
    }
    """#
}
