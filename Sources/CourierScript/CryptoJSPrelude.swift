/// Courier's own `crypto-js` (Debian does not package it): the word arrays, the encoders and the hashes and
/// HMACs collections sign requests with, computed by libcrypto through `__courierDigest`. Ciphers (AES, DES,
/// Rabbit…), PBKDF2 and SHA-3 are not provided: using one says so.
enum CryptoJSPrelude {
    static let code = #"""
    function __courierCryptoJS() {
      "use strict";
      function unsupported(what) {
        const error = new Error("CryptoJS." + what + " is not supported by Courier");
        error.name = "Unsupported";
        return error;
      }
      function WordArray(words, sigBytes) {
        this.words = words || [];
        this.sigBytes = sigBytes !== undefined ? sigBytes : this.words.length * 4;
      }
      function bytesOf(array) {
        const bytes = [];
        for (let i = 0; i < array.sigBytes; i++) bytes.push((array.words[i >>> 2] >>> (24 - (i % 4) * 8)) & 255);
        return bytes;
      }
      function fromBytes(bytes) {
        const words = [];
        for (let i = 0; i < bytes.length; i++) words[i >>> 2] |= (bytes[i] & 255) << (24 - (i % 4) * 8);
        return new WordArray(words, bytes.length);
      }
      const Hex = {
        stringify: function (array) {
          return bytesOf(array).map(function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
        },
        parse: function (hex) {
          const bytes = [];
          for (let i = 0; i + 1 < hex.length; i += 2) bytes.push(parseInt(hex.substr(i, 2), 16));
          return fromBytes(bytes);
        },
      };
      const Latin1 = {
        stringify: function (array) {
          return bytesOf(array).map(function (b) { return String.fromCharCode(b); }).join("");
        },
        parse: function (text) {
          const bytes = [];
          for (let i = 0; i < text.length; i++) bytes.push(text.charCodeAt(i) & 255);
          return fromBytes(bytes);
        },
      };
      const Utf8 = {
        stringify: function (array) { return decodeURIComponent(escape(Latin1.stringify(array))); },
        parse: function (text) { return Latin1.parse(unescape(encodeURIComponent(String(text)))); },
      };
      const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
      const Base64 = {
        stringify: function (array) {
          const bytes = bytesOf(array);
          let out = "";
          for (let i = 0; i < bytes.length; i += 3) {
            const n = (bytes[i] << 16) | ((bytes[i + 1] || 0) << 8) | (bytes[i + 2] || 0);
            for (let j = 0; j < 4; j++) out += i + j * 0.75 < bytes.length ? alphabet[(n >>> (18 - 6 * j)) & 63] : "=";
          }
          return out;
        },
        parse: function (text) {
          const clean = String(text).replace(/-/g, "+").replace(/_/g, "/").replace(/[^A-Za-z0-9+/]/g, "");
          const bytes = [];
          let bits = 0, count = 0;
          for (const c of clean) {
            bits = ((bits << 6) | alphabet.indexOf(c)) & 0xffffff;
            count += 6;
            if (count >= 8) { count -= 8; bytes.push((bits >>> count) & 255); }
          }
          return fromBytes(bytes);
        },
      };
      const Base64url = {
        stringify: function (array) {
          return Base64.stringify(array).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
        },
        parse: Base64.parse,
      };
      WordArray.prototype.toString = function (encoder) { return (encoder || Hex).stringify(this); };
      WordArray.prototype.concat = function (other) {
        const joined = fromBytes(bytesOf(this).concat(bytesOf(other)));
        this.words = joined.words;
        this.sigBytes = joined.sigBytes;
        return this;
      };
      WordArray.prototype.clone = function () { return fromBytes(bytesOf(this)); };
      WordArray.prototype.clamp = function () { const c = fromBytes(bytesOf(this)); this.words = c.words; };
      function words(message) { return typeof message === "string" ? Utf8.parse(message) : message; }
      function digest(algorithm, keyHex, dataHex) {
        const hex = __courierDigest(algorithm, keyHex, dataHex);
        if (hex === null) throw unsupported(algorithm.toUpperCase());
        return Hex.parse(hex);
      }
      // Progressive hashing (`CryptoJS.algo.SHA256.create().update(a).update(b).finalize()`): the bytes are kept
      // and hashed once at the end.
      function hasher(algorithm, keyHex) {
        let data = "";
        const object = {
          update: function (message) { data += Hex.stringify(words(message)); return object; },
          finalize: function (message) {
            if (message !== undefined) object.update(message);
            return digest(algorithm, keyHex, data);
          },
          reset: function () { data = ""; return object; },
        };
        return object;
      }
      const CryptoJS = { lib: { WordArray: {
                           create: function (w, sig) {
                             if (w instanceof ArrayBuffer) w = new Uint8Array(w);
                             if (w && !Array.isArray(w) && w.BYTES_PER_ELEMENT === 1) {
                               return fromBytes(Array.prototype.slice.call(w));
                             }
                             return new WordArray(w, sig);
                           },
                           random: function (count) { return Hex.parse(__courierRandomHex(count)); } } },
                         enc: { Hex: Hex, Latin1: Latin1, Utf8: Utf8, Base64: Base64, Base64url: Base64url },
                         algo: { HMAC: { create: function (algo, key) { return algo.__hmac(key); } } } };
      const names = { MD5: "md5", SHA1: "sha1", SHA224: "sha224", SHA256: "sha256", SHA384: "sha384",
                      SHA512: "sha512" };
      for (const name of Object.keys(names)) {
        const algorithm = names[name];
        CryptoJS[name] = function (message) { return digest(algorithm, null, Hex.stringify(words(message))); };
        CryptoJS["Hmac" + name] = function (message, key) {
          return digest(algorithm, Hex.stringify(words(key)), Hex.stringify(words(message)));
        };
        CryptoJS.algo[name] = { create: function () { return hasher(algorithm, null); },
                                __hmac: function (key) { return hasher(algorithm, Hex.stringify(words(key))); } };
      }
      return new Proxy(CryptoJS, {
        get: function (target, key) {
          if (typeof key !== "string" || key in target || key === "toJSON" || key === "then") return target[key];
          throw unsupported(key);
        },
      });
    }
    """#
}
