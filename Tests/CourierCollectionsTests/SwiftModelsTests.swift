import Foundation
import Testing
@testable import CourierCollections

/// `Codable` models inferred from JSON: what each shape of data becomes.
@Suite struct SwiftModelsTests {
    static func models(_ json: String, request: String = "getThing") throws -> SwiftModels {
        try SwiftModels.infer(from: Data(json.utf8), requestName: request)
    }

    @Test("Elements of an array are merged: a key missing from one or null in one is optional; Int and Double is Double")
    func arrayElementsMerge() throws {
        let models = try Self.models("""
            {"users": [{"id": 1, "score": 1, "name": "a", "nick": null},
                       {"id": 2, "score": 2.5, "nick": null, "extra": true}]}
            """)
        #expect(models.declarations == """
            struct Thing: Codable, Sendable {
                struct User: Codable, Sendable {
                    let id: Int
                    let score: Double
                    let name: String?
                    let nick: JSONValue?
                    let extra: Bool?
                }

                let users: [User]
            }
            """)
        #expect(models.usesJSONValue)
    }

    @Test("RFC 3339 date-times are Dates; fractional seconds anywhere are noted for the decoder; other strings stay")
    func dates() throws {
        let whole = try Self.models(#"{"at": "2024-05-01T12:30:00Z", "zone": "2024-05-01T12:30:00+02:00"}"#)
        #expect(whole.declarations.contains("let at: Date"))
        #expect(whole.declarations.contains("let zone: Date"))
        #expect(whole.usesDates && !whole.fractionalSeconds)
        let fractional = try Self.models(#"{"list": [{"at": "2024-05-01T12:30:00Z"}, {"at": "2024-05-01T12:30:00.5Z"}]}"#)
        #expect(fractional.declarations.contains("let at: Date"))
        #expect(fractional.fractionalSeconds)
        for text in ["2024-05-01", "2024-13-01T00:00:00Z", "2024-05-01 12:30:00Z", "2024-05-01T12:30:00", "today"] {
            let models = try Self.models(#"{"at": "\#(text)"}"#)
            #expect(models.declarations.contains("let at: String"), "\(text)")
        }
        let mixed = try Self.models(#"{"list": [{"at": "2024-05-01T12:30:00Z"}, {"at": "soon"}]}"#)
        #expect(mixed.declarations.contains("let at: String"))
    }

    @Test("Keys become lowerCamelCase properties with CodingKeys; keywords take backticks, self and digits are renamed")
    func propertyNames() throws {
        let models = try Self.models(#"""
            {"created_at": 1, "default": 2, "self": 3, "2fa": true, "content-type": "x", "$ref": "r", "Type": 4,
             "user_id": 5, "userID": 6, "": 7}
            """#)
        #expect(models.declarations == """
            struct Thing: Codable, Sendable {
                let createdAt: Int
                let `default`: Int
                let selfValue: Int
                let _2fa: Bool
                let contentType: String
                let ref: String
                let type: Int
                let userId: Int
                let userId2: Int
                let value: Int

                enum CodingKeys: String, CodingKey {
                    case createdAt = "created_at"
                    case `default`
                    case selfValue = "self"
                    case _2fa = "2fa"
                    case contentType = "content-type"
                    case ref = "$ref"
                    case type = "Type"
                    case userId = "user_id"
                    case userId2 = "userID"
                    case value = ""
                }
            }
            """)
    }

    @Test("Nested types are named from their keys, singular for arrays, and never hide a type the code uses")
    func typeNames() throws {
        let models = try Self.models("""
            {"data": {"categories": [{"id": 1}], "boxes": [{"id": 2}], "status": [{"id": 3}],
                      "user": {"user": {"id": 4}}, "date": {"id": 5}}}
            """, request: "listOrders")
        #expect(models.rootType == "Orders")
        let text = models.declarations
        for line in ["struct OrdersData: Codable", "struct Category: Codable", "struct Box: Codable",
                     "struct StatusItem: Codable", "struct User: Codable", "struct UserUser: Codable",
                     "struct OrdersDataDate: Codable", "let categories: [Category]", "let boxes: [Box]",
                     "let status: [StatusItem]", "let user: UserUser", "let date: OrdersDataDate"] {
            #expect(text.contains(line), "\(line) in:\n\(text)")
        }
    }

    @Test("A top-level array is a typealias of its element; empty arrays and deep values are JSONValue")
    func topLevelArraysEmptyArraysAndDepth() throws {
        let list = try Self.models(#"[{"id": 1, "tags": []}, {"id": 2, "tags": []}]"#, request: "listUsers")
        #expect(list.rootType == "Users")
        #expect(list.declarations.hasPrefix("typealias Users = [User]\n\nstruct User: Codable, Sendable {"))
        #expect(list.declarations.contains("let tags: [JSONValue]"))
        let deep = String(repeating: #"{"a": "#, count: 40) + "1" + String(repeating: "}", count: 40)
        let models = try Self.models(deep)
        #expect(models.declarations.contains("let a: JSONValue"))
        let scalars = try Self.models("[1, 2.5]", request: "numbers")
        #expect(scalars.declarations == "typealias Numbers = [Double]")
    }

    @Test("Values of different kinds are JSONValue; a response that is not JSON is an error that says so")
    func mixedAndNotJSON() throws {
        let models = try Self.models(#"{"v": [1, "two", true, null]}"#)
        #expect(models.declarations.contains("let v: [JSONValue?]"))
        #expect(throws: SwiftModels.Failure.self) { try Self.models("<html>") }
        #expect(SwiftModels.rootName("getData") == "DataResponse")
        #expect(SwiftModels.rootName("users") == "Users")
        #expect(SwiftModels.rootName("2fa") == "Response2fa")
    }
}
