import CourierBody
import CourierCollections
import CourierHistory
import Foundation

extension ImportCommand {
    /// One `.http` file per host, the credentials in `http-client.private.env.json`, and each entry's
    /// response as the first history entry of its request.
    static func importHAR(_ path: String, output: String?) throws -> Int32 {
        let data = try readSource(path)
        let conversion = try HARImporter.convert(data, source: path)
        var files = conversion.output.files.map { ImportFolder.File(name: $0.name, text: $0.text) }
        if let text = conversion.privateEnvironment {
            files.append(.init(name: EnvironmentSet.privateFileName, text: text))
        }
        try ImportFolder.write(files, into: output)
        for note in conversion.notes { Console.error("note: \(note)") }
        let store = HistoryStore(directory: HistoryStore.defaultDirectory())
        var kept = 0
        for exchange in conversion.exchanges {
            do {
                try store.record(exchange.entry, body: exchange.body, secrets: exchange.secrets)
                kept += 1
            } catch {
                Console.error("note: \(exchange.entry.request.name ?? "a response") not kept in history: \(error)")
            }
        }
        let httpFiles = conversion.output.files.filter { $0.name.hasSuffix(".http") }.count
        Console.error("\(conversion.output.requestCount) requests in \(httpFiles) files; "
                      + "\(kept) responses kept in history")
        return 0
    }
}
