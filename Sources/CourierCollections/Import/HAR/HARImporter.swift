import CourierBody
import CourierHistory
import CourierSecurity
import Foundation

/// What `courier import har` writes: the `.http` files, the private environment holding the credentials
/// the HAR carried, and each entry's response, to be kept as the first history entry of its request.
public struct HARConversion: Sendable {
    public var output: ImportOutput
    /// `http-client.private.env.json`, when the HAR carried cookies or credentials.
    public var privateEnvironment: String?
    public var exchanges: [ImportedExchange]
    /// Entries left out or changed, each named by its JSON path (`log.entries[3]`).
    public var notes: [String]
}

/// A response an import found beside its request, for history: the entry as recorded, its body, and the
/// secret values to mask in both.
public struct ImportedExchange: Sendable {
    public var entry: HistoryEntry
    public var body: Data
    public var secrets: [String]
}

/// Converts a HAR 1.2 log (saved by a browser's network panel) into one `.http` file per host. Each entry
/// becomes a named request with the headers the browser sent, less those the client sets itself
/// (`HARImporter.droppedHeaders`); credentials (`Cookie`, `Authorization`, any header or query parameter the
/// secret policy names) go to the private environment as variables; the entry's response is kept for history.
public enum HARImporter {
    /// Headers left out, with why: HTTP/2 pseudo-headers (a name starting with `:`) are left out too.
    public static let droppedHeaders: [String: String] = [
        "host": "libcurl writes it from the URL",
        "content-length": "libcurl counts the body it sends",
        "connection": "hop-by-hop; libcurl manages the connection",
        "keep-alive": "hop-by-hop",
        "proxy-connection": "hop-by-hop",
        "transfer-encoding": "libcurl frames the body",
        "te": "hop-by-hop",
        "upgrade": "hop-by-hop",
        "accept-encoding": "Courier offers the codings it decodes",
    ]

    /// Converts the HAR's JSON; `source` names it in errors.
    public static func convert(_ data: Data, source: String = "HAR file") throws(CollectionError) -> HARConversion {
        let root = try ImportJSON.parse(data, source: source)
        guard let entries = root["log"]?["entries"]?.arrayValue else {
            throw .importFailed(source: source, reason: "expected a HAR log with 'log.entries'")
        }
        var secrets = PrivateVariables()
        var files: [(name: String, requests: [ImportedRequest])] = []
        var pending: [(file: String, name: String, entry: JSONValue, request: ImportedRequest)] = []
        var notes: [String] = []
        for (index, entry) in entries.enumerated() {
            let path = "log.entries[\(index)]"
            guard let request = entry["request"], let urlText = request["url"]?.stringValue,
                  let method = request["method"]?.stringValue else {
                notes.append("\(path): no request with a method and a URL; entry left out")
                continue
            }
            guard let url = URLComponents(string: urlText), let scheme = url.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty else {
                notes.append("\(path): \(DataSpelling.oneLine(String(urlText.prefix(60)))) is not an http(s) URL; "
                              + "entry left out")
                continue
            }
            let fileName = fileName(host: host, port: url.port, scheme: scheme)
            let fileIndex = files.firstIndex { $0.name == fileName } ?? {
                files.append((fileName, []))
                return files.count - 1
            }()
            let name = uniqueName(requestName(method: method, path: url.path), in: files[fileIndex].requests)
            var converter = HARRequestConverter(path: path, secrets: secrets)
            let imported = converter.convert(request, method: method, url: urlText, name: name)
            secrets = converter.secrets
            notes += converter.notes
            files[fileIndex].requests.append(imported)
            pending.append((fileName, name, entry, imported))
        }
        let output = ImportWriter.write(files.map { file in
            ImportedFile(name: file.name, comments: ["Imported from \(DataSpelling.oneLine(source))."],
                         requests: file.requests)
        })
        let secretValues = secrets.values.map(\.value)
        let exchanges = pending.compactMap { item in
            HARExchange.make(item.entry, request: item.request, name: item.name, file: item.file,
                             secrets: secretValues)
        }
        return HARConversion(output: output, privateEnvironment: secrets.isEmpty ? nil : secrets.environmentFile(),
                             exchanges: exchanges, notes: notes + output.notes)
    }

    /// `example.com.http`, or `127.0.0.1-8080.http` for a port that is not the scheme's own.
    static func fileName(host: String, port: Int?, scheme: String) -> String {
        let standard = scheme == "https" ? 443 : 80
        let suffix = port.map { $0 == standard ? "" : "-\($0)" } ?? ""
        // An IPv6 literal's brackets and colons make no file name.
        let bare = host.trimmingCharacters(in: ["[", "]"]).replacingOccurrences(of: ":", with: "-")
        let stem = ImportWriter.sideFileStem(bare)
        return stem + suffix + ".http"
    }

    /// `get-users` from `GET /api/users/`: the method and the last path segment.
    static func requestName(method: String, path: String) -> String {
        let segment = path.split(separator: "/").last.map(String.init)?.removingPercentEncoding ?? ""
        let word = PrivateVariables.slug(segment)
        return method.lowercased() + "-" + (word.isEmpty ? "root" : word)
    }

    /// `name`, or `name-2`, … when a request of the file already has it.
    static func uniqueName(_ name: String, in requests: [ImportedRequest]) -> String {
        var candidate = name
        var number = 2
        while requests.contains(where: { $0.name == candidate }) {
            candidate = "\(name)-\(number)"
            number += 1
        }
        return candidate
    }
}
