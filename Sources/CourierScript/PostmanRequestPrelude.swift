/// The JavaScript behind `pm.request` as a pre-request script changes it: its URL (`url.addQueryParams`,
/// `url.query.add/upsert/remove`, `url.path`, `url.update`, or `pm.request.url = "…"`), its method and its
/// body (`body.raw = …`, `body.update(…)`) are read back when the script ends and go to the server, with
/// `{{variables}}` in what the script wrote filled in as Postman fills them in after the script.
enum PostmanRequestPrelude {
    static let code = #"""
    function __courierPostmanRequest(input, state, strict, headers, replaceIn) {
      "use strict";
      const req = input.request;
      function text(value) {
        if (value === undefined || value === null) return "";
        return typeof value === "object" ? JSON.stringify(value) : String(value);
      }
      // A Postman PropertyList of {key, value} items: the URL's query.
      function propertyList(items, label) {
        function index(key) {
          return items.findIndex(function (item) { return item.key === String(key); });
        }
        function item(entry, value) {
          if (typeof entry === "string" && value === undefined) {
            const equals = entry.indexOf("=");
            return equals < 0 ? { key: entry, value: null }
                              : { key: entry.slice(0, equals), value: entry.slice(equals + 1) };
          }
          if (typeof entry === "string") return { key: entry, value: text(value) };
          const made = { key: String(entry.key), value: entry.value === null ? null : text(entry.value),
                         disabled: !!entry.disabled };
          // A form-data field's kind, file name and type (pm.request.body.formdata).
          for (const extra of ["type", "src", "contentType"]) if (entry[extra] !== undefined) made[extra] = entry[extra];
          return made;
        }
        const list = {
          add: function (entry, value) { items.push(item(entry, value)); },
          upsert: function (entry, value) {
            const added = item(entry, value), i = index(added.key);
            if (i < 0) items.push(added); else items[i] = added;
          },
          remove: function (what) {
            const keep = typeof what === "function" ? function (it) { return !what(it); }
              : function (it) { return it.key !== String(what && what.key !== undefined ? what.key : what); };
            const left = items.filter(keep);
            items.length = 0;
            Array.prototype.push.apply(items, left);
          },
          clear: function () { items.length = 0; },
          get: function (key) { const i = index(key); return i < 0 ? undefined : items[i].value; },
          one: function (key) { const i = index(key); return i < 0 ? undefined : items[i]; },
          has: function (key) { return index(key) >= 0; },
          idx: function (i) { return items[i]; },
          count: function () { return items.length; },
          all: function () { return items.slice(); },
          each: function (fn) { items.forEach(function (it) { fn(it); }); },
          map: function (fn) { return items.map(function (it) { return fn(it); }); },
          filter: function (fn) { return items.filter(function (it) { return fn(it); }); },
          find: function (fn) { return items.find(function (it) { return fn(it); }); },
          toObject: function () {
            const out = {};
            for (const it of items) if (!it.disabled) out[it.key] = it.value;
            return out;
          },
          toJSON: function () { return items.slice(); },
          toString: function () {
            return items.filter(function (it) { return !it.disabled; }).map(function (it) {
              return it.value === null || it.value === undefined ? it.key : it.key + "=" + it.value;
            }).join("&");
          },
        };
        Object.defineProperty(list, "members", { get: function () { return items; } });
        return strict(list, label);
      }

      // MARK: pm.request.url, parsed from the URL about to be sent.
      const parts = { protocol: "", auth: "", host: [], port: "", path: [], query: [], hash: "" };
      function parse(url) {
        const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):\/\/)?(?:([^@/?#]*)@)?([^/?#:]*)(?::([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/
          .exec(String(url));
        if (!m) return false;
        parts.protocol = m[1] || "";
        parts.auth = m[2] || "";
        parts.host = m[3] ? m[3].split(".") : [];
        parts.port = m[4] || "";
        parts.path = m[5] ? m[5].replace(/^\//, "").split("/") : [];
        parts.query.length = 0;
        if (m[6]) for (const pair of m[6].split("&")) if (pair !== "") url$.query.add(pair);
        parts.hash = m[7] || "";
        return true;
      }
      function hostText() { return parts.host.join("."); }
      function pathText() { return parts.path.length === 0 ? "/" : "/" + parts.path.join("/"); }
      function queryText() { return url$.query.toString(); }
      const url$ = {
        get protocol() { return parts.protocol; }, set protocol(v) { parts.protocol = String(v); },
        get host() { return parts.host; },
        set host(v) { parts.host = Array.isArray(v) ? v.map(String) : String(v).split("."); },
        get port() { return parts.port; }, set port(v) { parts.port = v === undefined || v === null ? "" : String(v); },
        get path() { return parts.path; },
        set path(v) { parts.path = Array.isArray(v) ? v.map(String) : String(v).replace(/^\//, "").split("/"); },
        get hash() { return parts.hash; }, set hash(v) { parts.hash = String(v); },
        getHost: function () { return hostText(); },
        getPath: function () { return pathText(); },
        getQueryString: function () { return queryText(); },
        getPathWithQuery: function () { const q = queryText(); return pathText() + (q ? "?" + q : ""); },
        getRemote: function () { return hostText() + (parts.port ? ":" + parts.port : ""); },
        getRaw: function () { return req.rawURL; },
        addQueryParams: function (params) {
          const list = typeof params === "string" ? params.split("&") : Array.isArray(params) ? params : [params];
          for (const p of list) if (p !== "") url$.query.add(p);
        },
        removeQueryParams: function (params) {
          const list = Array.isArray(params) ? params : [params];
          for (const p of list) url$.query.remove(typeof p === "string" ? p : p.key);
        },
        update: function (url) { parse(typeof url === "string" ? url : String(url)); },
        toString: function () {
          const q = queryText();
          return (parts.protocol ? parts.protocol + "://" : "") + (parts.auth ? parts.auth + "@" : "") + hostText()
            + (parts.port ? ":" + parts.port : "") + (parts.path.length ? "/" + parts.path.join("/") : "")
            + (q ? "?" + q : "") + (parts.hash ? "#" + parts.hash : "");
        },
        toJSON: function () { return this.toString(); },
      };
      url$.query = propertyList(parts.query, "pm.request.url.query");
      Object.defineProperty(url$, "raw", { get: function () { return url$.toString(); } });
      // Before the request is sent, Postman's URL is the one written, its `{{variables}}` not yet filled in;
      // in a test script it is the URL that was sent.
      parse(input.phase === "pre" || req.url === undefined ? req.rawURL : req.url);
      const originalURL = url$.toString();
      const url = strict(url$, "pm.request.url");

      // MARK: pm.request.body: its raw text, replaced as a whole; a form's fields as a list.
      const originalBody = req.body === undefined ? "" : req.body;
      let bodyText = originalBody;
      function isForm() { return /^application\/x-www-form-urlencoded/i.test(headers.get("Content-Type") || ""); }
      function formDecode(part) { return decodeURIComponent(part.replace(/\+/g, " ")); }
      function formText(items) {
        return items.filter(function (it) { return !it.disabled; }).map(function (it) {
          return encodeURIComponent(it.key) + "=" + encodeURIComponent(it.value === null ? "" : it.value);
        }).join("&");
      }
      // The form's fields, read from the body when first asked for; what the script changes is encoded back.
      let form = null;
      function fields() {
        if (form !== null) return form.list;
        const items = [];
        for (const pair of bodyText.split("&")) {
          if (pair === "") continue;
          const equals = pair.indexOf("=");
          items.push(equals < 0 ? { key: formDecode(pair), value: "" }
                                : { key: formDecode(pair.slice(0, equals)), value: formDecode(pair.slice(equals + 1)) });
        }
        form = { items: items, list: propertyList(items, "pm.request.body.urlencoded"), read: formText(items) };
        return form.list;
      }
      // A multipart body's parts as Postman's form-data fields ({key, value, type, src, contentType}), read
      // when first asked for; what the script changes is encoded back with the same boundary.
      function boundary() {
        const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(headers.get("Content-Type") || "");
        return m ? (m[1] || m[2]) : null;
      }
      function multipartText(items, mark) {
        return items.filter(function (it) { return !it.disabled; }).map(function (it) {
          const file = it.type === "file" ? '; filename="' + String(it.src || it.key).split("/").pop() + '"' : "";
          return "--" + mark + "\r\n" + 'Content-Disposition: form-data; name="' + it.key + '"' + file + "\r\n"
            + (it.contentType ? "Content-Type: " + it.contentType + "\r\n" : "") + "\r\n"
            + (it.value === null || it.value === undefined ? "" : it.value) + "\r\n";
        }).join("") + "--" + mark + "--\r\n";
      }
      let multipart = null;
      function formParts() {
        if (multipart !== null) return multipart.list;
        const mark = boundary(), items = [];
        for (const chunk of mark ? bodyText.split("--" + mark).slice(1) : []) {
          if (chunk.indexOf("--") === 0) break;
          const part = chunk.replace(/^\r?\n/, "").replace(/\r?\n$/, "");
          const split = part.search(/\r?\n\r?\n/);
          if (split < 0) continue;
          const head = part.slice(0, split), value = part.slice(split).replace(/^\r?\n\r?\n/, "");
          const name = /name="([^"]*)"/i.exec(head), file = /filename="([^"]*)"/i.exec(head);
          const type = /^content-type:[ \t]*(.+)$/im.exec(head);
          const item = { key: name ? name[1] : "", value: value, type: file ? "file" : "text" };
          if (file) item.src = file[1];
          if (type) item.contentType = type[1].trim();
          items.push(item);
        }
        multipart = { items: items, mark: mark, list: propertyList(items, "pm.request.body.formdata"),
                      read: mark ? multipartText(items, mark) : "" };
        return multipart.list;
      }
      // A GraphQL body (JSON with a `query`) as Postman's {query, variables}.
      function graphql() {
        try {
          const parsed = JSON.parse(bodyText);
          if (parsed && typeof parsed.query === "string") {
            return { query: parsed.query, variables: parsed.variables === undefined ? undefined
                     : typeof parsed.variables === "string" ? parsed.variables : JSON.stringify(parsed.variables) };
          }
        } catch (e) { /* not JSON: no GraphQL */ }
        return undefined;
      }
      function isMultipart() { return /^multipart\/form-data/i.test(headers.get("Content-Type") || ""); }
      const body = strict({
        get mode() { return isForm() ? "urlencoded" : isMultipart() ? "formdata" : "raw"; },
        get urlencoded() { return fields(); },
        get formdata() { return formParts(); },
        get graphql() { return graphql(); },
        get raw() { return bodyText; }, set raw(v) { bodyText = text(v); form = null; multipart = null; },
        update: function (value) {
          form = null;
          multipart = null;
          if (typeof value === "string") { bodyText = value; return; }
          if (value && value.mode === "urlencoded") {
            bodyText = (value.urlencoded || []).filter(function (p) { return !p.disabled; }).map(function (p) {
              return encodeURIComponent(p.key) + "=" + encodeURIComponent(text(p.value));
            }).join("&");
            return;
          }
          if (value && value.mode === "formdata" && boundary()) {
            bodyText = multipartText((value.formdata || []).map(function (p) { return Object.assign({}, p); }), boundary());
            return;
          }
          if (value && value.mode === "graphql") { bodyText = JSON.stringify(value.graphql || {}); return; }
          bodyText = value && value.raw !== undefined ? text(value.raw) : text(value);
        },
        isEmpty: function () { return bodyText === ""; },
        toString: function () { return bodyText; },
        toJSON: function () { return { mode: "raw", raw: bodyText }; },
      }, "pm.request.body");

      let method = req.method;
      const request = {
        get method() { return method; }, set method(v) { method = String(v).toUpperCase(); },
        get url() { return url; },
        set url(v) { parse(typeof v === "string" ? v : String(v)); },
        headers: headers,
        get body() { return body; },
        set body(v) { body.update(v); },
        addHeader: function (entry, value) { headers.add(entry, value); },
        upsertHeader: function (entry, value) { headers.upsert(entry, value); },
        removeHeader: function (key) { headers.remove(key && key.key !== undefined ? key.key : key); },
        getHeaders: function () { return headers.toObject(); },
        toJSON: function () {
          return { method: method, url: url$.toString(), header: headers.all(), body: body.toJSON() };
        },
      };
      // What the script changed goes back as the URL, method and body to send: read by `finish`, which runs
      // after the script and the callbacks of its pm.sendRequest calls.
      function finish() {
        if (form !== null && formText(form.items) !== form.read) bodyText = formText(form.items);
        if (multipart !== null && multipart.mark && multipartText(multipart.items, multipart.mark) !== multipart.read) {
          bodyText = multipartText(multipart.items, multipart.mark);
        }
        const now = url$.toString();
        // Characters a URL cannot hold (a space a script or a variable brought in) are percent-encoded; the
        // escapes already there stay as they are.
        // A `{{name}}` the script's scopes do not hold (a request variable) stays for Courier to fill in.
        if (now !== originalURL) {
          state.url = replaceIn(now).split(/(\{\{[^{}]*\}\})/).map(function (piece) {
            return /^\{\{[^{}]*\}\}$/.test(piece) ? piece
              : piece.replace(/[^A-Za-z0-9\-._~:\/?#\[\]@!$&'()*+,;=%]/gu, function (c) { return encodeURIComponent(c); });
          }).join("");
        }
        if (method !== req.method) state.method = method;
        if (bodyText !== originalBody) state.body = replaceIn(bodyText);
      }
      return { request: strict(request, "pm.request"), finish: finish };
    }
    """#
}
