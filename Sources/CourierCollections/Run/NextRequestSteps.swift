import CourierScript

/// The order a run takes through a file's requests: file order, unless a Postman script asked for another
/// request with `postman.setNextRequest(name)` (that request next, then the ones after it) or ended the run
/// with `setNextRequest(null)`. Jumps are bounded, so a script that always names its own request stops.
struct NextRequestSteps {
    /// Requests a run may take in all, jumps included, before it is stopped as a loop.
    static let maximumSteps = 10_000

    private let requests: [RequestTemplate]
    private let file: HTTPFile
    /// The requests still to run, in order.
    private var queue: ArraySlice<RequestTemplate>
    private var taken = 0

    init(requests: [RequestTemplate], file: HTTPFile) {
        self.requests = requests
        self.file = file
        queue = requests[...]
    }

    /// The next request to run; nil when the run is over.
    mutating func next() -> RequestTemplate? {
        guard let template = queue.first else { return nil }
        queue = queue.dropFirst()
        taken += 1
        return template
    }

    /// Applies what a script asked after `current`; a message when the run of the file stops on it.
    mutating func jump(_ next: NextRequest, from current: RequestTemplate) -> String? {
        switch next {
        case .stop:
            queue = []
            return nil
        case .named(let name):
            guard taken < Self.maximumSteps else {
                queue = []
                return "postman.setNextRequest('\(name)'): the run took \(Self.maximumSteps) requests; "
                    + "stopped as a loop"
            }
            // Postman names requests by their own name; an imported one may carry its folders (`Folder / name`).
            let matches: (RequestTemplate) -> Bool = { $0.name == name || $0.name?.hasSuffix(" / " + name) == true }
            if let index = requests.firstIndex(where: { $0.name == name }) ?? requests.firstIndex(where: matches) {
                queue = requests[index...]
                return nil
            }
            if let index = file.requests.firstIndex(where: { $0.name == name })
                ?? file.requests.firstIndex(where: matches) {
                queue = file.requests[index...]
                return nil
            }
            queue = []
            return "postman.setNextRequest('\(name)') in '\(current.displayName)': no request of that name in "
                + "this file; the run of the file stopped here"
        }
    }
}
