import CourierScript
import Testing
@testable import CourierCollections

/// Which variables a script sets, as checking a file and ordering a run read it: the setter calls with the name
/// quoted, httpyac's `exports.name` and `$global.name`, nothing in comments, and nothing merely mentioned.
@Suite struct ScriptSettersTests {
    static func script(_ code: String) -> RequestScript {
        RequestScript(phase: .response, source: .inline(code), line: 1)
    }

    @Test("Every setter form, with each quote, sets the name it quotes")
    func setterFormsSetTheQuotedName() {
        for quote in ["\"", "'", "`"] {
            let forms = ["client.global.set(\(quote)token\(quote), 1)", "pm.environment.set( \(quote)token\(quote), 1)",
                         "postman.setEnvironmentVariable(\(quote)token\(quote), 1)",
                         "postman.setGlobalVariable(\(quote)token\(quote), 1)", "exports[\(quote)token\(quote)] = 1"]
            for code in forms {
                #expect(Self.script(code).mentionsSetting("token"), "\(code)")
                #expect(!Self.script(code).mentionsSetting("tok"), "\(code)")
                #expect(!Self.script(code).mentionsSetting("tokens"), "\(code)")
            }
        }
    }

    @Test("httpyac's exports.name and $global.name set the whole identifier only")
    func membersSetTheWholeIdentifier() {
        #expect(Self.script("exports.token = response.body.token;").mentionsSetting("token"))
        #expect(Self.script("$global.token=1").mentionsSetting("token"))
        #expect(Self.script("exports.token").mentionsSetting("token"))
        #expect(!Self.script("exports.tokens = 1; exports.token_2 = 2; exports.token$ = 3").mentionsSetting("token"))
        #expect(Self.script("exports.tokens = 1; exports.token = 2").mentionsSetting("token"))
        #expect(Self.script("exports.jeton = 'x'; exports.café = 1").mentionsSetting("café"))
        #expect(!Self.script("exports.caféine = 1").mentionsSetting("café"))
    }

    @Test("A name only read, only in a comment, or in a script file is not set")
    func readsCommentsAndFilesSetNothing() {
        #expect(!Self.script("console.log(client.global.get(\"token\"))").mentionsSetting("token"))
        #expect(!Self.script("// client.global.set(\"token\", 1)\nlet a = 1").mentionsSetting("token"))
        #expect(!Self.script("/* exports.token = 1 */").mentionsSetting("token"))
        #expect(!Self.script("").mentionsSetting("token"))
        #expect(!RequestScript(phase: .response, source: .file("set.js"), line: 1).mentionsSetting("token"))
        #expect(Self.script("client.global.set(\"日本\", 1)").mentionsSetting("日本"))
    }
}
