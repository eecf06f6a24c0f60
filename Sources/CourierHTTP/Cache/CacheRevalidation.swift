import Foundation
import Synchronization

/// What one validation of a stored response did: the response as stored before, the one served after,
/// and what the exchange cost against a full fetch. The compare view is drawn from this.
public struct CacheRevalidation: Sendable {
    /// The stored response as it was before the validation (its report holds age and ttl then).
    public var before: HTTPResponse
    /// The response served after the validation (its report holds the decision).
    public var after: HTTPResponse
    /// The status of the validation exchange itself: 304, 200, or the error status.
    public var validationStatus: Int
    /// Bytes received for the validation.
    public var bytesTransferred: Int
    /// Bytes the stored response's full fetch received.
    public var fullFetchBytes: Int
    /// How long the validation took.
    public var validationSeconds: Double
    /// How long the stored response's full fetch took.
    public var fullFetchSeconds: Double
    public var at: Date
    /// Fields of the response that the cache did not store because they carry secrets (`Set-Cookie`).
    public var withheldFields: [String] = []

    /// A record of one validation.
    public init(before: HTTPResponse, after: HTTPResponse, validationStatus: Int, bytesTransferred: Int,
                fullFetchBytes: Int, validationSeconds: Double, fullFetchSeconds: Double, at: Date,
                withheldFields: [String] = []) {
        self.before = before
        self.after = after
        self.validationStatus = validationStatus
        self.bytesTransferred = bytesTransferred
        self.fullFetchBytes = fullFetchBytes
        self.validationSeconds = validationSeconds
        self.fullFetchSeconds = fullFetchSeconds
        self.at = at
        self.withheldFields = withheldFields
    }

    /// Bytes a 304 spared compared with fetching the stored body again (0 unless revalidated).
    public var bytesSaved: Int { validationStatus == 304 ? max(0, fullFetchBytes - bytesTransferred) : 0 }
    /// Seconds a 304 spared compared with the stored full fetch; negative when it was slower.
    public var secondsSaved: Double { validationStatus == 304 ? fullFetchSeconds - validationSeconds : 0 }
}

/// The latest validation per entry, kept in memory for the compare view, each with a sequence
/// number so that a caller can tell whether its own request added one.
final class RevalidationLog: Sendable {
    private let state = Mutex<(sequence: Int, latest: [String: (Int, CacheRevalidation)])>((0, [:]))

    func record(_ revalidation: CacheRevalidation, key: String) {
        state.withLock { state in
            state.sequence += 1
            state.latest[key] = (state.sequence, revalidation)
        }
    }

    func latest(key: String) -> CacheRevalidation? { state.withLock { $0.latest[key]?.1 } }

    /// The sequence number of the latest validation of `key`, 0 when there is none.
    func sequence(key: String) -> Int { state.withLock { $0.latest[key]?.0 ?? 0 } }
}
