import CourierHTTP
import CourierSecurity
import Foundation

extension CodeRequest {
    /// A resolved request for the generators. Unless `showSecrets`, every secret the one secret policy knows
    /// becomes a `CodeSecret`: the credentials of the headers it names, the URL's password, the query
    /// parameters it names, and every value of the request's secret set wherever it occurs.
    ///
    /// - Parameters:
    ///   - context: where the request's variables came from, to name each secret after its variable.
    ///   - baseFolder: the `.http` file's folder, where a `< ./file` body is found.
    public init(_ resolved: ResolvedRequest, context: VariableContext, baseFolder: URL, fileName: String?,
                showSecrets: Bool) {
        var builder = Builder(showSecrets: showSecrets, names: Self.secretNames(resolved, context: context))
        self = builder.build(resolved, baseFolder: baseFolder, fileName: fileName)
    }

    /// The variable each secret value came from: private environment values, secret globals, and
    /// `{{$processEnv NAME}}` in the request's own text.
    static func secretNames(_ resolved: ResolvedRequest, context: VariableContext) -> [String: String] {
        var names: [String: String] = [:]
        for (name, value) in context.environment.values.sorted(by: { $0.key < $1.key }) where value.isSecret {
            names[value.value] = names[value.value] ?? name
        }
        let secretGlobals = context.secretGlobalValues
        for (name, value) in context.globals.sorted(by: { $0.key < $1.key }) where secretGlobals.contains(value) {
            names[value] = names[value] ?? name
        }
        let template = resolved.template
        var text = template.url + template.headers.map(\.value).joined()
        if case .text(let body) = template.body { text += body }
        for reference in text.components(separatedBy: "{{").dropFirst() {
            let words = reference.prefix { $0 != "}" }.split(separator: " ")
            guard words.count == 2, words[0] == "$processEnv",
                  let value = context.processEnvironment[String(words[1])] else { continue }
            names[value] = names[value] ?? String(words[1])
        }
        return names
    }

    /// Takes secrets out of a request's texts as it builds them.
    struct Builder {
        var showSecrets: Bool
        /// Secret value → the variable it came from.
        var names: [String: String]
        var secrets: [CodeSecret] = []

        init(showSecrets: Bool, names: [String: String]) {
            self.showSecrets = showSecrets
            self.names = names
        }

        mutating func build(_ resolved: ResolvedRequest, baseFolder: URL, fileName: String?) -> CodeRequest {
            let request = resolved.request
            // Credentials first, so they are named after their header or parameter when no variable names them.
            var headers: [CodeRequest.Header] = []
            let fields = request.headers.filter { !CodeRequest.implicitHeaders.contains($0.name.lowercased()) }
            var credentials: [Int: (scheme: String, index: Int)] = [:]
            for (position, field) in fields.enumerated() where !showSecrets && SecretPolicy.isSecretHeader(field.name) {
                let lower = field.value.lowercased()
                let scheme = SecretPolicy.keptSchemes.first { lower.hasPrefix($0.lowercased()) }
                    .map { String(field.value.prefix($0.count)) } ?? ""
                let credential = String(field.value.dropFirst(scheme.count))
                guard !credential.isEmpty else { continue }
                credentials[position] = (scheme, secret(credential, source: .header(field.name)))
            }
            var url = urlParts(request.url)
            // Every value the one secret set holds (private values, credentials, the Basic form of user info).
            var known = resolved.secretSet.filter { $0.count >= SecretPolicy.minimumSecretLength }
            if showSecrets { known = [] }
            for value in known.sorted() { _ = secret(value, source: .other) }
            let raw = needles(percentEncoded: false)
            for (position, field) in fields.enumerated() {
                if let (scheme, index) = credentials[position] {
                    let value = CodeText.joined([.text(scheme), .secret(index, percentEncoded: false)])
                    headers.append(.init(name: field.name, value: value))
                } else {
                    headers.append(.init(name: field.name, value: CodeText.splitting(field.value, needles: raw)))
                }
            }
            url.split(needles(percentEncoded: true))
            let body = body(resolved, baseFolder: baseFolder, needles: raw)
            var code = CodeRequest(name: resolved.displayName, isNamed: resolved.template.name != nil,
                                   fileName: fileName, method: request.method.rawValue, url: url, headers: headers,
                                   body: body, secrets: secrets, notes: Self.notes(request))
            code.dropUnusedSecrets()
            code.nameSecrets()
            return code
        }

        /// The index of the secret holding `value`, registering it (named after its variable when one is
        /// known, else after `source`) the first time. Names are given once the unused ones are dropped.
        mutating func secret(_ value: String, source: CodeSecret.Source) -> Int {
            if let index = secrets.firstIndex(where: { $0.value == value }) { return index }
            let resolvedSource: CodeSecret.Source = names[value].map { .variable($0) } ?? source
            secrets.append(CodeSecret(source: resolvedSource, value: value, environmentName: "", parameterName: ""))
            return secrets.count - 1
        }

        /// Every registered secret as a needle: in URLs, also in its percent-encoded spellings.
        func needles(percentEncoded: Bool) -> [CodeText.Needle] {
            // A value too short to be masked as a substring anywhere is not looked for either.
            secrets.enumerated().filter { $0.element.value.count >= SecretPolicy.minimumSecretLength }.map { index, secret in
                let forms = percentEncoded ? SecretPolicy.encodedForms(secret.value) : [secret.value]
                return CodeText.Needle(index: index, forms: forms, percentEncoded: percentEncoded)
            }
        }

        /// The URL's parts, with the password (or a lone user name) and secret query values taken out.
        mutating func urlParts(_ url: URL) -> CodeURL {
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            let decode = { (text: String) in text.removingPercentEncoding ?? text }
            var user = components?.percentEncodedUser.map(CodeText.init)
            var password = components?.percentEncodedPassword.map(CodeText.init)
            if !showSecrets, let encoded = components?.percentEncodedPassword, !encoded.isEmpty {
                password = CodeText([.secret(secret(decode(encoded), source: .password), percentEncoded: true)])
            } else if !showSecrets, password == nil, let encoded = components?.percentEncodedUser, !encoded.isEmpty {
                user = CodeText([.secret(secret(decode(encoded), source: .user), percentEncoded: true)])
            }
            var query: [CodeURL.QueryItem] = []
            let encodedQuery = components?.percentEncodedQuery
            for pair in (encodedQuery ?? "").split(separator: "&", omittingEmptySubsequences: false) {
                guard let equals = pair.firstIndex(of: "=") else {
                    query.append(.init(name: String(pair), value: nil))
                    continue
                }
                let name = String(pair[..<equals])
                let value = String(pair[pair.index(after: equals)...])
                if !showSecrets, !value.isEmpty, SecretPolicy.isSecretParameter(decode(name)) {
                    let index = secret(decode(value), source: .queryParameter(decode(name)))
                    query.append(.init(name: name, value: CodeText([.secret(index, percentEncoded: true)])))
                } else {
                    query.append(.init(name: name, value: CodeText(value)))
                }
            }
            if encodedQuery?.isEmpty == true { query = [] }
            return CodeURL(scheme: components?.scheme ?? url.scheme ?? "http", user: user, password: password,
                           host: CodeText(components?.percentEncodedHost ?? url.host ?? ""), port: components?.port,
                           path: CodeText(components?.percentEncodedPath ?? url.path), query: query,
                           hasQuery: encodedQuery != nil)
        }

        /// The body: a `< ./file` stays a file the code reads; anything else is its exact text or bytes.
        func body(_ resolved: ResolvedRequest, baseFolder: URL, needles: [CodeText.Needle]) -> CodeRequest.Body {
            if case .file(let path, false) = resolved.template.body, !path.contains("{{") {
                let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseFolder.appendingPathComponent(path)
                return .file(path: url.standardizedFileURL.path)
            }
            switch resolved.request.body {
            case .empty:
                return .none
            case .file(let url):
                return .file(path: url.path)
            case .data(let data):
                return content(data, needles: needles)
            case .parts(let parts):
                // A multipart body embedding files: the code carries its bytes, as far as memory allows.
                return content(CollectionFileAccess.contents(of: parts) ?? Data(), needles: needles)
            }
        }

        /// Bytes as the code's body: text when they are UTF-8 without NUL, else bytes.
        private func content(_ data: Data, needles: [CodeText.Needle]) -> CodeRequest.Body {
            if data.isEmpty { return .none }
            if let text = String(data: data, encoding: .utf8), !text.contains("\0") {
                return .content(CodeText.splitting(text, needles: needles))
            }
            return .content(CodeText.splitting(data, needles: needles))
        }

        /// What the exported code does not do as Courier does.
        static func notes(_ request: HTTPRequest) -> [String] {
            var notes: [String] = []
            if let authentication = request.authentication {
                let scheme = switch authentication.scheme {
                case .basic: "Basic"
                case .digest: "Digest"
                case .ntlm: "NTLM"
                case .negotiate: "Negotiate"
                }
                notes.append("Courier answers a \(scheme) challenge as '\(authentication.user)'; "
                             + "this code does not (use your HTTP library's \(scheme) support).")
            }
            if !request.oauth2.isEmpty {
                notes.append("Courier gets the OAuth 2.0 token (\(request.oauth2.map(\.id).joined(separator: ", "))) "
                             + "itself; this code sends what stands in its place.")
            }
            if request.awsSigV4 != nil {
                notes.append("Courier signs the request with AWS Signature V4; this code does not.")
            }
            if request.oauth1 != nil {
                notes.append("Courier signs the request with OAuth 1.0a; this code does not.")
            }
            if request.clientCertificate != nil {
                notes.append("Courier presents the environment's client certificate; this code does not.")
            }
            if request.insecure {
                notes.append("The request is marked @insecure; this code still verifies TLS certificates.")
            }
            if !request.followRedirects {
                notes.append("The request is marked @no-redirect; this code follows its library's redirect rules.")
            }
            return notes
        }
    }
}

extension CodeURL {
    /// Splits the host, path and plain query values wherever a secret occurs.
    mutating func split(_ needles: [CodeText.Needle]) {
        if let text = host.plain { host = CodeText.splitting(text, needles: needles) }
        if let text = path.plain { path = CodeText.splitting(text, needles: needles) }
        for index in query.indices {
            if let text = query[index].value?.plain { query[index].value = CodeText.splitting(text, needles: needles) }
        }
    }
}

extension CodeRequest {
    /// Drops the secrets no text refers to (known values this request does not send) and renumbers the rest.
    mutating func dropUnusedSecrets() {
        var texts = [url.host, url.path] + headers.map(\.value)
        texts += [url.user, url.password].compactMap { $0 } + url.query.compactMap(\.value)
        if case .content(let text) = body { texts.append(text) }
        let used = Set(texts.flatMap(\.secretIndices)).sorted()
        let renumber = Dictionary(uniqueKeysWithValues: used.enumerated().map { ($1, $0) })
        func remap(_ text: CodeText) -> CodeText {
            CodeText(text.pieces.map { piece in
                guard case .secret(let index, let encoded) = piece else { return piece }
                return .secret(renumber[index] ?? index, percentEncoded: encoded)
            })
        }
        url.host = remap(url.host)
        url.path = remap(url.path)
        url.user = url.user.map(remap)
        url.password = url.password.map(remap)
        for index in url.query.indices { url.query[index].value = url.query[index].value.map(remap) }
        for index in headers.indices { headers[index].value = remap(headers[index].value) }
        if case .content(let text) = body { body = .content(remap(text)) }
        secrets = used.map { secrets[$0] }
    }

    /// Gives each secret its environment variable and Swift parameter, unique in the request.
    mutating func nameSecrets() {
        var environmentNames: Set<String> = []
        // The generated Swift's own parameters and locals.
        var parameterNames: Set<String> = ["session", "body", "components", "request", "data", "response", "value",
                                           "status", "decoder"]
        for index in secrets.indices {
            let name = secrets[index].sourceName
            secrets[index].environmentName = CodeNames.unique(CodeNames.upperSnake(name), in: &environmentNames)
            var parameter = CodeNames.lowerCamel(name, fallback: "secret")
            if parameter.first?.isNumber == true || SwiftNames.isKeyword(parameter) { parameter += "Value" }
            secrets[index].parameterName = CodeNames.unique(parameter, in: &parameterNames)
        }
    }
}
