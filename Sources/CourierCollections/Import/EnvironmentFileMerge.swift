import CourierBody
import Foundation

/// Adds imported environments to `http-client.env.json` and `http-client.private.env.json`, beside
/// environments the files already hold: an import never changes or drops one that is there, and an
/// environment of the same name already present is an error (the user picks another folder).
public enum EnvironmentFileMerge {
    /// The texts of both files after adding `exports`: public values to the first, secret ones to the second.
    /// `existingPublic` / `existingPrivate` are the files' current bytes, nil when they do not exist; a text is
    /// nil when its file needs no change.
    public static func merge(_ exports: [PostmanVariableExport], existingPublic: Data?, existingPrivate: Data?)
        throws(CollectionError) -> (publicText: String?, privateText: String?) {
        var publicMembers = try members(existingPublic, file: EnvironmentSet.publicFileName)
        var privateMembers = try members(existingPrivate, file: EnvironmentSet.privateFileName)
        var changedPrivate = false
        for export in exports {
            // The public file names every environment, so `--env NAME` finds one whose values are all secret.
            try add(export.values.filter { !$0.isSecret }, as: export.environmentName, to: &publicMembers,
                    file: EnvironmentSet.publicFileName)
            let secret = export.values.filter(\.isSecret)
            if !secret.isEmpty {
                try add(secret, as: export.environmentName, to: &privateMembers, file: EnvironmentSet.privateFileName)
                changedPrivate = true
            }
        }
        return (exports.isEmpty ? nil : text(publicMembers), changedPrivate ? text(privateMembers) : nil)
    }

    private static func add(_ values: [PostmanVariableExport.Value], as name: String,
                            to members: inout [(key: String, value: JSONValue)], file: String) throws(CollectionError) {
        guard !members.contains(where: { $0.key == name }) else {
            throw .importFailed(source: file, reason: "it already has an environment '\(name)'; "
                                    + "choose another folder with -o DIR")
        }
        var object: [(key: String, value: JSONValue)] = []
        var escaped = false
        for value in values {
            let spelled = PostmanVariableExport.spelled(value.value)
            escaped = escaped || spelled.escaped
            object.append((key: value.key, value: .string(spelled.text)))
        }
        // A brace that is data is spelled `{{lbrace}}`; the environment defines it unless it has that name.
        if escaped && !object.contains(where: { $0.key == ImportWriter.braceName }) {
            object.append((key: ImportWriter.braceName, value: .string("{")))
        }
        members.append((key: name, value: .object(object)))
    }

    /// The environments of an existing file, in their order.
    private static func members(_ data: Data?, file: String) throws(CollectionError)
        -> [(key: String, value: JSONValue)] {
        guard let data, !data.allSatisfy({ " \t\r\n".utf8.contains($0) }) else { return [] }
        guard let parsed = try? JSONValue.parse(data), case .object(let members) = parsed else {
            throw .importFailed(source: file, reason: "it exists and is not a JSON object; fix or move it first")
        }
        return members
    }

    /// Two levels indented (environments, then their values), deeper values compact.
    static func text(_ members: [(key: String, value: JSONValue)]) -> String {
        guard !members.isEmpty else { return "{}\n" }
        let environments = members.map { member -> String in
            let inner: String
            if case .object(let values) = member.value, !values.isEmpty {
                inner = "{\n" + values.map { "    " + JSONValue.quoted($0.key) + ": " + $0.value.compactJSON }
                    .joined(separator: ",\n") + "\n  }"
            } else {
                inner = member.value.compactJSON
            }
            return "  " + JSONValue.quoted(member.key) + ": " + inner
        }
        return "{\n" + environments.joined(separator: ",\n") + "\n}\n"
    }
}
