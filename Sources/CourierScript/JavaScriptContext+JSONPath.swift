import CJavaScriptCore
import CourierBody
import Foundation

extension JavaScriptContext {
    /// Defines `__courierJSONPath(jsonText, path)` for the prelude's `jsonPath(data, path)` (the JetBrains
    /// response-handler function): the values the RFC 9535 query selects, as `{"values": […]}`, or
    /// `{"error": "…"}` when the path or the JSON cannot be read.
    func installJSONPath() {
        define("__courierJSONPath") { context, _, _, count, arguments, _ in
            guard let jsc = JavaScriptContext.library, let context else { return nil }
            guard let arguments, count == 2,
                  let json = JavaScriptContext.string(arguments[0], in: context, jsc),
                  let path = JavaScriptContext.string(arguments[1], in: context, jsc) else {
                return JavaScriptContext.makeString(#"{"error":"jsonPath takes the data and a path"}"#, in: context, jsc)
            }
            return JavaScriptContext.makeString(ScriptJSONPath.answer(json: json, path: path), in: context, jsc)
        }
    }
}

/// What `jsonPath(data, path)` finds, as the JSON text the prelude reads back.
enum ScriptJSONPath {
    static func answer(json: String, path: String) -> String {
        do throws(BodyError) {
            let query = try JSONPath(path)
            let values = try query.evaluate(Data(json.utf8), includePaths: false).map(\.value.compactJSON)
            return #"{"values":["# + values.joined(separator: ",") + "]}"
        } catch {
            return #"{"error":"# + JSONValue.quoted(error.description) + "}"
        }
    }
}
