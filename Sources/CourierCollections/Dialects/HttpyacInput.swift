/// httpyac's values asked of the user: `{{$input PROMPT $value: DEFAULT}}`, `{{$password PROMPT}}`,
/// `{{$pick PROMPT $value: a,b}}`, each also as `-askonce` (Courier asks once per send anyway).
struct HttpyacInput: Equatable {
    /// The text shown when asking (`Auth token?`).
    var prompt: String
    /// What `$value:` gives for `$input` and `$password`.
    var defaultValue: String?
    /// `$pick`'s choices; it has no default.
    var choices: [String]
    /// `$password`: the answer is masked.
    var isSecret: Bool

    /// The kinds, as httpyac spells them after `$`.
    static let inputWords = ["input", "password", "prompt"]
    static let pickWord = "pick"

    /// Reads the expression inside `{{ }}` (without the braces); nil when it is not one of these.
    init?(_ expression: String) {
        guard expression.hasPrefix("$") else { return nil }
        let body = expression.dropFirst()
        let word = String(body.prefix { $0.isLetter })
        guard Self.inputWords.contains(word) || word == Self.pickWord else { return nil }
        var rest = body.dropFirst(word.count)
        if rest.hasPrefix("-askonce") { rest = rest.dropFirst("-askonce".count) }
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        var value: String?
        if let marker = rest.range(of: "$value:") {
            value = String(rest[marker.upperBound...]).trimmingBlanks
            rest = rest[..<marker.lowerBound]
        }
        let prompt = rest.trimmingBlanks
        guard !prompt.isEmpty else { return nil }
        self.prompt = prompt
        isSecret = word == "password"
        if word == Self.pickWord {
            choices = (value ?? "").split(separator: ",").map { String($0).trimmingBlanks }.filter { !$0.isEmpty }
            defaultValue = nil
        } else {
            choices = []
            defaultValue = value
        }
    }

    /// The prompt a `@name = {{$input …}}` definition stands for, so the explorer asks for it before a send.
    static func prompt(definedBy definition: VariableDefinition) -> PromptVariable? {
        let value = definition.value.trimmingBlanks
        guard value.hasPrefix("{{"), value.hasSuffix("}}"), value.count > 4 else { return nil }
        let inner = String(value.dropFirst(2).dropLast(2)).trimmingBlanks
        guard !inner.contains("{{"), let input = HttpyacInput(inner) else { return nil }
        var description = input.prompt
        if !input.choices.isEmpty { description += " (one of " + input.choices.joined(separator: ", ") + ")" }
        return PromptVariable(name: definition.name, description: description, isSecret: input.isSecret,
                              defaultValue: input.defaultValue)
    }

    /// `request` with the prompts of the `{{$input …}}` definitions it uses (its own, and the file's it
    /// reaches through other variables), so the explorer asks for them as for `# @prompt`.
    static func addingPrompts(to request: RequestTemplate, fileVariables: [VariableDefinition]) -> RequestTemplate {
        var request = request
        addPrompts(to: &request, fileVariables: fileVariables,
                   filePrompts: fileVariables.compactMap(prompt(definedBy:)))
        return request
    }

    /// `addingPrompts` in place, with the prompts of the file's definitions read once for all its requests
    /// (`filePrompts`): a request that uses none is not touched, let alone copied.
    static func addPrompts(to request: inout RequestTemplate, fileVariables: [VariableDefinition],
                           filePrompts: [PromptVariable]) {
        var found = request.variables.compactMap(prompt(definedBy:))
        if !filePrompts.isEmpty {
            var used = CollectionRunner.variableNames(in: request.sourceText)
            var pending = Array(used)
            // Through file variables that use others (bounded: each name is visited once).
            while let name = pending.popLast() {
                for definition in fileVariables where definition.name == name {
                    for next in CollectionRunner.variableNames(in: definition.value)
                    where used.insert(next).inserted {
                        pending.append(next)
                    }
                }
            }
            found += filePrompts.filter { used.contains($0.name) }
        }
        for prompt in found where !request.prompts.contains(where: { $0.name == prompt.name }) {
            request.prompts.append(prompt)
        }
    }
}
