/// The JavaScript behind `require`: a small CommonJS loader over the module files `ScriptModules` lets
/// scripts read. A script may require the names on `ScriptModules.modules`; the libraries themselves may
/// require their own files and the packages they depend on (`node_modules` folders, then the module folders),
/// as Node resolves them. Nothing is read until a script asks, and each module is evaluated once per script.
enum RequirePrelude {
    static let code = #"""
    function __courierMakeRequire(table, builtIns) {
      "use strict";
      function unsupported(message) {
        const error = new Error(message);
        error.name = "Unsupported";
        return error;
      }
      const cache = {};
      // Node's built-in names as the libraries use them, answered by packages or by Courier.
      const nodeNames = { string_decoder: "string_decoder", "string-decoder": "string_decoder",
                          stream: "readable-stream", crypto: "crypto" };
      function normalize(path) {
        const out = [];
        for (const part of path.split("/")) {
          if (part === "" || part === ".") continue;
          if (part === "..") out.pop(); else out.push(part);
        }
        return "/" + out.join("/");
      }
      function dirname(path) { return path.slice(0, path.lastIndexOf("/")) || "/"; }
      function read(path) { const text = __courierReadModule(path); return text === null ? undefined : text; }
      function asFile(path) {
        for (const candidate of [path, path + ".js", path + ".json"]) {
          if (read(candidate) !== undefined) return candidate;
        }
        return undefined;
      }
      function asFolder(path) {
        const manifest = read(path + "/package.json");
        if (manifest !== undefined) {
          let main;
          try { main = JSON.parse(manifest).main; } catch (ignored) {}
          if (typeof main === "string") {
            const found = asFile(normalize(path + "/" + main)) || asFile(normalize(path + "/" + main) + "/index");
            if (found) return found;
          }
        }
        return asFile(path + "/index");
      }
      function resolve(request, from) {
        if (/^(\.\.?\/|\/)/.test(request) || request === "." || request === "..") {
          const path = normalize(request[0] === "/" ? request : from + "/" + request);
          return asFile(path) || asFolder(path);
        }
        const folders = [];
        for (let dir = from; dir !== "/" && dir !== ""; dir = dirname(dir)) {
          if (!/\/node_modules$/.test(dir)) folders.push(dir + "/node_modules");
        }
        for (const folder of folders.concat(table.folders)) {
          const path = normalize(folder + "/" + request);
          const found = asFile(path) || asFolder(path);
          if (found) return found;
        }
        return undefined;
      }
      const processStub = { env: {}, argv: [], version: "", versions: {}, platform: "linux", browser: true,
                            cwd: function () { return "/"; },
                            nextTick: function (fn) { fn.apply(null, Array.prototype.slice.call(arguments, 1)); } };
      function load(path) {
        if (cache[path]) return cache[path].exports;
        const source = read(path);
        const module = { exports: {}, id: path, filename: path, loaded: false };
        cache[path] = module;
        if (/\.json$/.test(path)) {
          module.exports = JSON.parse(source);
        } else {
          const wrapped = (0, eval)("(function (exports, require, module, __filename, __dirname, process, global) {"
                                    + source + "\n})\n//# sourceURL=" + path);
          wrapped.call(module.exports, module.exports, requireFrom(dirname(path)), module, path, dirname(path),
                       processStub, globalThis);
        }
        module.loaded = true;
        return module.exports;
      }
      function requireFrom(from) {
        return function (request) {
          const name = String(request).replace(/^node:/, "");
          const builtIn = nodeNames[name] === "crypto" ? "crypto" : name;
          if (builtIns[builtIn] && !/^[./]/.test(name)) return builtIns[builtIn]();
          const path = resolve(nodeNames[name] || name, from);
          if (path === undefined) throw new Error("Cannot find module '" + name + "' from " + from);
          return load(path);
        };
      }
      const inPackages = requireFrom("/");
      function available() {
        return Object.keys(table.modules).filter(function (n) { return !table.modules[n].unavailable; }).sort();
      }
      // What a script's require answers: only the names on the list.
      return function require(request) {
        const name = String(request);
        const entry = table.modules[name] || table.modules[nodeNames[name]] ||
                      table.modules[name.replace(/^node:/, "")];
        if (!entry) {
          throw unsupported("require('" + name + "') is not supported by Courier; the modules scripts may "
                            + "require are " + available().join(", "));
        }
        if (entry.unavailable) {
          throw unsupported("require('" + name + "') is not supported by Courier: " + entry.unavailable);
        }
        if (entry.builtIn) return builtIns[name](inPackages);
        if (resolve(nodeNames[name] || name, "/") === undefined) {
          throw new Error("require('" + name + "'): the module is not installed; install Debian's "
                          + entry.package + " (apt-get install " + entry.package + ")");
        }
        const exports = inPackages(name);
        return exports;
      };
    }

    // The modules Courier writes itself: a few lines each, or (crypto-js) what Debian does not package.
    function __courierBuiltIns() {
      "use strict";
      function hexBytes(hex) {
        const bytes = [];
        for (let i = 0; i < hex.length; i += 2) bytes.push(parseInt(hex.substr(i, 2), 16));
        return bytes;
      }
      return {
        atob: function () { return globalThis.atob; },
        btoa: function () { return globalThis.btoa; },
        "crypto-js": function () { return __courierCryptoJS(); },
        tv4: function (load) { return __courierTV4(load); },
        timers: function () { return __courierTimers.timers; },
        // What libraries ask of Node's crypto: random bytes (uuid) and digests (uuid v3/v5).
        crypto: function () {
          return {
            randomFillSync: function (array) {
              const bytes = hexBytes(__courierRandomHex(array.length));
              for (let i = 0; i < array.length; i++) array[i] = bytes[i];
              return array;
            },
            randomBytes: function (count) { return new Uint8Array(hexBytes(__courierRandomHex(count))); },
            createHash: function (algorithm) {
              let hex = "";
              const hash = {
                update: function (data) {
                  if (typeof data === "string") data = unescape(encodeURIComponent(data)).split("")
                    .map(function (c) { return c.charCodeAt(0); });
                  for (const b of data) hex += (b < 16 ? "0" : "") + (b & 255).toString(16);
                  return hash;
                },
                digest: function () {
                  return new Uint8Array(hexBytes(__courierDigest(String(algorithm).toLowerCase(), null, hex) || ""));
                },
              };
              return hash;
            },
          };
        },
      };
    }
    """#
}
