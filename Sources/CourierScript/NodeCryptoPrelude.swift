/// The JavaScript behind `require('crypto')` in httpyac scripts: the part of Node's crypto module request files
/// use to sign requests, `createHash` and `createHmac` (`update(data[, encoding])`, `digest([encoding])` as
/// `hex`, `base64`, `base64url`, `latin1` or bytes), `randomUUID`, `randomBytes` and `randomInt`, over the
/// digests Courier computes (`__courierDigest`).
enum NodeCryptoPrelude {
    static let code = #"""
    function __courierNodeCrypto() {
      "use strict";
      const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
      function byteHex(b) { return ((b & 255) < 16 ? "0" : "") + (b & 255).toString(16); }
      function bytesHex(bytes) {
        let hex = "";
        for (let i = 0; i < bytes.length; i++) hex += byteHex(bytes[i]);
        return hex;
      }
      function hexBytes(hex) {
        const bytes = new Uint8Array(hex.length >> 1);
        for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.substr(i * 2, 2), 16);
        return bytes;
      }
      // The scripts' atob reads url-safe and unpadded base64 too, one character per byte.
      function base64Hex(text) {
        return Array.from(atob(String(text))).map(function (c) { return byteHex(c.charCodeAt(0)); }).join("");
      }
      function hexBase64(hex) {
        const bytes = hexBytes(hex);
        let out = "";
        for (let i = 0; i < bytes.length; i += 3) {
          const n = (bytes[i] << 16) | ((bytes[i + 1] || 0) << 8) | (bytes[i + 2] || 0);
          const left = bytes.length - i;
          out += alphabet[(n >> 18) & 63] + alphabet[(n >> 12) & 63]
            + (left > 1 ? alphabet[(n >> 6) & 63] : "=") + (left > 2 ? alphabet[n & 63] : "=");
        }
        return out;
      }
      // Data as Node takes it: a string in an encoding (UTF-8 unless said), or bytes.
      function dataHex(data, encoding) {
        if (typeof data !== "string") {
          if (data && typeof data.length === "number") return bytesHex(data);
          throw new TypeError("crypto: data must be a string or bytes");
        }
        switch (String(encoding || "utf8").toLowerCase()) {
          case "hex": return data.toLowerCase();
          case "base64": case "base64url": return base64Hex(data);
          case "latin1": case "binary": case "ascii":
            return data.split("").map(function (c) { return byteHex(c.charCodeAt(0)); }).join("");
          default:
            return bytesHex(unescape(encodeURIComponent(data)).split("").map(function (c) { return c.charCodeAt(0); }));
        }
      }
      function encoded(hex, encoding) {
        switch (encoding === undefined ? undefined : String(encoding).toLowerCase()) {
          case undefined: case "buffer": {
            const bytes = hexBytes(hex);
            bytes.toString = function (e) { return encoded(hex, e === undefined ? "utf8" : e); };
            return bytes;
          }
          case "hex": return hex;
          case "base64": return hexBase64(hex);
          case "base64url": return hexBase64(hex).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
          case "latin1": case "binary":
            return Array.from(hexBytes(hex)).map(function (b) { return String.fromCharCode(b); }).join("");
          default: {
            const raw = Array.from(hexBytes(hex)).map(function (b) { return String.fromCharCode(b); }).join("");
            try { return decodeURIComponent(escape(raw)); } catch (ignored) { return raw; }
          }
        }
      }
      function hasher(algorithm, keyHex) {
        const name = String(algorithm).toLowerCase().replace(/^sha-/, "sha").replace(/^rsa-/, "");
        if (["md5", "sha1", "sha256", "sha384", "sha512"].indexOf(name) < 0) {
          const error = new Error("crypto: digest '" + algorithm + "' is not supported by Courier "
            + "(md5, sha1, sha256, sha384, sha512)");
          error.name = "Unsupported";
          throw error;
        }
        let data = "";
        let done = false;
        const hash = {
          update: function (value, encoding) { data += dataHex(value, encoding); return hash; },
          digest: function (encoding) {
            if (done) throw new Error("Digest already called");
            done = true;
            return encoded(__courierDigest(name, keyHex, data), encoding);
          },
        };
        return hash;
      }
      function random(count) { return hexBytes(__courierRandomHex(count)); }
      return {
        createHash: function (algorithm) { return hasher(algorithm, null); },
        createHmac: function (algorithm, key) { return hasher(algorithm, dataHex(key)); },
        randomBytes: function (count) {
          const hex = bytesHex(random(count));
          return encoded(hex);
        },
        randomUUID: function () {
          const b = random(16);
          b[6] = (b[6] & 15) | 64;
          b[8] = (b[8] & 63) | 128;
          const hex = bytesHex(b);
          return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-" + hex.substr(16, 4)
            + "-" + hex.substr(20);
        },
        randomInt: function (min, max) {
          if (max === undefined) { max = min; min = 0; }
          const b = random(6);
          let n = 0;
          for (let i = 0; i < 6; i++) n = n * 256 + b[i];
          return min + Math.floor(n / 281474976710656 * (max - min));
        },
        getHashes: function () { return ["md5", "sha1", "sha256", "sha384", "sha512"]; },
      };
    }
    """#
}
