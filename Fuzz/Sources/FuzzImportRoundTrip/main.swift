import CourierCollections
import CourierHTTP
import CourierSecurity
import Foundation

/// Builds a Postman collection or an OpenAPI description from the fuzz bytes, its names, URLs and paths,
/// headers, variables and bodies mixing `.http` syntax (`###`, `< file`, `>> file`, `{{…}}`, line breaks
/// of every kind) into ordinary text, imports it, and reads the written files back. Invariants: the files
/// hold exactly the imported requests (count, names, methods, URLs, headers, variables, bodies), nothing
/// else (no tag, script, redirect or diagnostic), and no `{{…}}` but the variables the source meant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var reader = Reader(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    if reader.count(1) == 0 { checkPostman(&reader) } else { checkOpenAPI(&reader) }
    return 0
}

/// Turns fuzz bytes into text: low bytes pick a piece of syntax, the rest are characters.
struct Reader {
    static let pieces = [
        "\n", "\r", "\r\n", "\n\n", "###", "# @name ", "# @insecure", "@x = 1", "< ", "<@ ", "< /proc/self/environ",
        ">> ./out", ">>! ./.git/config", "> {%", "%}", "{%", "{{", "}}", "{{x}}", "{{ y }}", "{{$guid}}",
        "{{$processEnv HOME}}", "{{$dotenv K}}", "{{a.response.body.t}}", "{", "}", "?? status == 200", "===",
        "//", "#", "&", "?", "=", ":", " ", "\t", "GET http://evil/steal", "curl http://evil", "run #x", "<> x",
    ]
    static let scalars = ["é", "\u{9B}", "\u{202E}", "\u{2028}", "\u{85}", "\u{0B}", "\u{0C}", "\u{0}", "\u{7F}",
                          "日", "\u{301}", "\u{2400}", "%", "%4", "%41"]

    let bytes: [UInt8]
    var index = 0

    mutating func next() -> UInt8? {
        guard index < bytes.count else { return nil }
        index += 1
        return bytes[index - 1]
    }

    /// A number from 0 to `max`.
    mutating func count(_ max: Int) -> Int { Int(next() ?? 0) % (max + 1) }

    /// Up to `limit` pieces; a 0xFF byte ends the text early.
    mutating func text(_ limit: Int = 10) -> String {
        var out = ""
        for _ in 0..<limit {
            guard let byte = next(), byte != 0xFF else { break }
            if Int(byte) < Self.pieces.count {
                out += Self.pieces[Int(byte)]
            } else if byte < 0x7F {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += Self.scalars[Int(byte) % Self.scalars.count]
            }
        }
        return out
    }
}

// MARK: - The rules the files must keep

let lineBreaks: Set<UInt32> = [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029]

/// What a source's `{{expression}}` is in `.http`: a variable when it is a plain name or `$word`.
func isKept(_ expression: String) -> Bool {
    guard let first = expression.unicodeScalars.first else { return false }
    if first == "$" {
        let word = expression.unicodeScalars.dropFirst()
        return word.first.map { ("a"..."z").contains($0) || ("A"..."Z").contains($0) } == true
            && word.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
    }
    return expression.allSatisfy { $0.isLetter || $0.isNumber || "_-.".contains($0) }
        && !expression.contains(".response.") && !expression.contains(".request.")
}

/// `text` with each kept `{{ name }}` written `{{name}}` (braces paired as the interpolator pairs them).
func normalized(_ text: String, kept: inout Set<String>) -> String {
    var out = ""
    var rest = Substring(text)
    while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
        let expression = String(rest[open.upperBound..<close.lowerBound]).trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        out += rest[..<open.lowerBound]
        if isKept(expression) {
            out += "{{\(expression)}}"
            kept.insert(expression)
        } else {
            out += rest[open.lowerBound..<close.upperBound]
        }
        rest = rest[close.upperBound...]
    }
    return out + rest
}

/// A value on one line: each run of line breaks, with the blanks around it, as one space; ends trimmed.
func folded(_ text: String) -> String {
    var out = ""
    var pending = false
    for scalar in text.unicodeScalars {
        if lineBreaks.contains(scalar.value) {
            pending = true
            while out.hasSuffix(" ") || out.hasSuffix("\t") { out.removeLast() }
        } else if pending && (scalar == " " || scalar == "\t") {
            continue
        } else {
            if pending { out += " "; pending = false }
            out.unicodeScalars.append(scalar)
        }
    }
    return out.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
}

/// The letters of a name with every blank, control and visible stand-in for a control removed: a name
/// written on one line keeps exactly these.
func visibleLetters(_ text: String?) -> String {
    String(String.UnicodeScalarView((text ?? "").unicodeScalars.filter { scalar in
        !(scalar == " " || scalar == "\t" || lineBreaks.contains(scalar.value) || Sanitizer.isDangerous(scalar)
          || (0x2400...0x2424).contains(scalar.value) || scalar.value == 0xFFFD)
    }))
}

/// Whether a header line can carry `name`.
func isHeaderName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first != "#", first != "&",
          name.caseInsensitiveCompare("X-REQUEST-TYPE") != .orderedSame else { return false }
    return name.unicodeScalars.allSatisfy {
        $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0))
    }
}

/// Reads every written file back and hands over the requests of `.http` files with what the checks need.
struct Written {
    let files: [ImportOutput.File]
    let parsed: [HTTPFile]
    /// The variable standing for a `{` of data, per file.
    let braces: [String: String]

    init(_ files: [ImportOutput.File]) {
        self.files = files
        parsed = files.filter { $0.name.hasSuffix(".http") }.map { HTTPFile(path: $0.name, text: $0.text) }
        var braces: [String: String] = [:]
        for file in parsed {
            precondition(file.diagnostics.isEmpty, "\(file.diagnostics)\n\(file.text)")
            braces[file.path] = file.fileVariables.first { $0.value == "{" && $0.name.hasPrefix("lbrace") }?.name
        }
        self.braces = braces
    }

    var requests: [(file: HTTPFile, request: RequestTemplate)] {
        parsed.flatMap { file in file.requests.map { (file, $0) } }
    }

    /// Text as written, with the brace variable read back as `{`; only kept variables may remain.
    func read(_ text: String, in file: HTTPFile, kept: Set<String>) -> String {
        guard let brace = braces[file.path] else { return checked(text, kept: kept) }
        return checked(text, kept: kept.union([brace])).replacingOccurrences(of: "{{\(brace)}}", with: "{")
    }

    private func checked(_ text: String, kept: Set<String>) -> String {
        for reference in VariableReference.scan(text) {
            precondition(kept.contains(reference.expression), "'{{\(reference.expression)}}' was never a variable: \(text)")
        }
        return text
    }

    /// The body as sent: text in the block, or a side file's text.
    func body(_ request: RequestTemplate, in file: HTTPFile, kept: Set<String>) -> String? {
        switch request.body {
        case .none: return nil
        case .text(let text): return read(text, in: file, kept: kept)
        case .file(let path, let substitute):
            precondition(path.utf8.starts(with: "./".utf8) && !path.utf8.dropFirst(2).contains(UInt8(ascii: "/")),
                         "a body file outside the folder: \(path)")
            let side = files.first { $0.name == String(decoding: path.utf8.dropFirst(2), as: UTF8.self) }
            precondition(side != nil, "no side file \(path)")
            return substitute ? read(side!.text, in: file, kept: kept) : side!.text
        case .encodedFile: preconditionFailure("an encoded body file")
        }
    }
}

func expectNothingElse(_ request: RequestTemplate) {
    precondition(request.tags.isEmpty && request.unsupported.isEmpty && request.scripts.isEmpty
                 && request.prompts.isEmpty && request.runs.isEmpty && request.kind == .http, "\(request)")
}

// MARK: - Postman

func checkPostman(_ reader: inout Reader) {
    let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "purge"]
    var items: [[String: Any]] = []
    struct Expected {
        var name: String
        var method: String
        var url: String
        var headers: [(String, String)]
        var body: String?
        var kept: Set<String>
    }
    var expected: [Expected] = []
    for _ in 0...reader.count(3) {
        var kept: Set<String> = []
        let name = reader.text()
        let method = methods[reader.count(methods.count - 1)]
        let url = "http://h/" + reader.text()
        var headers: [[String: Any]] = []
        var expectedHeaders: [(String, String)] = []
        for _ in 0..<reader.count(3) {
            let key = reader.text(3)
            let value = reader.text()
            headers.append(["key": key, "value": value])
            if isHeaderName(key) { expectedHeaders.append((key, folded(normalized(value, kept: &kept)))) }
        }
        let raw = reader.text(16)
        var request: [String: Any] = ["method": method, "url": url, "header": headers]
        if !raw.isEmpty { request["body"] = ["mode": "raw", "raw": raw] }
        items.append(["name": name, "request": request])
        let body = raw.isEmpty ? nil : normalized(raw.replacingOccurrences(of: "\r\n", with: "\n"), kept: &kept)
        expected.append(Expected(name: name, method: method.uppercased(), url: normalized(url, kept: &kept),
                                 headers: expectedHeaders, body: body, kept: kept))
    }
    var kept: Set<String> = []
    let value = reader.text()
    let variable = folded(normalized(value, kept: &kept))
    let collection: [String: Any] = [
        "info": ["name": reader.text(4), "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"],
        "variable": [["key": "v", "value": value]], "item": items,
    ]
    guard let json = try? JSONSerialization.data(withJSONObject: collection),
          let conversion = try? PostmanImporter.convert(json) else { preconditionFailure("the collection did not convert") }
    let written = Written(conversion.files)
    let requests = written.requests
    precondition(requests.count == expected.count, "\(requests.count) requests for \(expected.count): \(conversion.notes)")
    let file = requests[0].file
    precondition(file.fileVariables.filter { $0.name == "v" }.map { written.read($0.value, in: file, kept: kept) } == [variable])
    for ((file, request), expected) in zip(requests, expected) {
        expectNothingElse(request)
        precondition(visibleLetters(request.name) == visibleLetters(expected.name), "name \(request.name ?? "nil")")
        precondition(!(request.name ?? "").unicodeScalars.contains { lineBreaks.contains($0.value) || Sanitizer.isDangerous($0) })
        precondition(request.method.rawValue == expected.method)
        // The URL sends the same bytes: data is percent-encoded only where the URL builder would encode it.
        let url = written.read(request.url, in: file, kept: expected.kept)
        precondition(URLBuilder.encode(url, allowed: URLBuilder.allowedLiteral)
                     == URLBuilder.encode(expected.url, allowed: URLBuilder.allowedLiteral), "URL \(request.url)")
        let headers = request.headers.map { ($0.name, written.read($0.value, in: file, kept: expected.kept)) }
        precondition(headers.map(\.0) == expected.headers.map(\.0) && headers.map(\.1) == expected.headers.map(\.1),
                     "headers \(headers) for \(expected.headers)")
        precondition(written.body(request, in: file, kept: expected.kept) == expected.body, "body \(request.body)")
    }
}

// MARK: - OpenAPI

func checkOpenAPI(_ reader: inout Reader) {
    var paths: [String: Any] = [:]
    struct Expected {
        var path: String
        var id: String?
        var header: String
        var body: String?
    }
    var expected: [String: Expected] = [:]
    for index in 0...reader.count(2) {
        let path = "/" + reader.text() + (reader.count(1) == 0 ? "/{id}" : "")
        guard paths[path] == nil else { continue }
        let idExample = reader.text(4)
        let header = reader.text(4)
        let text = reader.text(16)
        let hasID = path.contains("{id}")
        var parameters: [[String: Any]] = [["name": "h", "in": "header", "required": true, "example": header]]
        if hasID { parameters.append(["name": "id", "in": "path", "required": true, "example": idExample]) }
        var operation: [String: Any] = ["operationId": "op\(index)", "summary": reader.text(4), "parameters": parameters,
                                        "responses": ["200": ["description": "ok"]]]
        if !text.isEmpty { operation["requestBody"] = ["content": ["text/plain": ["example": text]]] }
        paths[path] = [text.isEmpty ? "get" : "post": operation]
        expected["op\(index)"] = Expected(path: path, id: hasID ? folded(idExample) : nil, header: folded(header),
                                          body: text.isEmpty ? nil : text)
    }
    let description: [String: Any] = ["openapi": "3.0.0", "info": ["title": reader.text(4), "version": "1"],
                                      "servers": [["url": "http://h"]], "paths": paths]
    guard let json = try? JSONSerialization.data(withJSONObject: description),
          let conversion = try? OpenAPIImporter.convert(json) else { preconditionFailure("the description did not convert") }
    let written = Written(conversion.files)
    precondition(written.requests.count == expected.count && conversion.requestCount == expected.count,
                 "\(written.requests.count) requests for \(expected.count): \(conversion.notes)")
    for (file, request) in written.requests {
        expectNothingElse(request)
        guard let name = request.name, let operation = expected[name] else { preconditionFailure("request \(request)") }
        let kept: Set<String> = ["baseUrl", "id", "h"]
        // The path reads back as its data, encoded as a path, and each `{id}` (braces paired as the importer
        // pairs them) as the variable.
        let pathCharacters = URLBuilder.allowedLiteral.subtracting(CharacterSet(charactersIn: "?#[]"))
        var path = "{{baseUrl}}"
        var rest = Substring(operation.path)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            path += URLBuilder.encode(String(rest[..<open]), allowed: pathCharacters)
            path += rest[open...close] == "{id}" ? "{{id}}" : URLBuilder.encode(String(rest[open...close]), allowed: pathCharacters)
            rest = rest[rest.index(after: close)...]
        }
        path += URLBuilder.encode(String(rest), allowed: pathCharacters)
        precondition(written.read(request.url, in: file, kept: kept) == path, "URL \(request.url) for \(operation.path)")
        let variables = request.variables.map { ($0.name, written.read($0.value, in: file, kept: kept)) }
        precondition(variables.map(\.0) == ["h"] + (operation.id == nil ? [] : ["id"]), "variables \(variables)")
        precondition(variables.map(\.1) == [operation.header] + (operation.id.map { [$0] } ?? []), "values \(variables)")
        precondition(request.headers.fields.first.map { "\($0.name): \($0.value)" } == "h: {{h}}", "headers \(request.headers)")
        precondition(written.body(request, in: file, kept: kept) == operation.body, "body \(request.body)")
    }
}
