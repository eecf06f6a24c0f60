import CourierCollections
import CourierHTTP
import Foundation

/// Parses arbitrary text as a `.http` file. Invariants: parsing never crashes; rewriting any request
/// with itself gives back the exact text; an edited request keeps the file's request count; resolving
/// either builds a request or throws a typed error; the outline (templates parsed on demand) equals the
/// full parse.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(bytes: data, count: size)
    guard let text = String(data: bytes, encoding: .utf8) else { return 0 }
    let file = HTTPFile(path: "fuzz.http", text: text)
    precondition(file.text == text)
    let context = VariableContext(overrides: ["base": "http://127.0.0.1:1"], processEnvironment: [:])
    let resolver = Resolver(file: file, baseFolder: URL(fileURLWithPath: "/nonexistent"), context: context)
    // The per-request checks re-join the whole file; a handful of requests is enough to cover them
    // without making a many-request input quadratic.
    for request in file.requests.prefix(8) {
        guard let same = try? file.replacing(request: request, with: request) else {
            preconditionFailure("a request of the file was not found in it")
        }
        precondition(same == text, "rewriting an unchanged request changed the file")
        var edited = request
        edited.url = "http://127.0.0.1:1/edited"
        edited.headers.add("X-Fuzz", "1")
        if let changed = try? file.replacing(request: request, with: edited) {
            precondition(HTTPFile(path: "fuzz.http", text: changed).requests.count == file.requests.count,
                         "an edit changed the number of requests")
        }
        _ = try? file.duplicating(request, as: "copy")
        _ = try? file.deleting(request)
        _ = try? resolver.resolve(request)
    }
    // The outline `courier run --name` reads must see what the full parse sees.
    guard let outline = try? HTTPFileOutline(path: "fuzz.http", data: bytes) else {
        preconditionFailure("the outline refused a file the full parse read")
    }
    precondition(outline.entries.count == file.requests.count, "the outline found another number of requests")
    // A file opening with kulala's shared block is read whole to run any of its requests (its block lends
    // tags and headers to the requests after it), so only the whole parse's templates count there.
    for index in outline.entries.indices.prefix(outline.startsWithSharedBlock ? 0 : 8) {
        precondition((try? outline.template(at: index)) == file.requests[index], "an outlined request differs")
    }
    precondition(outline.fileVariables == file.fileVariables, "the outline's file variables differ")
    precondition(outline.diagnostics == file.diagnostics, "the outline's diagnostics differ")
    _ = file.appending(RequestTemplate(id: RequestTemplateID(file: "fuzz.http", ordinal: 0), name: "new",
                                       url: "http://127.0.0.1:1/new"))
    return 0
}
