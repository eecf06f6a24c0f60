import CCurl

/// The easy handles of finished transfers, kept for the next ones. Making and freeing a handle per
/// request is a measurable part of a keep-alive request's cost; a handle reset by `CurlEasy.reset`
/// starts from libcurl's defaults with the same safety settings as a new one. A handle whose last
/// transfer left a `CurlHandleSetup` that fits the next job is lent as it is, without the reset and the
/// setup. Lives on the loop thread only, like the transfers.
struct CurlHandlePool: ~Copyable {
    /// More spare handles than this are freed: enough for the transfers one client keeps in flight.
    static let capacity = 64

    private var spare: [(easy: UnsafeMutableRawPointer, setup: CurlHandleSetup?)] = []

    init() {}

    deinit {
        for handle in spare { curl_easy_cleanup(handle.easy) }
    }

    /// A spare handle for `job`: still set up for it when its last transfer fits, else reset; or a new one.
    /// Nil when libcurl cannot make one.
    mutating func take(for job: any LoopJob) -> (easy: UnsafeMutableRawPointer, setup: CurlHandleSetup?)? {
        if let handle = spare.popLast() {
            if let setup = handle.setup, job.fits(setup) { return (handle.easy, setup) }
            CurlEasy.reset(handle.easy)
            return (handle.easy, nil)
        }
        return CurlEasy.make().map { ($0, nil) }
    }

    /// Takes back a handle that is out of the multi handle and whose transfer is over, with what that
    /// transfer left set on it when the next one may use it as it is.
    mutating func give(_ easy: UnsafeMutableRawPointer, setup: CurlHandleSetup? = nil) {
        guard spare.count < Self.capacity else {
            curl_easy_cleanup(easy)
            return
        }
        spare.append((easy, setup))
    }
}
