import CourierMessage

/// kulala.nvim's shared block: the file's first request, named `### Shared` (or `### Shared each`), lends its
/// tags to every request after it (a request's own tags win). With `NOP` for a URL it is no request at all:
/// its headers (where a request does not set them) and its scripts go to every request after it too.
extension HTTPFileParser {
    /// The names kulala gives a shared block.
    static let sharedBlockNames: Set<String> = ["Shared", "Shared each"]
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
        for index in requests.indices.dropFirst() {
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
