import CourierMessage

/// kulala.nvim's shared block: the file's first request, named `### Shared` (or `### Shared each`), lends its
/// tags to every request after it (a request's own tags win). With `NOP` for a URL it is no request at all:
/// its headers (where a request does not set them) and its scripts go to every request after it too.
/// Otherwise its request runs first: once in a run of the whole file and before a request run alone
/// (`Shared`), or before each request (`Shared each`).
extension HTTPFileParser {
    /// The names kulala gives a shared block.
    static let sharedBlockNames: Set<String> = [sharedName, sharedEachName]
    /// The shared block whose request runs once in a run of the whole file, and before a request run alone.
    static let sharedName = "Shared"
    /// The shared block whose request runs before each request.
    static let sharedEachName = "Shared each"
    /// kulala's URL placeholder for a shared block that only shares headers and scripts.
    static let noRequestPlaceholder = "NOP"
    /// What a `NOP` outside a leading shared block is told.
    static let misplacedPlaceholder = "kulala's 'NOP' placeholder stands only in the file's first block, named "
        + "'### Shared' or '### Shared each'"

    /// Applies a leading shared block to the requests after it; a `NOP` anywhere else is an error at its line.
    mutating func applyKulalaSharedBlock() {
        let shares = requests.first.map { Self.sharedBlockNames.contains($0.name ?? "") } ?? false
        for index in requests.indices.reversed() where requests[index].url == Self.noRequestPlaceholder
            && !(shares && index == 0) {
            report(layouts[index].requestLine.lowerBound, Self.misplacedPlaceholder)
            requests.remove(at: index)
            layouts.remove(at: index)
        }
        guard shares, let shared = requests.first else { return }
        let placeholder = shared.url == Self.noRequestPlaceholder
        let runsBeforeEach = !placeholder && shared.name == Self.sharedEachName
        for index in requests.indices.dropFirst() {
            if runsBeforeEach {
                // kulala runs a `Shared each` request before each request (`courier run --all` as `--name`).
                let directive = RunDirective(target: .request(Self.sharedEachName), line: shared.lines.lowerBound)
                requests[index].runsBefore.insert(directive, at: 0)
            }
            for (key, value) in shared.tags where requests[index].tags[key] == nil {
                requests[index].tags[key] = value
                layouts[index].lentTags[key] = value
            }
            guard placeholder else { continue }
            for field in shared.headers where !requests[index].headers.contains(field.name) {
                requests[index].headers.add(field.name, field.value)
                layouts[index].lentHeaders.append(field)
            }
            let before = shared.scripts.filter { $0.phase == .preRequest }
            let after = shared.scripts.filter { $0.phase == .response }
            requests[index].scripts = before + requests[index].scripts + after
        }
        if placeholder {
            requests.removeFirst()
            layouts.removeFirst()
        }
    }
}

extension RequestLayout {
    /// `request` as its own lines write it: without the headers and tags the shared block lent it (a lent
    /// value the user changed is the request's own now).
    func withoutLent(_ request: RequestTemplate) -> RequestTemplate {
        guard !lentHeaders.isEmpty || !lentTags.isEmpty else { return request }
        var own = request
        own.headers = HTTPHeaders(request.headers.filter { field in
            !lentHeaders.contains { $0.name.caseInsensitiveEquals(field.name) && $0.value == field.value }
        })
        for (key, value) in lentTags where own.tags[key] == value { own.tags[key] = nil }
        return own
    }
}

extension HTTPFile {
    /// The requests a run of `picked` (nil: the whole file) sends, as kulala runs a leading shared request:
    /// `Shared` once, first, also before a request picked alone; `Shared each` never on its own (it runs
    /// before each request).
    public func withKulalaSharedRequest(_ picked: [RequestTemplate]?) -> [RequestTemplate] {
        guard let first = requests.first, first.url != HTTPFileParser.noRequestPlaceholder else {
            return picked ?? requests
        }
        switch first.name {
        case HTTPFileParser.sharedEachName?:
            let others = (picked ?? requests).filter { $0.id != first.id }
            return others.isEmpty ? picked ?? requests : others
        case HTTPFileParser.sharedName?:
            guard let picked else { return requests }
            return picked.contains { $0.id == first.id } ? picked : [first] + picked
        default: return picked ?? requests
        }
    }
}
