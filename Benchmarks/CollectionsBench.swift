import CourierCollections
import Foundation

/// Collections: loading a generated 1,000-request `.http` file and saving one edited request, each as a
/// ratio against a reference on the same bytes in the same run (Foundation's JSON parser on a JSON
/// document of the same size; a plain atomic `Data.write` of the file).
enum CollectionsBench {
    static let requests = 1000
    static let rounds = 20

    static func run() {
        let text = generated(requests)
        let json = Data(jsonOfSameSize(text.utf8.count).utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-collections-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            print("collections: cannot create a temporary folder: \(error)")
            return
        }
        let url = folder.appendingPathComponent("big.http")
        let clock = ContinuousClock()
        var parse = Duration.zero, reference = Duration.zero, save = Duration.zero, write = Duration.zero
        var parsed = 0
        for round in 0..<rounds {
            // Alternating the measured and the reference work keeps a load spike from favouring one.
            parse += clock.measure { parsed = HTTPFile(path: "big.http", text: text).requests.count }
            reference += clock.measure { _ = try? JSONSerialization.jsonObject(with: json) }
            do {
                try CollectionWriter.write(Data(text.utf8), to: url, displayPath: "big.http")
                let loaded = try CollectionLoader.loadFile(url, displayPath: "big.http")
                var edited = loaded.file.requests[requests / 2]
                edited.url += "?round=\(round)"
                let request = loaded.file.requests[requests / 2]
                save += try clock.measure { _ = try loaded.saving(edited, replacing: request) }
                let bytes = try Data(contentsOf: url)
                write += try clock.measure { try bytes.write(to: url, options: .atomic) }
            } catch {
                print("collections: save failed: \(error)")
                return
            }
        }
        let size = Double(text.utf8.count) / 1024
        print("collections: a generated file of \(parsed) requests (\(Int(size)) KiB), \(rounds) rounds")
        print(String(format: "  parse .http            %8.2f ms   %.2f× Foundation JSON parse of the same size (%.2f ms)",
                     (parse / rounds).milliseconds, parse / reference, (reference / rounds).milliseconds))
        print(String(format: "  edit one request, save %8.2f ms   %.2f× Data.write(.atomic) of the file (%.2f ms)",
                     (save / rounds).milliseconds, save / write, (write / rounds).milliseconds))
    }

    static func generated(_ count: Int) -> String {
        var text = "@base = http://127.0.0.1:8088\n"
        for index in 0..<count {
            text += "\n### Request \(index)\n# @name r\(index)\nPOST {{base}}/items/\(index)?q=a+b\n"
            text += "Content-Type: application/json\nX-Trace: {{$uuid}}\n\n{\"index\": \(index), \"name\": \"item\"}\n"
        }
        return text
    }

    static func jsonOfSameSize(_ bytes: Int) -> String {
        var items: [String] = []
        var size = 2
        var index = 0
        while size < bytes {
            let item = "{\"index\": \(index), \"name\": \"item\", \"url\": \"http://127.0.0.1:8088/items/\(index)\"}"
            items.append(item)
            size += item.utf8.count + 1
            index += 1
        }
        return "[" + items.joined(separator: ",") + "]"
    }
}
