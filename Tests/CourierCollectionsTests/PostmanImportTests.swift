import CourierHTTP
import CourierMessage
import Foundation
import Testing
@testable import CourierCollections

@Suite("Postman v2.1 import")
struct PostmanImportTests {
    private func conversion() throws -> PostmanConversion {
        try PostmanImporter.convert(Data(contentsOf: Fixtures.folder.appendingPathComponent(
            "postman/shop.postman_collection.json")))
    }

    private func requests(_ conversion: PostmanConversion, _ file: String) throws -> HTTPFile {
        let text = try #require(conversion.files.first { $0.name == file }?.text)
        let parsed = HTTPFile(path: file, text: text)
        #expect(parsed.errors.isEmpty, "\(parsed.errors)")
        return parsed
    }

    @Test func topLevelFoldersBecomeFilesAndNestedFoldersBecomeSections() throws {
        let result = try conversion()
        #expect(result.files.map(\.name) == ["01 Customers.http", "02 Orders.http", "03 Shop API.http"])
        let customers = try requests(result, "01 Customers.http")
        #expect(customers.requests.map(\.name) == ["List customers", "Get customer", "Admin / Delete customer",
                                                   "Admin / Import customers"])
        #expect(try requests(result, "03 Shop API.http").requests.map(\.name) == ["Health", "Whoami"])
    }

    @Test func collectionVariablesBecomeFileVariablesAndFolderVariablesRequestLocal() throws {
        let result = try conversion()
        let customers = try requests(result, "01 Customers.http")
        // `token` is named as a secret: it goes to the private environment file, never into a .http file
        #expect(customers.fileVariables == [VariableDefinition(name: "baseUrl", value: "https://shop.example.com/api")])
        #expect(result.sharedVariables.map(\.key) == ["token"] && result.sharedVariables.allSatisfy(\.isSecret))
        #expect(customers.requests[2].variables == [VariableDefinition(name: "region", value: "eu")])
        #expect(customers.requests[2].url == "{{baseUrl}}/{{region}}/customers/42")
    }

    @Test func urlsFromRawOrPartsWithPathVariables() throws {
        let result = try conversion()
        let customers = try requests(result, "01 Customers.http")
        #expect(customers.requests[0].url == "{{baseUrl}}/customers?page=1&per_page=20")
        #expect(customers.requests[1].url == "{{baseUrl}}/customers/{{customerId}}")
        #expect(customers.requests[1].variables == [VariableDefinition(name: "customerId", value: "42")])
        #expect(try requests(result, "03 Shop API.http").requests[0].url == "https://status.shop.example:8443/health")
    }

    @Test func disabledHeadersStayAsCommentsAndDescriptionsAsComments() throws {
        let result = try conversion()
        let text = try #require(result.files.first { $0.name == "01 Customers.http" }?.text)
        #expect(text.contains("###\n# @name List customers\n# Pages through customers.\n# Newest first.\n"
                              + "GET {{baseUrl}}/customers?page=1&per_page=20\n# disabled: X-Debug: 1\nAccept: application/json\n"))
        #expect(try requests(result, "01 Customers.http").requests[0].headers
                == HTTPHeaders([("Accept", "application/json"), ("Authorization", "Bearer {{token}}")]))
    }

    @Test func authIsInheritedAndConvertedForBearerBasicAndApiKey() throws {
        let result = try conversion()
        let customers = try requests(result, "01 Customers.http")
        #expect(customers.requests[1].headers["Authorization"] == "Bearer {{token}}")
        #expect(customers.requests[2].headers["Authorization"] == "Basic admin {{adminPassword}}")
        #expect(customers.requests[3].headers["Authorization"] == nil)
        let orders = try requests(result, "02 Orders.http")
        #expect(orders.requests[4].url == "{{baseUrl}}/orders/1001?api_key={{apiKey}}")
        // And the basic credentials are encoded when the request is resolved
        let context = VariableContext(overrides: ["adminPassword": "pw"], processEnvironment: [:])
        let resolved = try Resolver(file: customers, baseFolder: URL(fileURLWithPath: "/"), context: context)
            .resolve(customers.requests[2])
        #expect(resolved.request.headers["Authorization"] == "Basic " + Data("admin:pw".utf8).base64EncodedString())
    }

    @Test func everyBodyModeConverts() throws {
        let orders = try requests(try conversion(), "02 Orders.http")
        #expect(orders.requests[0].body == .text("{\n  \"customer\": 42,\n  \"items\": [{\"sku\": \"A-1\", \"qty\": 2}]\n}"))
        #expect(orders.requests[0].headers["Content-Type"] == "application/json")
        #expect(orders.requests[0].headers["Idempotency-Key"] == "{{$guid}}")
        #expect(orders.requests[1].body == .text("status=open%20%26%20paid&customer={{customerId}}"))
        #expect(orders.requests[1].headers["Content-Type"] == "application/x-www-form-urlencoded")
        guard case .text(let form) = orders.requests[2].body else { Issue.record("formdata"); return }
        #expect(form.contains("name=\"receipt\"; filename=\"receipt.pdf\"\nContent-Type: application/octet-stream\n\n< /home/me/receipt.pdf"))
        #expect(orders.requests[2].headers["Content-Type"] == "multipart/form-data; boundary=PostmanFormBoundary")
        #expect(orders.requests[3].body == .text(#"{"query": "query Order($id: ID!) { order(id: $id) { id total } }", "variables": {"id": "1001"}}"#))
        let customers = try requests(try conversion(), "01 Customers.http")
        #expect(customers.requests[3].body == .file(path: "/home/me/customers.csv", substituteVariables: false))
    }

    @Test func theReportListsExamplesAndUnsupportedAuth() throws {
        // (and an ordinary collection is written as it is: no side file, nothing changed to be data)
        #expect(try conversion().notes == [])
        #expect(try conversion().files.allSatisfy { $0.name.hasSuffix(".http") })
        #expect(try conversion().report == [
            "Customers / Get customer: 1 saved example response(s) not converted",
            "Health: oauth1 auth not converted: the request goes without it; it names no consumer key; write "
                + "'Authorization: OAuth1 KEY SECRET token:T tokenSecret:S' on the request",
        ])
    }

    @Test func scriptsBecomeScriptBlocksAndFolderScriptsApplyToEveryRequestInside() throws {
        let orders = try requests(try conversion(), "02 Orders.http")
        #expect(!orders.requests.isEmpty)
        for request in orders.requests {
            #expect(request.scripts.first == RequestScript(phase: .preRequest,
                                                           source: .inline("\n    pm.variables.set('ts', Date.now());\n"),
                                                           line: request.scripts.first?.line ?? 0))
        }
        let create = try #require(orders.requests.first { $0.name?.hasSuffix("Create order") == true })
        #expect(create.scripts.map(\.phase) == [.preRequest, .response])
        #expect(create.scripts.last?.source == .inline("\n    pm.test('created', () => pm.response.to.have.status(201));\n"))
        #expect(orders.diagnostics.filter { $0.severity == .error }.isEmpty)
    }

    @Test func notAPostmanCollectionIsAClearError() {
        #expect(throws: CollectionError.importFailed(source: "Postman collection", reason: "not valid JSON")) {
            try PostmanImporter.convert(Data("{".utf8))
        }
        #expect(throws: CollectionError.self) { try PostmanImporter.convert(Data(#"{"info": {"schema": "v1"}, "item": []}"#.utf8)) }
        #expect(throws: CollectionError.self) { try PostmanImporter.convert(Data("[]".utf8)) }
    }
}

extension HTTPFile {
    var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
}
