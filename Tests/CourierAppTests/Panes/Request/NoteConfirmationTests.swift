@testable import CourierApp
import CourierCollections
import CourierHTTP
import CourierTerminal
import Foundation
import Testing

@Suite("update: # @note asks before sending")
struct NoteConfirmationTests {
    /// The explorer with "List users" open, marked `# @note` with `note` as its text.
    private func editingNoted(_ note: String) -> AppState {
        var users = Fixtures.usersFile
        users.requests[0].note = note
        var state = AppState(size: Size(width: 100, height: 30), collectionPath: "Collections", environment: "dev")
        _ = update(&state, .collectionLoaded(Collection(root: "Collections", files: [users, Fixtures.demoFile],
                                                        environments: Fixtures.collection.environments)))
        state.press(.char("2"))
        return state
    }

    @Test func sendingANotedRequestShowsTheNoteAsAQuestionAndSendsOnlyOnYes() {
        // Given "List users" marked `# @note production database`
        var state = editingNoted("production database")
        // When sending, a question appears on screen and nothing is sent
        #expect(state.press(Key(.enter)).isEmpty)
        let screen = Screen.render(state).buffer.lines().joined(separator: "\n")
        #expect(screen.contains("Send 'List users'? production database"), "\(screen)")
        // Then n closes it without sending, and the next send asks again
        #expect(state.press(.char("n")).isEmpty)
        #expect(state.modals.isEmpty)
        #expect(state.press(Key(.enter)).isEmpty)
        // And y sends, once: the send after it asks again
        let effects = state.press(.char("y"))
        guard case .send(_, let job)? = effects.first else {
            Issue.record("expected a send, got \(effects)")
            return
        }
        #expect(job.draft.name == "List users")
        #expect(!state.noteConfirmed)
        #expect(state.press(Key(.enter)).isEmpty)
        #expect(state.modals.count == 1)
    }

    @Test func aNoteWithoutTextStillAsksAndLiveModeNeverSendsIt() {
        var state = editingNoted("")
        state.press(Key(.enter))
        let screen = Screen.render(state).buffer.lines().joined(separator: "\n")
        #expect(screen.contains("Send 'List users'? it is marked @note"), "\(screen)")
        state.press(.char("n"))
        // Live mode sends on edits; a noted request waits for Send and its question.
        state.live = true
        let before = state.editor
        state.editor.url.insert("&x=1")
        #expect(state.liveSendIfEdited(since: before).isEmpty)
    }

    @Test func theStoreReadsNoteNoLogAndRunLinesFromTheFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-note-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("# @note careful\n# @no-log\nGET http://127.0.0.1:1/a\n\n### both\nrun #x\n".utf8)
            .write(to: folder.appendingPathComponent("n.http"))
        let (collection, _) = CollectionStore().load(folder.path)
        let first = try #require(collection.request(RequestRef(file: "n.http", index: 0)))
        #expect(first.note == "careful" && first.noLog)
        let block = try #require(collection.request(RequestRef(file: "n.http", index: 1)))
        #expect(block.runs == ["run #x"])
    }
}
