import Foundation

// What crosses the socket between Courier and a script process (`ScriptProcess`): a script and its input one
// way, its result the other, as JSON (the other types say `Codable` where they are declared). Every field a
// script reads or sets is carried, secrets included (the socket is private to the two processes and nothing is
// written to disk), so a script runs the same in either place. Only `isCancelled` and the services stay
// behind: the parent answers the one by killing the child, the other when the child asks (`ScriptFrame`).

extension ScriptPhase: Codable {}
extension ScriptDialect: Codable {}

extension ScriptInput: Codable {
    private enum CodingKeys: String, CodingKey {
        case phase, request, response, environment, globals, requestVariables, timeLimit, dialect, scope, file,
             folder, iterationData, iteration, iterationCount, fileVariables, environmentName
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(phase: try values.decode(ScriptPhase.self, forKey: .phase),
                  request: try values.decode(ScriptRequest.self, forKey: .request),
                  response: try values.decodeIfPresent(ScriptResponse.self, forKey: .response),
                  environment: try values.decode([String: String].self, forKey: .environment),
                  globals: try values.decode([String: String].self, forKey: .globals),
                  requestVariables: try values.decode([String: String].self, forKey: .requestVariables),
                  timeLimit: try values.decode(Double.self, forKey: .timeLimit))
        dialect = try values.decode(ScriptDialect.self, forKey: .dialect)
        scope = try values.decode([String: String].self, forKey: .scope)
        file = try values.decode(String.self, forKey: .file)
        folder = try values.decode(String.self, forKey: .folder)
        iterationData = try values.decode([String: String].self, forKey: .iterationData)
        iteration = try values.decode(Int.self, forKey: .iteration)
        iterationCount = try values.decode(Int.self, forKey: .iterationCount)
        fileVariables = try values.decode([String: String].self, forKey: .fileVariables)
        environmentName = try values.decode(String.self, forKey: .environmentName)
    }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(phase, forKey: .phase)
        try values.encode(request, forKey: .request)
        try values.encodeIfPresent(response, forKey: .response)
        try values.encode(environment, forKey: .environment)
        try values.encode(globals, forKey: .globals)
        try values.encode(requestVariables, forKey: .requestVariables)
        try values.encode(timeLimit, forKey: .timeLimit)
        try values.encode(dialect, forKey: .dialect)
        try values.encode(scope, forKey: .scope)
        try values.encode(file, forKey: .file)
        try values.encode(folder, forKey: .folder)
        try values.encode(iterationData, forKey: .iterationData)
        try values.encode(iteration, forKey: .iteration)
        try values.encode(iterationCount, forKey: .iterationCount)
        try values.encode(fileVariables, forKey: .fileVariables)
        try values.encode(environmentName, forKey: .environmentName)
    }
}

/// One script and what it reads: what Courier writes to a script process.
struct ScriptJob: Codable {
    var source: ScriptSource
    var input: ScriptInput
    /// Whether Courier answers the script's requests (`pm.sendRequest`) and dynamic variables: the services
    /// themselves stay behind, and the child asks for them over the socket.
    var canSend = false
    var knowsDynamic = false
    var hasCookieJar = false
}
