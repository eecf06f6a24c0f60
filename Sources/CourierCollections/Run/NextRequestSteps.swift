import CourierScript

/// The order a run takes through a file's requests: file order, unless a Postman script asked for another
/// request with `postman.setNextRequest(name)` (that request next, then the ones after it) or ended the run
/// with `setNextRequest(null)`. Jumps are bounded, so a script that always names its own request stops.
public struct NextRequestSteps {
    /// Requests a run may take in all, jumps included, before it is stopped as a loop.
    public static let maximumSteps = 10_000

    private let requests: [RequestTemplate]
    private let file: HTTPFile
    /// Whether another file of the run holds a request of that name: the run of this file then ends and the
    /// folder's run goes on there (`RequestsElsewhere`).
    private let elsewhere: @Sendable (String) -> Bool
    /// Whether requests run side by side (`--jobs`): there is no "next" request to choose, so a jump is not
    /// followed, and the message says so.
    var sideBySide = false
    /// The requests still to run, in order.
    private var queue: ArraySlice<RequestTemplate>
    private var taken = 0

    init(requests: [RequestTemplate], file: HTTPFile, elsewhere: @escaping @Sendable (String) -> Bool = { _ in false }) {
        self.requests = requests
        self.file = file
        self.elsewhere = elsewhere
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
            if sideBySide {
                queue = []
                return "postman.setNextRequest('\(name)') in '\(current.displayName)': not followed with --jobs, "
                    + "where requests run side by side; run without --jobs to follow it"
            }
            if let index = Self.index(of: name, in: requests) {
                queue = requests[index...]
                return nil
            }
            if let index = Self.index(of: name, in: file.requests) {
                queue = file.requests[index...]
                return nil
            }
            queue = []
            if elsewhere(name) { return nil }
            return "postman.setNextRequest('\(name)') in '\(current.displayName)': no request of that name in "
                + "this file; the run of the file stopped here"
        }
    }

    /// Where `setNextRequest(name)` goes in `requests`: Postman names requests by their own name, and an
    /// imported one may carry its folders (`Folder / name`).
    public static func index(of name: String, in requests: [RequestTemplate]) -> Int? {
        requests.firstIndex { $0.name == name }
            ?? requests.firstIndex { $0.name?.hasSuffix(" / " + name) == true }
    }
}
