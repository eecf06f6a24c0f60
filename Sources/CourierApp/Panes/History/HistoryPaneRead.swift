import CourierBody
import CourierHistory
import Foundation

/// A read of the history store the pane asks for. The pane never reads the disk itself: the app performs
/// the read in an effect, off the loop thread, and gives back what it found (`HistoryPaneState.apply`).
public enum HistoryPaneRead: Sendable, Hashable {
    /// The entries of one request key (nil: every request), to list them.
    case list(requestKey: String?)
    /// An entry's stored body, for the entry view.
    case entry(HistoryEntry)
    /// The entry of the same request just before this one, and both bodies, to diff them.
    case previous(of: HistoryEntry)
    /// Both stored bodies of two entries, older first, to diff them.
    case diff(older: HistoryEntry, newer: HistoryEntry)
    /// The ids of the entries whose stored body contains the text.
    case searchBodies(String)

    /// What a read found.
    public enum Result: Sendable {
        case listed(requestKey: String?, Swift.Result<[HistoryEntry], HistoryError>)
        case entry(HistoryEntry, body: Data)
        case diff(older: HistoryEntry, olderBody: Data, newer: HistoryEntry, newerBody: Data)
        /// `previous(of:)` found no earlier response of the entry's request.
        case noPrevious(HistoryEntry)
        case bodyMatches(query: String, ids: Set<String>)
    }

    /// Reads the store; called from the effect runner's background task. An unreadable body reads as empty.
    public func perform(with store: HistoryStore) -> Result {
        switch self {
        case .list(let requestKey):
            do throws(HistoryError) {
                return .listed(requestKey: requestKey, .success(try store.list(requestKey: requestKey)))
            } catch {
                return .listed(requestKey: requestKey, .failure(error))
            }
        case .entry(let entry):
            return .entry(entry, body: (try? store.body(id: entry.id)) ?? Data())
        case .previous(let entry):
            let sameRequest = (try? store.list(requestKey: entry.requestKey)) ?? []
            guard let previous = sameRequest.first(where: {
                $0.date < entry.date || ($0.date == entry.date && $0.id < entry.id)
            }) else { return .noPrevious(entry) }
            return Self.diff(older: previous, newer: entry).perform(with: store)
        case .diff(let older, let newer):
            return .diff(older: older, olderBody: (try? store.body(id: older.id)) ?? Data(),
                         newer: newer, newerBody: (try? store.body(id: newer.id)) ?? Data())
        case .searchBodies(let text):
            return .bodyMatches(query: text, ids: Set(((try? store.search(text)) ?? []).map(\.id)))
        }
    }
}
