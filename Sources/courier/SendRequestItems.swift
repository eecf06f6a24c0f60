import CourierBody
import CourierHTTP
import CourierMessage
import Foundation

/// How `courier send [METHOD] URL [ITEM ...]` reads its words, as HTTPie reads them, and what the request
/// items add to the request: headers, query parameters and a body (a JSON object, or a form with `--form`,
/// multipart when a file is among its fields).
enum SendRequestItems {
    /// The method, the URL and the request items of the positional words.
    struct Words: Equatable {
        var method: String?
        var url: String
        var items: [RequestItem]
    }

    /// Methods spelled in any case; any other word of capitals (`PROPFIND`) is a method too.
    static let knownMethods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"]

    /// The first word is the method when there is a word after it and it is one word of letters (HTTPie's
    /// rule) in capitals or a known method (`get`), so `courier send localhost name=Ada` sends to localhost;
    /// the next is the URL, the rest are request items.
    static func split(_ positionals: [String]) throws(UsageError) -> Words {
        guard let first = positionals.first else {
            throw UsageError("missing URL; try: courier send https://example.com/users", command: "send")
        }
        let isMethod = positionals.count > 1 && first.allSatisfy { $0.isLetter || $0 == "-" || $0 == "_" }
            && (first == first.uppercased() || knownMethods.contains(first.uppercased()))
        let method = isMethod ? first : nil
        let rest = positionals.dropFirst(isMethod ? 1 : 0)
        guard let url = rest.first else {
            throw UsageError("missing URL after \(first); try: courier send \(first) https://example.com/users",
                             command: "send")
        }
        var items: [RequestItem] = []
        for word in rest.dropFirst() {
            guard let item = RequestItem(word) else {
                throw UsageError("'\(word)' is not a request item: Name:value (header), name==value (query), "
                                 + "field=value, field:=json, field@file (with --form), field=@file or field:=@file",
                                 command: "send")
            }
            items.append(item)
        }
        return Words(method: method, url: url, items: items)
    }

    /// Adds the items to the request: headers to `headers`, query parameters to `url`; returns the body the
    /// data items make (nil when there are none), setting its Content-Type (and Accept for JSON) unless given.
    static func apply(_ items: [RequestItem], form: Bool, url: inout URL,
                      headers: inout HTTPHeaders) throws(UsageError) -> RequestBody? {
        var fields: [RequestItem] = []
        var query: [(String, String)] = []
        for item in items {
            switch item.kind {
            case .header: headers.add(item.name, item.value)
            case .headerFromFile: headers.add(item.name, try text(of: item).trimmingCharacters(in: .newlines))
            case .query: query.append((item.name, item.value))
            case .queryFromFile: query.append((item.name, try text(of: item)))
            default: fields.append(item)
            }
        }
        if !query.isEmpty { url = adding(query, to: url) }
        guard !fields.isEmpty else { return nil }
        if let file = fields.first(where: { $0.kind == .file }), !form {
            throw UsageError("'\(file.name)@\(file.value)' uploads a file, which needs --form (a multipart form)",
                             command: "send")
        }
        if form, let json = fields.first(where: { $0.kind == .json || $0.kind == .jsonFromFile }) {
            throw UsageError("'\(json.name)\(json.kind.separator)\(json.value)' is raw JSON, which a form cannot "
                             + "carry; use \(json.name)=VALUE", command: "send")
        }
        if !form {
            if !headers.contains("Content-Type") { headers["Content-Type"] = "application/json" }
            if !headers.contains("Accept") { headers["Accept"] = "application/json, */*;q=0.5" }
            return .data(Data(try jsonObject(fields).utf8))
        }
        if fields.contains(where: { $0.kind == .file }) { return try MultipartForm.body(fields, headers: &headers) }
        if !headers.contains("Content-Type") {
            headers["Content-Type"] = "application/x-www-form-urlencoded; charset=utf-8"
        }
        let pairs = try fields.map { field throws(UsageError) in
            formEncoded(field.name) + "=" + formEncoded(field.kind == .fieldFromFile ? try text(of: field) : field.value)
        }
        return .data(Data(pairs.joined(separator: "&").utf8))
    }

    /// `{"name": "Ada", "age": 3}`: fields in the order given, a name given twice an array of its values.
    private static func jsonObject(_ fields: [RequestItem]) throws(UsageError) -> String {
        var names: [String] = []
        var values: [String: [String]] = [:]
        for field in fields {
            let value: String
            switch field.kind {
            case .field: value = JSONValue.quoted(field.value)
            case .fieldFromFile: value = JSONValue.quoted(try text(of: field))
            case .json: value = try rawJSON(field.value, item: field)
            default: value = try rawJSON(try text(of: field), item: field)
            }
            if values[field.name] == nil { names.append(field.name) }
            values[field.name, default: []].append(value)
        }
        let members = names.map { name in
            let list = values[name] ?? []
            let value = list.count == 1 ? list[0] : "[" + list.joined(separator: ", ") + "]"
            return JSONValue.quoted(name) + ": " + value
        }
        return "{" + members.joined(separator: ", ") + "}"
    }

    /// The JSON text of a `:=` item, checked to be JSON.
    private static func rawJSON(_ text: String, item: RequestItem) throws(UsageError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (try? JSONSerialization.jsonObject(with: Data(trimmed.utf8), options: .fragmentsAllowed)) != nil else {
            throw UsageError("'\(item.name)\(item.kind.separator)\(item.value)' is not JSON; quote a string as "
                             + "'\(item.name)=…', or write JSON: 3, true, [1, 2], {\"a\": 1}", command: "send")
        }
        return trimmed
    }

    /// The contents of the file an `@` item names, as text.
    static func text(of item: RequestItem) throws(UsageError) -> String {
        guard let data = FileManager.default.contents(atPath: item.value) else {
            throw UsageError("cannot read the file '\(item.value)' of '\(item.name)\(item.kind.separator)"
                             + "\(item.value)'", command: "send")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// `url` with `pairs` added to its query, each name and value percent-encoded (a `+` stays a plus).
    private static func adding(_ pairs: [(String, String)], to url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        let added = pairs.map { encoded($0.0) + "=" + encoded($0.1) }.joined(separator: "&")
        let existing = components.percentEncodedQuery.flatMap { $0.isEmpty ? nil : $0 }
        components.percentEncodedQuery = existing.map { $0 + "&" + added } ?? added
        return components.url ?? url
    }

    private static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: URLBuilder.unreserved) ?? text
    }

    /// application/x-www-form-urlencoded: unreserved characters as they are, a space as `+`, the rest escaped.
    private static func formEncoded(_ text: String) -> String {
        encoded(text).replacingOccurrences(of: "%20", with: "+")
    }
}
