/// The memory bound a request script runs under, besides its time limit (`ScriptWatch`): how much binary data
/// (ArrayBuffers and typed arrays) it may allocate. JavaScriptCore has no such limit of its own (its heap
/// options only decide when to collect), and its strings and arrays stop at their own maximum lengths, but a
/// buffer is one allocation of any size, filled by native code that never checks the time limit.
///
/// The guard runs first in every fresh context, before the preludes and the user's code, and does two things
/// at once: it takes every function it will call (`Reflect.construct`, `Object.defineProperty`, …) and the
/// original constructors, and it puts in their place on the global object accessors that cannot be replaced
/// or removed. Wrapping the constructors (ArrayBuffer and the eleven typed arrays, and each method that copies
/// a buffer: `slice`, `map`, `transfer`, …) in ones that count the bytes first costs more than most scripts
/// take to run, so it is done the first time a script reads one of those names: the only way to reach the
/// originals or their prototypes. What it calls then is what was taken before any script ran, its property
/// descriptors have no prototype, and it loops by index, so nothing a script replaced in between
/// (`Array.prototype[Symbol.iterator]`, `Object.prototype.get`, …) runs inside it; if it fails part way the
/// names keep failing, and the originals stay in the guard's closure, reachable by no script. Sizes are
/// converted once, by the guard, so a `valueOf` cannot say one size to the count and another to the
/// allocation; array-likes are copied into a list the guard owns for the same reason.
enum ScriptLimits {
    /// Bytes of binary data one script may allocate in all, counted when allocated (freed buffers still count).
    static let binaryDataBytes = 256 << 20

    /// The guard's JavaScript, evaluated before anything else in a context.
    static let code = """
    (function (limit) {
      "use strict";
      const global = globalThis;
      const construct = Reflect.construct, apply = Reflect.apply, ownKeys = Reflect.ownKeys;
      const defineProperty = Object.defineProperty, getPrototypeOf = Object.getPrototypeOf;
      const setPrototypeOf = Object.setPrototypeOf, describe = Object.getOwnPropertyDescriptor;
      const toNumber = Number, trunc = Math.trunc, iterator = Symbol.iterator;
      const RangeErrorType = RangeError, TypeErrorType = TypeError;
      const names = ["ArrayBuffer", "Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
                     "Int32Array", "Uint32Array", "Float16Array", "Float32Array", "Float64Array", "BigInt64Array",
                     "BigUint64Array"];
      const originals = { __proto__: null };
      for (let index = 0; index < names.length; index++) {
        const value = global[names[index]];
        if (typeof value === "function") originals[names[index]] = value;
      }
      let guarded = null;
      for (let index = 0; index < names.length; index++) {
        const name = names[index];
        if (originals[name] === undefined) continue;
        defineProperty(global, name, { __proto__: null, enumerable: false, configurable: false, get: {
          [name]: function () {
            if (guarded === null) guarded = guardAll();
            return guarded[name];
          }
        }[name] });
      }
      // Nothing here may be reached by scripts: shared memory (off in the engine as well) and WebAssembly.
      if ("SharedArrayBuffer" in global) delete global.SharedArrayBuffer;
      if ("WebAssembly" in global) delete global.WebAssembly;

      function guardAll() {
        const result = { __proto__: null };
        const BufferType = originals.ArrayBuffer, TypedArray = getPrototypeOf(originals.Uint8Array);
        const bufferBytes = describe(BufferType.prototype, "byteLength").get;
        const bufferMaximum = describe(BufferType.prototype, "maxByteLength").get;
        const bufferResizable = describe(BufferType.prototype, "resizable").get;
        const viewLength = describe(TypedArray.prototype, "length").get;
        const viewBytes = describe(TypedArray.prototype, "byteLength").get;
        const viewBuffer = describe(TypedArray.prototype, "buffer").get;
        let used = 0;

        function charge(bytes) {
          const count = bytes > 0 ? bytes : 0;
          if (used + count > limit) {
            throw new RangeErrorType("request scripts may allocate at most " + limit / 1048576
              + " MB of binary data (ArrayBuffer and typed arrays)");
          }
          used += count;
        }
        // A size as the constructors read it (ToIndex), converted once; what they would reject is passed on.
        function size(value) {
          if (value === undefined) return 0;
          if (typeof value === "bigint" || typeof value === "symbol") return value;
          const number = trunc(toNumber(value));
          return number === number ? number : 0;
        }
        function isBuffer(value) {
          try { apply(bufferBytes, value, []); return true; } catch (error) { return false; }
        }
        function isTypedArray(value) {
          try { apply(viewLength, value, []); return true; } catch (error) { return false; }
        }
        // What copying a view's elements may allocate: its bytes, or its buffer's maximum when that can grow.
        function copyBytes(view) {
          const bytes = apply(viewBytes, view, []);
          const buffer = apply(viewBuffer, view, []);
          return apply(bufferResizable, buffer, []) ? apply(bufferMaximum, buffer, []) : bytes;
        }
        // An array-like or iterable copied into a list of the guard's own: no getter, setter or iterator of
        // the script's runs when the constructor reads it, so its length is the one counted. Each element is
        // counted with the eight bytes or more the copy itself takes.
        function list(source, bytesPerElement) {
          const items = { __proto__: null, length: 0 };
          const next = source[iterator];
          const cost = bytesPerElement + 8;
          if (next !== undefined && next !== null) {
            for (const item of { [iterator]: function () { return apply(next, source, []); } }) {
              charge(cost);
              items[items.length] = item;
              items.length += 1;
            }
            return items;
          }
          const length = size(source.length);
          const count = typeof length === "number" && length > 0 ? length : 0;
          charge(count * cost);
          for (let index = 0; index < count; index++) items[index] = source[index];
          items.length = count;
          return items;
        }
        // What an object holds itself: a function of a script's on a prototype further up is never taken.
        function own(object, key) {
          const descriptor = describe(object, key);
          if (descriptor === undefined) return undefined;
          setPrototypeOf(descriptor, null);
          return descriptor.value;
        }
        function copyStatics(from, to, skipped, alsoSkipped) {
          const keys = ownKeys(from);
          for (let index = 0; index < keys.length; index++) {
            const key = keys[index];
            if (key === "prototype" || key === skipped || key === alsoSkipped) continue;
            const descriptor = describe(from, key);
            setPrototypeOf(descriptor, null);
            defineProperty(to, key, descriptor);
          }
        }
        function seal(object, key, value) {
          defineProperty(object, key, { __proto__: null, value: value, writable: false, enumerable: false,
                                        configurable: false });
        }
        function install(name, Original, Guarded) {
          setPrototypeOf(Guarded, getPrototypeOf(Original));
          defineProperty(Guarded, "prototype", { __proto__: null, value: Original.prototype, writable: false });
          seal(Original.prototype, "constructor", Guarded);
          result[name] = Guarded;
        }
        function guardMethod(prototype, name, cost) {
          const original = own(prototype, name);
          if (typeof original !== "function") return;
          const guardedMethod = {
            [name]: function () { charge(cost(this, arguments)); return apply(original, this, arguments); }
          }[name];
          // Writable, as the original was: a library that gives its subclass's prototype its own method of that
          // name (node's Buffer polyfill sets Buffer.prototype.slice) would otherwise fail. A replacement can only
          // call guarded code: the original stays in this closure.
          defineProperty(prototype, name, { __proto__: null, value: guardedMethod, writable: true, enumerable: false,
                                            configurable: false });
        }

        // ArrayBuffer: a resizable one is counted at its maximum, which resize() may reach.
        const GuardedBuffer = function ArrayBuffer(length, options) {
          if (new.target === undefined) throw new TypeErrorType("calling ArrayBuffer constructor without new is invalid");
          const bytes = size(length);
          if (options === null || typeof options !== "object") {
            charge(bytes);
            return construct(BufferType, [bytes], new.target);
          }
          const maximum = options.maxByteLength === undefined ? undefined : size(options.maxByteLength);
          charge(maximum === undefined ? bytes : maximum > bytes ? maximum : bytes);
          return construct(BufferType, maximum === undefined ? [bytes] : [bytes, { __proto__: null, maxByteLength: maximum }],
                           new.target);
        };
        copyStatics(BufferType, GuardedBuffer);
        install("ArrayBuffer", BufferType, GuardedBuffer);
        guardMethod(BufferType.prototype, "slice", function (buffer) {
          return apply(bufferResizable, buffer, []) ? apply(bufferMaximum, buffer, []) : apply(bufferBytes, buffer, []);
        });
        const transfers = ["transfer", "transferToFixedLength"];
        for (let index = 0; index < transfers.length; index++) {
          const name = transfers[index];
          const original = own(BufferType.prototype, name);
          if (typeof original !== "function") continue;
          seal(BufferType.prototype, name, {
            [name]: function (length) {
              const bytes = length === undefined ? apply(bufferBytes, this, []) : size(length);
              charge(bytes);
              return apply(original, this, [bytes]);
            }
          }[name]);
        }

        // Typed arrays: a view of an existing buffer allocates nothing; a length, a typed array, an array-like
        // or an iterable allocates its elements. from() and of() construct through `this`, the guarded type.
        for (let index = 1; index < names.length; index++) {
          const name = names[index];
          const Original = originals[name];
          if (Original === undefined) continue;
          const bytesPerElement = own(Original, "BYTES_PER_ELEMENT");
          const Guarded = {
            [name]: function (source, offset, length) {
              if (new.target === undefined) throw new TypeErrorType("calling " + name + " constructor without new is invalid");
              if (source === null || typeof source !== "object") {
                const count = size(source);
                charge(typeof count === "number" ? count * bytesPerElement : 0);
                return construct(Original, [count], new.target);
              }
              if (isBuffer(source)) {
                const view = arguments.length > 2 ? [source, offset, length] : arguments.length > 1 ? [source, offset] : [source];
                return construct(Original, view, new.target);
              }
              if (isTypedArray(source)) {
                charge(apply(viewLength, source, []) * bytesPerElement);
                return construct(Original, [source], new.target);
              }
              return construct(Original, [list(source, bytesPerElement)], new.target);
            }
          }[name];
          copyStatics(Original, Guarded, "fromBase64", "fromHex");
          const fromBase64 = own(Original, "fromBase64"), fromHex = own(Original, "fromHex");
          if (typeof fromBase64 === "function") {
            seal(Guarded, "fromBase64", function fromBase64Guarded(text, options) {
              charge(typeof text === "string" ? text.length * 3 / 4 : 0);
              return apply(fromBase64, this === Guarded ? Original : this, arguments);
            });
          }
          if (typeof fromHex === "function") {
            seal(Guarded, "fromHex", function fromHexGuarded(text) {
              charge(typeof text === "string" ? text.length / 2 : 0);
              return apply(fromHex, this === Guarded ? Original : this, arguments);
            });
          }
          install(name, Original, Guarded);
        }
        // from() collects an iterable before it constructs: collected by the guard instead, and counted.
        const originalFrom = own(TypedArray, "from");
        seal(TypedArray, "from", function from(source, mapper, thisArgument) {
          const items = source === null || typeof source !== "object" || isTypedArray(source) ? source : list(source, 0);
          return apply(originalFrom, this, [items, mapper, thisArgument]);
        });
        // Copies that do not go through a constructor the script sees: with `constructor` set to undefined on a
        // view, slice(), map() and filter() use the original type, and toReversed(), toSorted() and with()
        // always do. Each allocates at most the view's size.
        const copies = ["slice", "map", "filter", "toReversed", "toSorted", "with"];
        for (let index = 0; index < copies.length; index++) guardMethod(TypedArray.prototype, copies[index], copyBytes);
        return result;
      }
    })(\(binaryDataBytes));
    """
}
