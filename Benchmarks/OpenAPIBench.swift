import CourierCollections
import Foundation

/// `courier import openapi` on a generated description of 3,000 operations, in JSON and in YAML, against
/// the 2 s budget and as a ratio against Foundation's JSON parse of the JSON text (same run).
enum OpenAPIBench {
    static let operations = 3000
    static let rounds = 3

    static func run() {
        let yaml = Data(generatedYAML(operations).utf8)
        let json: Data
        do {
            json = try JSONSerialization.data(withJSONObject: generatedObject(operations))
        } catch {
            print("openapi: cannot generate the description: \(error)")
            return
        }
        let clock = ContinuousClock()
        var fromJSON = Duration.zero, fromYAML = Duration.zero, reference = Duration.zero
        var requests = 0
        for _ in 0..<rounds {
            reference += clock.measure { _ = try? JSONSerialization.jsonObject(with: json) }
            fromJSON += clock.measure { requests = (try? OpenAPIImporter.convert(json))?.requestCount ?? -1 }
            fromYAML += clock.measure { _ = try? OpenAPIImporter.convert(yaml) }
        }
        print("openapi: a generated description of \(requests) operations (JSON \(json.count / 1024) KiB, "
              + "YAML \(yaml.count / 1024) KiB), \(rounds) rounds; budget 2 s")
        print(String(format: "  import from JSON       %8.1f ms   %.1f× Foundation JSON parse of it (%.2f ms)",
                     (fromJSON / rounds).milliseconds, fromJSON / reference, (reference / rounds).milliseconds))
        print(String(format: "  import from YAML       %8.1f ms   %.1f× Foundation JSON parse of the JSON",
                     (fromYAML / rounds).milliseconds, fromYAML / reference))
    }

    static func generatedObject(_ count: Int) -> [String: Any] {
        var paths: [String: Any] = [:]
        for index in 0..<(count / 2) {
            paths["/resources\(index)/{id}"] = [
                "get": ["tags": ["group\(index % 30)"], "operationId": "get\(index)",
                        "parameters": [["name": "id", "in": "path", "required": true, "schema": ["type": "integer"]],
                                       ["name": "q", "in": "query", "schema": ["type": "string", "example": "x"]]],
                        "responses": ["200": ["description": "ok"]]],
                "post": ["tags": ["group\(index % 30)"], "operationId": "post\(index)",
                         "requestBody": ["content": ["application/json": ["schema": ["$ref": "#/components/schemas/Item"]]]],
                         "responses": ["200": ["description": "ok"]]],
            ]
        }
        return ["openapi": "3.0.0", "info": ["title": "Large", "version": "1"],
                "servers": [["url": "http://localhost:1234"]], "paths": paths,
                "components": ["schemas": ["Item": ["type": "object", "properties": [
                    "name": ["type": "string"], "children": ["type": "array", "items": ["$ref": "#/components/schemas/Item"]],
                ]]]]]
    }

    static func generatedYAML(_ count: Int) -> String {
        var text = "openapi: 3.0.0\ninfo:\n  title: Large\n  version: '1'\nservers:\n  - url: http://localhost:1234\npaths:\n"
        for index in 0..<(count / 2) {
            text += """
              /resources\(index)/{id}:
                get:
                  tags: [group\(index % 30)]
                  operationId: get\(index)
                  parameters:
                    - {name: id, in: path, required: true, schema: {type: integer}}
                    - {name: q, in: query, schema: {type: string, example: x}}
                  responses: {'200': {description: ok}}
                post:
                  tags: [group\(index % 30)]
                  operationId: post\(index)
                  requestBody:
                    content:
                      application/json:
                        schema: {$ref: '#/components/schemas/Item'}
                  responses: {'200': {description: ok}}

            """
        }
        text += """
            components:
              schemas:
                Item:
                  type: object
                  properties:
                    name: {type: string}
                    children: {type: array, items: {$ref: '#/components/schemas/Item'}}

            """
        return text
    }
}
