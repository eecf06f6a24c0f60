import CourierCollections
import CourierTestSupport
import Foundation
import Testing

/// When a cookie jar reaches the disk: after every change (`courier run`, the explorer), or only when
/// asked (`courier load`, where a server may set a cookie on every one of thousands of responses).
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

    @Test("With savesEachChange off, changes wait for saveChanges, which writes the latest jar once")
    func savesWhenAsked() throws {
        // Given a store whose changes wait
        let folder = try TemporaryFolder("jar")
        let store = CookieJarStore(directory: folder.url, savesEachChange: false)
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
}
