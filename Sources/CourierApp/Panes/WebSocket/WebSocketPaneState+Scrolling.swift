import CourierSecurity
import CourierTerminal
import CourierWebSocket
import Foundation

/// Scrolling the WebSocket pane's messages: following the newest, or paused at one that stays put. The filter
/// skips messages as they are drawn, with `masker`'s secrets masked.
extension WebSocketPaneState {
    /// Index of the entry drawn at the bottom of the message area.
    var bottomIndex: Int? {
        guard !entries.isEmpty else { return nil }
        guard !following, let anchorID else { return entries.count - 1 }
        if let index = entries.index(of: anchorID) { return index }
        return anchorID < (entries.first?.id ?? 0) ? 0 : entries.count - 1
    }

    /// Stops following; the view stays where it is while messages keep arriving.
    public mutating func pause(masker: SecretMasker? = nil) {
        guard following else { return }
        following = false
        anchorID = newestMatching(atOrBefore: entries.count - 1, masker: masker).map { entries[$0].id }
        unseenWhilePaused = 0
    }

    /// Follows the newest message again.
    public mutating func follow() {
        following = true
        anchorID = nil
        unseenWhilePaused = 0
    }

    /// Moves the view `steps` matching messages (negative: older); past the newest, follows again.
    mutating func scroll(by steps: Int, masker: SecretMasker?) {
        pause(masker: masker)
        guard var index = bottomIndex else { return }
        if steps < 0 {
            for _ in 0..<(-steps) {
                guard index > 0, let previous = newestMatching(atOrBefore: index - 1, masker: masker) else { break }
                index = previous
            }
        } else {
            for _ in 0..<steps {
                guard let next = oldestMatching(atOrAfter: index + 1, masker: masker) else {
                    // Scrolling past the newest message means following again.
                    follow()
                    return
                }
                index = next
            }
        }
        anchorID = entries[index].id
    }

    /// The newest message at or before `start` that the filter keeps.
    func newestMatching(atOrBefore start: Int, masker: SecretMasker?) -> Int? {
        let filter = self.filter
        var index = start
        while index >= 0 {
            if entries[index].matches(filter, masker: masker) { return index }
            index -= 1
        }
        return nil
    }

    /// The oldest message at or after `start` that the filter keeps.
    func oldestMatching(atOrAfter start: Int, masker: SecretMasker?) -> Int? {
        let filter = self.filter
        var index = start
        while index < entries.count {
            if entries[index].matches(filter, masker: masker) { return index }
            index += 1
        }
        return nil
    }
}
