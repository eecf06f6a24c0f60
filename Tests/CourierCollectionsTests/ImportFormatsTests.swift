import Foundation
import Testing
@testable import CourierCollections

/// The readers behind `courier import har|insomnia|bruno`: Bruno's `.bru` blocks, Insomnia's templates, and
/// where a HAR's credentials go.
@Suite struct ImportFormatsTests {
    @Test func aBruFileReadsDictionariesTextBlocksListsAndMultilineValues() throws {
        let file = try BruFile("""
            meta {
              name: Get user
              seq: 2
            }

            headers {
              X-Trace: a:b
              ~X-Off: 1
            }

            body:json {
              {
                "a": 1
              }
            }

            vars:pre-request {
              note: '''
                line one
                line two
              '''
            }

            vars:secret [
              token,
              apiKey
            ]
            """)
        #expect(file.value("name", in: "meta") == "Get user")
        #expect(file.block("headers")?.pairs.map { "\($0.key)=\($0.value) \($0.enabled)" } == ["X-Trace=a:b true", "X-Off=1 false"])
        #expect(file.block("body:json")?.text == "{\n  \"a\": 1\n}")
        #expect(file.value("note", in: "vars:pre-request") == "line one\nline two")
        #expect(file.block("vars:secret")?.list == ["token", "apiKey"])
        #expect(file.block("headers")?.pairs.first?.line == 7)
    }

    @Test func aBadBruFileNamesItsLine() {
        #expect(throws: BruFile.Failure.self) { try BruFile("meta {\n  name: x\n") }
        do { _ = try BruFile("meta {\n  name: x\n}\n\nheaders {\n  no colon here\n}\n") } catch {
            #expect(error.line == 6 && error.message.contains("expected 'name: value'"))
        }
        do { _ = try BruFile("stray text\n") } catch {
            #expect(error.line == 1 && error.message.contains("expected a block"))
        }
    }

    @Test func insomniaTemplatesBecomeVariablesAndUnknownTagsStayText() {
        var unconverted: [String] = []
        let text = InsomniaTemplate.text("{{ _.base }}/x/{{ _.api.v }}?id={% uuid 'v4' %}&t={% now 'millis' %}"
                                         + "&r={% response 'body' %}&b={{ not valid }}", unconverted: &unconverted)
        #expect(text.description == "{{base}}/x/{{api.v}}?id={{$uuid}}&t={{$timestamp}}&r={% response 'body' %}"
                + "&b={{ not valid }}")
        #expect(text.variableNames == ["base", "api.v", "$uuid", "$timestamp"])
        #expect(unconverted == ["{% response 'body' %}", "{{ not valid }}"])
    }

    @Test func aHARsCredentialsBecomePrivateVariablesAndTheFilesHoldNone() throws {
        let har = """
            {"log": {"entries": [{"request": {"method": "GET",
              "url": "https://api.example.com/v1/me?access_token=q-secret&page=2",
              "headers": [{"name": "Authorization", "value": "Bearer h-secret"}, {"name": "Cookie", "value": "s=c-secret"},
                          {"name": ":authority", "value": "api.example.com"}, {"name": "X-Api-Key", "value": "k-secret"},
                          {"name": "Accept", "value": "{{not a variable}}"}]},
              "response": {"status": 200, "headers": [], "content": {"text": "{}"}}}]}}
            """
        let conversion = try HARImporter.convert(Data(har.utf8))
        let file = try #require(conversion.output.files.first)
        #expect(file.name == "api.example.com.http")
        for secret in ["q-secret", "h-secret", "c-secret", "k-secret"] { #expect(!file.text.contains(secret)) }
        let parsed = HTTPFile(path: file.name, text: file.text)
        let request = try #require(parsed.requests.first)
        #expect(request.name == "get-me")
        #expect(request.url == "https://api.example.com/v1/me?access_token={{access_token}}&page=2")
        #expect(request.headers["Authorization"] == "Bearer {{authorization}}")
        #expect(request.tags["no-cookie-jar"] != nil)
        let environment = try EnvironmentSet.from(publicJSON: nil, privateJSON: conversion.privateEnvironment)
            .environment(named: nil)
        #expect(environment.values["authorization"]?.value == "h-secret")
        #expect(environment.values["cookie"]?.value == "s=c-secret")
        #expect(environment.values["x-api-key"]?.isSecret == true)
        #expect(conversion.exchanges.first?.secrets.contains("q-secret") == true)
    }

    @Test func aHARURLWithAFragmentBeforeItsQuestionMarkIsKeptWhole() throws {
        // Found by the fuzzer: a `#` before the `?` once made the query's range run backwards.
        let har = #"{"log": {"entries": [{"request": {"method": "GET", "url": "http://h/a#b?token=x", "headers": []}}]}}"#
        let conversion = try HARImporter.convert(Data(har.utf8))
        #expect(conversion.output.requestCount == 1)
        #expect(conversion.privateEnvironment == nil)
    }
}
