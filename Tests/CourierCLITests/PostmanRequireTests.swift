import CourierTestSupport
import Foundation
import Testing

/// `require` in Postman scripts: the libraries Postman's sandbox ships, from Debian's packages (installed by
/// `make deps`) or Courier's own, proven by the values a pre-request script computes with them and puts on
/// the wire.
@Suite("require() in Postman scripts")
struct PostmanRequireTests {
    /// A collection of one request whose pre-request script sets `{{out}}` from `lines`, sent as X-Out.
    static func run(_ lines: [String], environment: [String: String] = [:]) async throws
        -> (server: [CaptureServer.Received], run: ChildResult) {
        let server = try CaptureServer()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let collection = PostmanExports.collection("Libs", variables: [("base", server.base)], items: [
            PostmanExports.item("libs", "{{base}}/libs", headers: [("X-Out", "{{out}}")],
                                pre: lines + ["pm.variables.set('out', out.join('|'));"]),
        ])
        let (_, run) = try await PostmanExports.importAndRun([("libs", collection)], in: folder, file: "Libs.http",
                                                             environment: environment)
        return (server.requests, run)
    }

    @Test func theSandboxLibrariesLoadAndComputeWhatTheirDocumentationSays() async throws {
        let (received, run) = try await Self.run([
            "const out = [];",
            "const _ = require('lodash'); out.push(JSON.stringify(_.chunk([1, 2, 3], 2)));",
            "const moment = require('moment'); out.push(moment.utc('2024-02-28').add(1, 'day').format('YYYY-MM-DD'));",
            "const uuid = require('uuid'); out.push(/^[0-9a-f-]{36}$/.test(uuid.v4()));",
            "const CryptoJS = require('crypto-js');",
            "out.push(CryptoJS.SHA256('abc').toString(CryptoJS.enc.Base64));",
            "out.push(CryptoJS.enc.Base64.stringify(CryptoJS.enc.Utf8.parse('héllo')));",
            "out.push(CryptoJS.MD5('').toString());",
            "const chai = require('chai'); chai.expect([1, 2]).to.have.lengthOf(2); out.push('chai');",
            "const Ajv = require('ajv'); const ajv = new Ajv();",
            "const schema = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };",
            "out.push(ajv.validate(schema, { id: 1 }) + '/' + ajv.validate(schema, { id: 'x' }));",
            "require('xml2js').parseString('<a><b>x</b></a>', { explicitArray: false, async: false },",
            "  (e, r) => out.push(r.a.b));",
            "const $ = require('cheerio').load('<ul><li class=\"x\">one</li><li>two</li></ul>');",
            "out.push($('li').length + $('.x').text());",
            "out.push(require('buffer').Buffer.from('hi').toString('hex'));",
            "out.push(require('querystring').stringify({ a: 'b c' }));",
            "out.push(require('url').parse('http://h.example/p?q=1').pathname);",
            "out.push(require('util').format('%s-%d', 'n', 5));",
            "out.push(require('atob')('aGk=') + require('btoa')('hi'));",
        ])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        let header = try #require(received.first?.header("X-Out"))
        #expect(header.split(separator: "|").map(String.init) == [
            "[[1,2],[3]]", "2024-02-29", "true", "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=", "aMOpbGxv",
            "d41d8cd98f00b204e9800998ecf8427e", "chai", "true/false", "x", "2one", "6869", "a=b%20c", "/p", "n-5",
            "hiaGk=",
        ])
    }

    @Test func aModuleOffTheListIsAnErrorListingWhatIsAvailable() async throws {
        let (received, run) = try await Self.run(["const fs = require('fs'); const out = [];"])
        #expect(received.isEmpty)
        #expect(run.status == 3)
        #expect((run.stdout + run.stderr).contains("require('fs') is not supported by Courier; the modules scripts may require are "
                                    + "ajv, assert, atob, btoa, buffer, chai, cheerio, crypto-js, events, lodash"),
                "\(run.stdout)\(run.stderr)")
    }

    @Test func aModuleDebianDoesNotPackageSaysWhatToUseInstead() async throws {
        let (_, run) = try await Self.run(["const sdk = require('postman-collection'); const out = [];"])
        #expect((run.stdout + run.stderr).contains("require('postman-collection') is not supported by Courier: "
                                    + "Debian has no postman-collection package"), "\(run.stdout)\(run.stderr)")
    }

    @Test func aModuleWhosePackageIsMissingNamesThePackageToInstall() async throws {
        // Given module folders where nothing is installed
        let empty = try TemporaryFolder()
        let (received, run) = try await Self.run(["const _ = require('lodash'); const out = [];"],
                                                 environment: ["COURIER_SCRIPT_MODULES": empty.url.path])
        #expect(received.isEmpty)
        #expect((run.stdout + run.stderr).contains("require('lodash'): the module is not installed; install Debian's node-lodash"),
                "\(run.stdout)\(run.stderr)")
    }

    @Test func aScriptReadsNoFileOutsideTheModuleFoldersThroughRequire() async throws {
        // Given a script asking the loader for /etc/passwd by path, and for a module folder's file through ..
        let (received, run) = try await Self.run([
            "const out = [];",
            "try { require('/etc/passwd'); } catch (e) { out.push(e.name); }",
            "try { require('lodash/../../../../etc/passwd'); } catch (e) { out.push(e.name); }",
            "out.push(typeof __courierReadModule('/etc/passwd'));",
        ])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(received.first?.header("X-Out") == "Unsupported|Unsupported|object")
    }
}
