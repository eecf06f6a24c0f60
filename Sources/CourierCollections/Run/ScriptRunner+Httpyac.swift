import CourierHTTP
import CourierScript
import Foundation

/// What httpyac's scripts add to a send: the file's own scripts around each request, the variables a script
/// sees as globals, and the changes a pre-request script makes to `request`.
extension ScriptRunner {
    /// The scripts that run before `template`: the file's once-scripts (the first time in this run or send),
    /// the file's every-request scripts, then the request's own, in file order.
    func preRequestScripts(of template: RequestTemplate, context: inout VariableContext) -> [RequestScript] {
        var scripts: [RequestScript] = []
        let once = file.fileScripts.filter { $0.fileScope == .once }
        if !once.isEmpty && !context.ranFileScripts.contains(file.path) {
            scripts += once
            context.ranFileScripts.insert(file.path)
        }
        scripts += file.fileScripts.filter { $0.fileScope == .everyRequest && $0.phase == .preRequest }
        return scripts + template.scripts.filter { $0.phase == .preRequest }
    }

    /// Runs the file's once-scripts now, when they have not run in this run: a loop's list may come from
    /// what they export. Their tests, logs and error go into `report`.
    func runOnceScripts(before template: RequestTemplate, context: inout VariableContext,
                        report: inout ScriptReport) {
        let once = file.fileScripts.filter { $0.fileScope == .once }
        guard !once.isEmpty, !context.ranFileScripts.contains(file.path) else { return }
        context.ranFileScripts.insert(file.path)
        for script in once {
            var input = ScriptInput(phase: .preRequest, request: scriptRequest(template, preview: nil),
                                    environment: environmentValues(context), globals: context.globals,
                                    timeLimit: Self.timeLimit(for: template))
            describeHttpyacScope(of: template, context: context, into: &input)
            let result = run(script, input: input, access: context.fileAccess, report: &report)
            context.globals = result.globals
            if result.error != nil { return }
        }
    }

    /// Fills in what an httpyac script sees: every variable the request can use, by name and substituted (a
    /// name that does not resolve is left out), and each answered named request's body under its name.
    func describeHttpyacScope(of template: RequestTemplate, context: VariableContext, into input: inout ScriptInput) {
        input.dialect = .httpyac
        input.folder = baseFolder.path
        input.file = baseFolder.appendingPathComponent((file.path as NSString).lastPathComponent).path
        let interpolator = Interpolator(requestName: template.displayName, local: template.variables,
                                        file: file.fileVariables, context: context, folder: baseFolder,
                                        elsewhere: file.definitionElsewhere(than: template))
        input.scope = interpolator.scriptScope()
        input.literalNames = Set(input.scope.keys.filter { name in
            (template.variables.last { $0.name == name } ?? file.fileVariables.last { $0.name == name })
                .flatMap { Interpolator.literalExpression($0.value) } != nil
        })
    }
}

/// The URL, method and body an httpyac pre-request script set on `request`, applied once the request is
/// resolved (its headers go the way `pm.request.headers` changes go).
struct RequestChanges {
    var url: String?
    var method: String?
    var body: String?

    mutating func absorb(_ result: ScriptResult) {
        url = result.url ?? url
        method = result.method ?? method
        body = result.body ?? body
    }

    func apply(to request: inout HTTPRequest, request name: String) throws(CollectionError) {
        if let url {
            guard let parsed = URL(string: url), parsed.scheme != nil, parsed.host != nil else {
                throw .badURL(url: url, request: name)
            }
            request.url = parsed
        }
        if let method, !method.isEmpty { request.method = HTTPMethod(method.uppercased()) }
        if let body { request.body = .data(Data(body.utf8)) }
    }
}

extension ScriptRunner {
    /// The value of an httpyac JavaScript expression (the list of `# @loop for ITEM of EXPRESSION`) as JSON
    /// text, with the request's variables in scope; the script error when it cannot be evaluated.
    func evaluate(_ expression: String, for template: RequestTemplate, context: VariableContext,
                  line: Int) -> Result<String, ScriptError> {
        var input = ScriptInput(phase: .preRequest, request: scriptRequest(template, preview: nil),
                                environment: environmentValues(context), globals: context.globals,
                                timeLimit: Self.timeLimit(for: template))
        describeHttpyacScope(of: template, context: context, into: &input)
        let key = "$courierValue"
        let source = ScriptSource(code: "exports[\"\(key)\"] = JSON.stringify(\(expression));", file: file.path,
                                  line: line)
        let result = ScriptEngine.run(source, input: input)
        if let error = result.error { return .failure(error) }
        return .success(result.globals[key] ?? "null")
    }
}
