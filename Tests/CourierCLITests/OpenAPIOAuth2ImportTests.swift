import Foundation
import Testing
@testable import CourierCollections

/// OpenAPI's `oauth2` flows and `openIdConnect` become `Security.Auth` configurations on import.
@Suite struct OpenAPIOAuth2ImportTests {
    static func convert(_ schemes: String, swagger2: Bool = false) throws -> OpenAPIConversion {
        let text = swagger2
            ? """
              {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "host": "api.example.com",
               "securityDefinitions": \(schemes), "security": [{"sso": []}],
               "paths": {"/me": {"get": {"responses": {"200": {"description": "ok"}}}}}}
              """
            : """
              {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "servers": [{"url": "https://api.example.com"}],
               "components": {"securitySchemes": \(schemes)}, "security": [{"sso": []}],
               "paths": {"/me": {"get": {"responses": {"200": {"description": "ok"}}}}}}
              """
        return try OpenAPIImporter.convert(Data(text.utf8))
    }

    @Test func theAuthorizationCodeFlowIsAConfigurationTheRequestNames() throws {
        let conversion = try Self.convert("""
            {"sso": {"type": "oauth2", "flows": {"implicit": {"authorizationUrl": "https://id.example.com/i", "scopes": {}},
              "authorizationCode": {"authorizationUrl": "https://id.example.com/authorize",
                                    "tokenUrl": "https://id.example.com/token", "scopes": {"read": "r", "admin": "a"}}}}}
            """)
        let text = conversion.files.map(\.text).joined()
        #expect(text.contains("Authorization: Bearer {{$auth.token(\"sso\")}}"), "\(text)")
        #expect(conversion.environment.contains("\"Grant Type\" : \"Authorization Code\""), "\(conversion.environment)")
        #expect(conversion.environment.contains("\"Auth URL\" : \"https://id.example.com/authorize\""))
        #expect(conversion.environment.contains("\"Scope\" : \"admin read\""))
        #expect(conversion.privateEnvironment.contains("\"Client Secret\" : \"\""), "\(conversion.privateEnvironment)")
        // And the file reads back without a problem
        let parsed = HTTPFile(path: conversion.files[0].name, text: conversion.files[0].text)
        #expect(parsed.diagnostics.isEmpty, "\(parsed.diagnostics)")
    }

    @Test func swagger2PasswordAndOpenIDConnectAndImplicitOnly() throws {
        let password = try Self.convert("""
            {"sso": {"type": "oauth2", "flow": "password", "tokenUrl": "https://id.example.com/token", "scopes": {}}}
            """, swagger2: true)
        #expect(password.environment.contains("\"Grant Type\" : \"Password\""), "\(password.environment)")
        #expect(password.privateEnvironment.contains("\"Username\" : \"\""))
        let openID = try Self.convert("""
            {"sso": {"type": "openIdConnect", "openIdConnectUrl": "https://id.example.com/.well-known/openid-configuration"}}
            """)
        #expect(openID.environment.contains("\"Grant Type\" : \"Authorization Code\""))
        #expect(openID.notes.contains { $0.contains("https://id.example.com/.well-known/openid-configuration") },
                "\(openID.notes)")
        let implicit = try Self.convert("""
            {"sso": {"type": "oauth2", "flows": {"implicit": {"authorizationUrl": "https://id.example.com/i", "scopes": {}}}}}
            """)
        #expect(implicit.files.map(\.text).joined().contains("Bearer {{oauthToken}}"))
        #expect(implicit.notes.contains { $0.contains("only the implicit flow") }, "\(implicit.notes)")
    }
}
