import CourierSecurity
import CourierCollections
import CourierDemo
import Foundation

/// The demo collection written from the binary to `$XDG_STATE_HOME/courier/demo/`, so `courier demo`
/// works from any folder and writes nothing into the current one.
enum DemoCollectionCopy {
    /// `$XDG_STATE_HOME/courier/demo`, else `~/.local/state/courier/demo`.
    static func folder(environment: [String: String]) -> URL {
        StateFolder.url("demo", environment: environment)
    }

    /// Writes `demo.http` and its `http-client.env.json` when they are missing and returns the `.http`
    /// file. An existing copy is left as it is: edits saved to it in the explorer survive the next run.
    static func prepare(environment: [String: String]) throws -> URL {
        let folder = folder(environment: environment)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let files = [("demo.http", DemoCollectionFiles.http), ("http-client.env.json", DemoCollectionFiles.environment)]
        for (name, text) in files {
            let url = folder.appendingPathComponent(name)
            if !FileManager.default.fileExists(atPath: url.path) {
                try CollectionWriter.write(Data(text.utf8), to: url, displayPath: url.path)
            }
        }
        return folder.appendingPathComponent("demo.http")
    }
}
