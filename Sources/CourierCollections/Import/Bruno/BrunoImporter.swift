import CourierBody
import CourierMessage
import Foundation

/// Converts a Bruno collection folder: every `.bru` request file (sorted by `meta.seq` within its folder)
/// into one `.http` file per folder, `collection.bru` and each `folder.bru`'s headers and auth passed down,
/// and `environments/*.bru` into the environment files (`vars:secret` names into the private file, empty,
/// to fill in). A `.bru` file that cannot be read is noted at its line; the others still import.
public enum BrunoImporter {
    /// What a folder passes down to its requests: headers, auth and request variables.
    struct Inherited {
        var headers: [BruFile.Pair] = []
        var auth: (mode: String, file: BruFile)?
    }

    public static func convert(folder: URL) throws(CollectionError) -> CollectionConversion {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw .importFailed(source: folder.path, reason: "not a folder (give the Bruno collection's folder)")
        }
        var notes: [String] = []
        let collectionName = (try? Data(contentsOf: folder.appendingPathComponent("bruno.json")))
            .flatMap { try? JSONValue.parse($0) }?["name"]?.stringValue ?? folder.lastPathComponent
        var root = Inherited()
        let collectionFile = folder.appendingPathComponent("collection.bru")
        if FileManager.default.fileExists(atPath: collectionFile.path),
           let collection = read(collectionFile, "collection.bru", notes: &notes) {
            root = inherit(collection, from: root)
        }
        var files: [ImportedFile] = []
        walk(folder, relative: [], inherited: root, collectionName: collectionName, files: &files, notes: &notes)
        var environments = ImportedEnvironments()
        let environmentFolder = folder.appendingPathComponent("environments")
        for name in ((try? FileManager.default.contentsOfDirectory(atPath: environmentFolder.path)) ?? []).sorted()
        where name.hasSuffix(".bru") {
            let url = environmentFolder.appendingPathComponent(name)
            guard let file = read(url, "environments/\(name)", notes: &notes) else { continue }
            let environment = String(name.dropLast(4))
            environments.declare(environment, isPrivate: false)
            for pair in file.block("vars")?.pairs ?? [] where pair.enabled {
                environments.set(pair.key, .string(BrunoText.text(pair.value).description), in: environment,
                                 isPrivate: false)
            }
            let secrets = file.block("vars:secret")?.list ?? []
            for secret in secrets { environments.set(secret, .string(""), in: environment, isPrivate: true) }
            if !secrets.isEmpty {
                notes.append("environments/\(name): secret values are not in the collection; fill in "
                             + secrets.joined(separator: ", ") + " in \(EnvironmentSet.privateFileName)")
            }
        }
        let output = ImportWriter.write(files)
        return CollectionConversion(output: output, environment: environments.publicFile,
                                    privateEnvironment: environments.privateFile, notes: notes + output.notes)
    }

    /// A `.bru` file, or nil with a note naming its line when it cannot be read.
    static func read(_ url: URL, _ relative: String, notes: inout [String]) -> BruFile? {
        guard let data = try? Data(contentsOf: url) else {
            notes.append("\(relative): cannot be read; left out")
            return nil
        }
        do { return try BruFile(String(decoding: data, as: UTF8.self)) } catch {
            notes.append("\(relative):\(error.line): \(error.message); file left out")
            return nil
        }
    }

    /// The requests of `folder` into one file, then each subfolder (but `environments`).
    private static func walk(_ folder: URL, relative: [String], inherited: Inherited, collectionName: String,
                             files: inout [ImportedFile], notes: inout [String]) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
        var inherited = inherited
        let prefix = relative.isEmpty ? "" : relative.joined(separator: "/") + "/"
        let folderFile = folder.appendingPathComponent("folder.bru")
        if !relative.isEmpty, FileManager.default.fileExists(atPath: folderFile.path),
           let file = read(folderFile, prefix + "folder.bru", notes: &notes) {
            inherited = inherit(file, from: inherited)
        }
        var requests: [(seq: Double, request: ImportedRequest)] = []
        for name in names where name.hasSuffix(".bru") && name != "folder.bru" && name != "collection.bru" {
            guard let file = read(folder.appendingPathComponent(name), prefix + name, notes: &notes) else { continue }
            guard file.blocks.contains(where: { BrunoRequestConverter.methods.contains($0.name) }) else {
                notes.append("\(prefix)\(name): no request (a graphql or other kind Courier does not import); "
                             + "left out")
                continue
            }
            var converter = BrunoRequestConverter(path: prefix + name, inherited: inherited)
            var request = converter.convert(file, fallbackName: String(name.dropLast(4)))
            notes += converter.notes
            request.name = HARImporter.uniqueName(request.name ?? "request", in: requests.map(\.request))
            requests.append((Double(file.value("seq", in: "meta") ?? "") ?? 0, request))
        }
        if !requests.isEmpty {
            let title = relative.isEmpty ? collectionName : relative.joined(separator: " - ")
            let ordered = requests.enumerated().sorted { a, b in
                a.element.seq == b.element.seq ? a.offset < b.offset : a.element.seq < b.element.seq
            }.map(\.element.request)
            let comment = "Imported from the Bruno collection '\(DataSpelling.oneLine(collectionName))'."
            files.append(ImportedFile(name: ImportWriter.sideFileStem(title) + ".http", comments: [comment],
                                      requests: ordered))
        }
        for name in names where !name.hasPrefix(".") && !(relative.isEmpty && name == "environments") {
            let child = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: child.path, isDirectory: &isFolder), isFolder.boolValue else {
                continue
            }
            walk(child, relative: relative + [name], inherited: inherited, collectionName: collectionName,
                 files: &files, notes: &notes)
        }
    }

    /// A `collection.bru` or `folder.bru` on top of what its parent passed down: its headers after the
    /// parent's (a name it repeats replaces the parent's), its auth when it has one.
    static func inherit(_ file: BruFile, from parent: Inherited) -> Inherited {
        var result = parent
        for pair in file.block("headers")?.pairs ?? [] where pair.enabled {
            result.headers.removeAll { $0.key.caseInsensitiveEquals(pair.key) }
            result.headers.append(pair)
        }
        if let mode = file.value("mode", in: "auth"), mode != "inherit" { result.auth = (mode, file) }
        return result
    }
}
