/// How `pm.expect`'s messages show a value, as chai shows it: `{ a: 1, b: [ 'x' ] }`, and past 40 characters an
/// object by its keys (`{ Object (a, b, ...) }`) and an array by its length (`[ Array(3) ]`).
enum PostmanInspectPrelude {
    static let code = #"""
    function __courierChaiFormat(value) {
      "use strict";
      function inspect(value, depth) {
        if (typeof value === "string") return depth === 0 ? "'" + value + "'" : "'" + value.replace(/'/g, "\\'") + "'";
        if (value === undefined) return "undefined";
        if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
        if (typeof value === "function") return "[Function" + (value.name ? ": " + value.name : "") + "]";
        if (value instanceof RegExp) return String(value);
        if (value instanceof Date) return value.toISOString();
        if (typeof value !== "object") return String(value);
        if (Array.isArray(value)) {
          if (value.length === 0) return "[]";
          if (depth > 1) return "[Array]";
          return "[ " + value.map(function (v) { return inspect(v, depth + 1); }).join(", ") + " ]";
        }
        const keys = Object.keys(value);
        if (keys.length === 0) return "{}";
        if (depth > 1) return "[Object]";
        return "{ " + keys.map(function (k) {
          return (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k) ? k : "'" + k + "'") + ": " + inspect(value[k], depth + 1);
        }).join(", ") + " }";
      }
      let shown;
      try { shown = inspect(value, 0); } catch (e) { shown = String(value); }
      if (shown.length < 40 || value === null || typeof value !== "object") return shown;
      if (Array.isArray(value)) return "[ Array(" + value.length + ") ]";
      const keys = Object.keys(value);
      return "{ Object (" + keys.slice(0, 2).join(", ") + (keys.length > 2 ? ", ..." : "") + ") }";
    }
    """#
}
