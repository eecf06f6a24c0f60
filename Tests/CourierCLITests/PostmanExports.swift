import CourierTestSupport
import Foundation

/// Postman exports written by the tests, in the shapes Postman saves them: collections (v2.1), environments
/// and globals; and the import-then-run steps the Postman tests share.
enum PostmanExports {
    static let schema = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"

    /// A request item; `tests` and `pre` are script lines.
    static func item(_ name: String, _ url: String, method: String = "GET", headers: [(String, String)] = [],
                     body: [String: Any]? = nil, pre: [String] = [], tests: [String] = []) -> [String: Any] {
        var request: [String: Any] = ["method": method, "url": url,
                                      "header": headers.map { ["key": $0.0, "value": $0.1] }]
        if let body { request["body"] = body }
        var events: [[String: Any]] = []
        if !pre.isEmpty { events.append(["listen": "prerequest", "script": ["exec": pre, "type": "text/javascript"]]) }
        if !tests.isEmpty { events.append(["listen": "test", "script": ["exec": tests, "type": "text/javascript"]]) }
        return ["name": name, "request": request, "event": events]
    }

    static func collection(_ name: String, variables: [(String, String)] = [], items: [[String: Any]]) -> [String: Any] {
        ["info": ["name": name, "schema": schema], "variable": variables.map { ["key": $0.0, "value": $0.1] },
         "item": items]
    }

    /// An environment export; a value typed `secret` when its third element is true.
    static func environment(_ name: String, _ values: [(String, String, Bool)]) -> [String: Any] {
        ["id": "e1", "name": name, "_postman_variable_scope": "environment",
         "values": values.map { ["key": $0.0, "value": $0.1, "enabled": true, "type": $0.2 ? "secret" : "default"] }]
    }

    static func globals(_ values: [(String, String)]) -> [String: Any] {
        ["id": "g1", "name": "Globals", "_postman_variable_scope": "globals",
         "values": values.map { ["key": $0.0, "value": $0.1, "enabled": true] }]
    }

    /// Writes each export as `NAME.json` in `folder`, returning their paths in order.
    static func write(_ exports: [(String, [String: Any])], in folder: TemporaryFolder) throws -> [String] {
        try exports.map { name, object in
            let url = folder.url.appendingPathComponent(name + ".json")
            try JSONSerialization.data(withJSONObject: object).write(to: url)
            return url.path
        }
    }

    /// Imports `exports` into `folder/out`, then runs the collection's file there with `arguments`.
    static func importAndRun(_ exports: [(String, [String: Any])], in folder: TemporaryFolder, file: String,
                             arguments: [String] = [], environment: [String: String] = [:])
        async throws -> (imported: ChildResult, run: ChildResult) {
        let paths = try write(exports, in: folder)
        let out = folder.url.appendingPathComponent("out").path
        let imported = try await CourierCLI.run(["import", "postman"] + paths + ["-o", out])
        let run = try await CourierCLI.run(["run", out + "/" + file] + arguments, in: folder.url,
                                           environment: environment)
        return (imported, run)
    }
}
