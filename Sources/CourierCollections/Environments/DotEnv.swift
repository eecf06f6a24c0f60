import Foundation

/// Reads a `.env` file as the VS Code REST Client does for `{{$dotenv NAME}}`: `NAME=value` lines,
/// `#` comments, an optional `export ` and quotes around the value.
enum DotEnv {
    /// The file name looked for beside the `.http` file.
    static let fileName = ".env"

    /// The values in `folder/.env`; an absent file has none.
    static func load(folder: URL) throws(CollectionError) -> [String: String] {
        let url = folder.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return [:] }
        guard let data = try? Data(contentsOf: url) else {
            throw .unreadable(path: url.path, reason: "cannot read the .env file")
        }
        return parse(String(decoding: data, as: UTF8.self))
    }

    static func parse(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            var line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst(7)).trimmingCharacters(in: .whitespaces) }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            if !name.isEmpty { values[name] = value }
        }
        return values
    }
}
