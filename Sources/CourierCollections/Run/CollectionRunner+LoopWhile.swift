import Foundation

/// httpyac's `# @loop while CONDITION`: the request is sent again for as long as the JavaScript condition,
/// over the variables and what scripts exported, holds. Courier evaluates each `{{ … }}` on its own, so a
/// condition the request itself changes inside its braces (`{{page.index++}}`) would never turn false: such a
/// loop is refused, and scripts after the request change what the condition reads (`exports.next = …`).
extension CollectionRunner {
    /// Passes after which a loop whose condition still holds stops, failing.
    static let maximumWhilePasses = 1000

    /// Whether the condition holds before pass `pass` (from 0); the error names the condition's line.
    func whileHolds(_ loop: RequestLoop, of template: RequestTemplate, pass: Int,
                    context: VariableContext) -> Result<Bool, CollectionError> {
        guard case .whileTrue(let condition) = loop.kind else { return .success(false) }
        let place = { (message: String) in
            CollectionError.syntax(Diagnostic(file: self.file.path, line: loop.line, message: message))
        }
        guard pass < Self.maximumWhilePasses else {
            return .failure(place("'# @loop while \(condition)' still held after \(pass) passes; stopped"))
        }
        var evaluated = context
        evaluated.scriptExpressions = .evaluated
        if evaluated.overrides[RequestLoop.indexVariable] == nil {
            evaluated.overrides[RequestLoop.indexVariable] = String(pass)
        }
        let scripts = ScriptRunner(file: file, baseFolder: baseFolder)
        switch scripts.evaluate(condition, for: template, context: evaluated, line: loop.line) {
        case .success(let value): return .success(!["false", "0", "null", "\"\"", "undefined", ""].contains(value))
        case .failure(let error): return .failure(place("'# @loop while \(condition)': \(error.message)"))
        }
    }

    /// Why a `while` loop cannot run as written: its request changes a value inside `{{ … }}`.
    func whileLoopProblem(_ template: RequestTemplate, loop: RequestLoop) -> CollectionError? {
        var rest = Substring(template.sourceText)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            let inside = rest[open.upperBound..<close.lowerBound]
            rest = rest[close.upperBound...]
            // A script block is not an expression in a value.
            guard !inside.contains("\n") else { continue }
            let changes = inside.contains("++") || inside.contains("--")
                || inside.range(of: #"[^=!<>]=[^=]"#, options: .regularExpression) != nil
            guard changes else { continue }
            return .syntax(Diagnostic(file: file.path, line: loop.line, message: "'# @loop while': the request "
                + "changes a value inside {{\(inside)}}, which Courier evaluates apart from the condition, so the "
                + "loop would not end; change it in a script after the request (exports.NAME = …)"))
        }
        return nil
    }
}
