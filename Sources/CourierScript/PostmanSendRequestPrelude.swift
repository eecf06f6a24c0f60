/// The JavaScript that turns what a script hands `pm.sendRequest` into the request Courier sends: a URL, or
/// Postman's request object (`url` as text or `{raw}`, `method`, `header` as a list of `{key, value}` or an
/// object, `body` in `raw`, `urlencoded`, `formdata` or `graphql` mode), disabled entries left out. Form data
/// is encoded here (multipart with a random boundary), so what crosses to Courier is text.
enum PostmanSendRequestPrelude {
    static let code = #"""
    function __courierOutgoing(request) {
      "use strict";
      function text(value) {
        if (value === undefined || value === null) return "";
        return typeof value === "object" ? JSON.stringify(value) : String(value);
      }
      function enabled(list) {
        return (Array.isArray(list) ? list : []).filter(function (entry) { return entry && !entry.disabled; });
      }
      function urlText(url) {
        if (typeof url === "string") return url;
        if (url && typeof url.raw === "string") return url.raw;
        if (url && typeof url.toString === "function" && url.toString !== Object.prototype.toString) {
          return url.toString();
        }
        throw new TypeError("pm.sendRequest: the request has no url");
      }
      if (typeof request === "string") return { method: "GET", url: request, headers: [] };
      if (!request || typeof request !== "object") throw new TypeError("pm.sendRequest takes a URL or a request");
      const headers = [];
      if (Array.isArray(request.header)) {
        for (const entry of enabled(request.header)) headers.push([String(entry.key), text(entry.value)]);
      } else if (request.header && typeof request.header === "object") {
        for (const name of Object.keys(request.header)) headers.push([name, text(request.header[name])]);
      }
      function has(name) {
        return headers.some(function (pair) { return pair[0].toLowerCase() === name.toLowerCase(); });
      }
      function typed(type) { if (!has("Content-Type")) headers.push(["Content-Type", type]); }
      const body = request.body;
      let encoded;
      if (body && typeof body === "object") {
        if (body.mode === "raw") {
          encoded = text(body.raw);
          const language = body.options && body.options.raw && body.options.raw.language;
          if (language === "json") typed("application/json");
        } else if (body.mode === "urlencoded") {
          encoded = enabled(body.urlencoded).map(function (entry) {
            return encodeURIComponent(String(entry.key)) + "=" + encodeURIComponent(text(entry.value));
          }).join("&");
          typed("application/x-www-form-urlencoded");
        } else if (body.mode === "formdata") {
          const boundary = "----CourierFormBoundary" + __courierRandomHex(12);
          encoded = enabled(body.formdata).map(function (entry) {
            if (entry.type === "file") throw new TypeError("pm.sendRequest: file fields in form data are not sent");
            return "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + String(entry.key) + "\"\r\n\r\n"
              + text(entry.value) + "\r\n";
          }).join("") + "--" + boundary + "--\r\n";
          typed("multipart/form-data; boundary=" + boundary);
        } else if (body.mode === "graphql") {
          const graphql = body.graphql || {};
          let variables = graphql.variables;
          if (typeof variables === "string") variables = variables.trim() ? JSON.parse(variables) : undefined;
          encoded = JSON.stringify({ query: graphql.query || "", variables: variables });
          typed("application/json");
        } else if (body.mode !== undefined) {
          throw new TypeError("pm.sendRequest: body mode '" + body.mode + "' is not sent by Courier");
        }
      } else if (typeof body === "string") {
        encoded = body;
      }
      const out = { method: String(request.method || "GET").toUpperCase(), url: urlText(request.url),
                    headers: headers };
      if (encoded !== undefined) out.body = encoded;
      return out;
    }
    """#
}
