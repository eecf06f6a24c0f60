import CCurl

/// The easy handles of finished transfers, kept for the next ones. Making and freeing a handle per
/// request is a measurable part of a keep-alive request's cost; a handle reset by `CurlEasy.reset`
/// starts from libcurl's defaults with the same safety settings as a new one. Lives on the loop
/// thread only, like the transfers.
struct CurlHandlePool: ~Copyable {
    /// More spare handles than this are freed: enough for the transfers one client keeps in flight.
    static let capacity = 64

    private var spare: [UnsafeMutableRawPointer] = []

    init() {}

    deinit {
        for easy in spare { curl_easy_cleanup(easy) }
    }

    /// A reset spare handle, or a new one; nil when libcurl cannot make one.
    mutating func take() -> UnsafeMutableRawPointer? {
        if let easy = spare.popLast() {
            CurlEasy.reset(easy)
            return easy
        }
        return CurlEasy.make()
    }

    /// Takes back a handle that is out of the multi handle and whose transfer is over.
    mutating func give(_ easy: UnsafeMutableRawPointer) {
        guard spare.count < Self.capacity else {
            curl_easy_cleanup(easy)
            return
        }
        spare.append(easy)
    }
}
