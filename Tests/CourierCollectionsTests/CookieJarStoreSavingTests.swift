import CourierCollections
import CourierTestSupport
import Foundation
import Testing

/// When a cookie jar reaches the disk: after every change (the explorer), at most once an interval and when
/// told (`courier run`), or only when told (`courier load`, where a server may set a cookie on every one of
/// thousands of responses).
@Suite struct CookieJarStoreSavingTests {
    static let url = URL(string: "http://127.0.0.1/")!

    @Test("By default a jar is saved as soon as a response sets a cookie")
    func savesEachChange() throws {
        // Given a store that saves each change
        let folder = try TemporaryFolder("jar")
        let store = CookieJarStore(directory: folder.url)

        // When a response sets a cookie
        store.jar("dev").store(setCookie: ["session=a"], from: Self.url)

        // Then the file holds it at once
        let saved = try String(contentsOf: store.file("dev"), encoding: .utf8)
        #expect(saved.contains("\"session\""))
    }

    @Test("Saving when told, changes wait for saveChanges, which writes the latest jar once")
    func savesWhenAsked() throws {
        // Given a store whose changes wait
        let folder = try TemporaryFolder("jar")
        let store = CookieJarStore(directory: folder.url, saving: .whenTold)
        let jar = store.jar("dev")

        // When responses set a cookie again and again
        for value in 1...50 { jar.store(setCookie: ["n=\(value)"], from: Self.url) }

        // Then nothing is written until saveChanges, which writes the last value
        #expect(!FileManager.default.fileExists(atPath: store.file("dev").path))
        store.saveChanges()
        let saved = try String(contentsOf: store.file("dev"), encoding: .utf8)
        #expect(saved.contains("\"50\"") && !saved.contains("\"49\""), "\(saved)")

        // And a second saveChanges with nothing changed writes nothing
        try FileManager.default.removeItem(at: store.file("dev"))
        store.saveChanges()
        #expect(!FileManager.default.fileExists(atPath: store.file("dev").path))
    }

    @Test("Saving at most once an interval, the first change is saved at once and later ones with the next due save")
    func savesAtMostOnceAnInterval() throws {
        // Given a store that saves at most once an hour
        let folder = try TemporaryFolder("jar")
        let store = CookieJarStore(directory: folder.url, saving: .atMostEvery(.seconds(3600)))
        let jar = store.jar("dev")

        // When a login sets its cookie, then it is on disk at once (a run killed after it keeps it)
        jar.store(setCookie: ["session=login"], from: Self.url)
        #expect(try String(contentsOf: store.file("dev"), encoding: .utf8).contains("\"login\""))

        // When every later response sets a cookie, then the file keeps the saved jar until the run saves it
        for value in 1...50 { jar.store(setCookie: ["lb=\(value)"], from: Self.url) }
        #expect(!(try String(contentsOf: store.file("dev"), encoding: .utf8)).contains("\"lb\""))
        store.saveChanges()
        let saved = try String(contentsOf: store.file("dev"), encoding: .utf8)
        #expect(saved.contains("\"50\"") && saved.contains("\"login\""), "\(saved)")
    }

    @Test("Saving at most once an interval, a change after the interval is saved at once")
    func savesAgainOnceTheIntervalHasPassed() async throws {
        let folder = try TemporaryFolder("jar")
        let store = CookieJarStore(directory: folder.url, saving: .atMostEvery(.milliseconds(50)))
        let jar = store.jar("dev")
        jar.store(setCookie: ["lb=1"], from: Self.url)
        jar.store(setCookie: ["lb=2"], from: Self.url)
        try await Task.sleep(for: .milliseconds(60))
        jar.store(setCookie: ["lb=3"], from: Self.url)
        #expect(try String(contentsOf: store.file("dev"), encoding: .utf8).contains("\"3\""))
    }
}
