/// The JavaScript behind `tv4` (the JSON Schema validator of Postman's legacy sandbox, which Debian does not
/// package): its `validate`, `validateResult`, `validateMultiple`, `error`, `addSchema` and `freshApi` over
/// Debian's ajv. Like tv4, it reads schemas leniently: unknown keywords and formats are ignored and `$schema`
/// is not enforced.
enum PostmanTV4Prelude {
    static let code = #"""
    function __courierTV4(load) {
      "use strict";
      function fresh() {
        let Ajv;
        try { Ajv = load("ajv"); } catch (e) {
          const error = new Error("tv4 needs Debian's node-ajv (apt-get install node-ajv): " + e.message);
          error.name = "Unsupported";
          throw error;
        }
        const ajv = new Ajv({ allErrors: true, schemaId: "auto", jsonPointers: true, unknownFormats: "ignore",
                              validateSchema: false, logger: false, verbose: true });
        function lenient(schema) {
          if (schema === null || typeof schema !== "object") return schema;
          const copy = Object.assign({}, schema);
          delete copy.$schema;
          return copy;
        }
        // tv4's messages for the common failures; ajv's for the rest.
        function describe(e) {
          let message = e.message;
          if (e.keyword === "required") message = "Missing required property: " + e.params.missingProperty;
          else if (e.keyword === "type") {
            const data = e.data === null ? "null" : Array.isArray(e.data) ? "array" : typeof e.data;
            message = "Invalid type: " + data + " (expected " + e.params.type + ")";
          }
          return { message: message, dataPath: e.dataPath, schemaPath: e.schemaPath.replace(/^#/, ""),
                   params: e.params };
        }
        function errors(data, schema) {
          const validate = ajv.compile(lenient(schema));
          return validate(data) ? [] : (validate.errors || []).map(describe);
        }
        const api = {
          error: null, missing: [],
          validate: function (data, schema) {
            const found = errors(data, schema);
            api.error = found.length === 0 ? null : found[0];
            return found.length === 0;
          },
          validateResult: function (data, schema) {
            const found = errors(data, schema);
            return { valid: found.length === 0, error: found.length === 0 ? null : found[0], missing: [] };
          },
          validateMultiple: function (data, schema) {
            const found = errors(data, schema);
            return { valid: found.length === 0, errors: found, missing: [] };
          },
          addSchema: function (uri, schema) {
            if (typeof uri === "object") { schema = uri; uri = schema.id || schema.$id; }
            ajv.removeSchema(uri);
            ajv.addSchema(lenient(schema), uri);
          },
          getSchema: function (uri) { const found = ajv.getSchema(uri); return found ? found.schema : undefined; },
          dropSchemas: function () { ajv.removeSchema(); },
          freshApi: fresh,
        };
        return api;
      }
      return fresh();
    }
    """#
}
