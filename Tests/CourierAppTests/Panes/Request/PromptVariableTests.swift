import CourierApp
import CourierCollections
import CourierHTTP
import CourierTerminal
import Foundation
import Testing

@Suite("update: # @prompt values are asked before sending")
struct PromptVariableTests {
    @Test func sendingARequestWithAPromptAsksForTheValueThenSendsItAsAnAnswer() {
        // Given "List users" carrying a `# @prompt otp one-time password` line
        var users = Fixtures.usersFile
        users.requests[0].prompts = [PromptVariable(name: "otp", description: "one-time password")]
        var state = AppState(size: Size(width: 120, height: 40), collectionPath: "Collections", environment: "dev")
        _ = update(&state, .collectionLoaded(Collection(root: "Collections", files: [users, Fixtures.demoFile],
                                                        environments: Fixtures.collection.environments)))
        // (the first request is open at start; 2 focuses its editor)
        state.press(.char("2"))
        #expect(state.editor.name == "List users")
        #expect(!state.editor.isDirty)
        // When sending, a question appears and nothing is sent yet
        let asked = state.press(Key(.enter))
        #expect(asked.isEmpty)
        guard case .prompt(let prompt)? = state.modals.last else {
            Issue.record("expected a prompt, got \(state.modals)")
            return
        }
        #expect(prompt.title == "Value for otp (one-time password)")
        // Then typing the value and Enter sends with it, and the next send asks again
        let effects = state.press(.char("4"), .char("2"), Key(.enter))
        guard case .send(_, let job)? = effects.first else {
            Issue.record("expected a send, got \(effects)")
            return
        }
        #expect(job.answers == ["otp": "42"])
        #expect(state.promptAnswers.isEmpty)
    }
}

@Suite("collection store: prompt answers reach the request")
struct PromptAnswerResolvingTests {
    @Test func theAnswersOfASendJobFillThePromptedVariables() throws {
        // Given a file whose request asks for `otp`
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-prompt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("# @prompt otp\nGET http://127.0.0.1:1/check?code={{otp}}\nX-Id: {{$uuid}}\n".utf8)
            .write(to: folder.appendingPathComponent("p.http"))
        let store = CollectionStore()
        let (collection, _) = store.load(folder.path)
        let ref = RequestRef(file: "p.http", index: 0)
        let draft = try #require(collection.request(ref))
        #expect(draft.prompts.map(\.name) == ["otp"])
        // When resolving without and with an answer
        #expect(throws: CollectionError.self) { try store.resolve(SendJob(ref: ref, draft: draft, environment: nil)) }
        var job = SendJob(ref: ref, draft: draft, environment: nil)
        job.answers = ["otp": "424242"]
        let (request, _) = try store.resolve(job)
        // Then the answer is used, and dynamic variables resolve as in `courier run`
        #expect(request.url.absoluteString == "http://127.0.0.1:1/check?code=424242")
        #expect(UUID(uuidString: request.headers["X-Id"] ?? "") != nil)
    }
}
