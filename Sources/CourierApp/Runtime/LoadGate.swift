import Foundation

/// Open once the whole collection is read. The start-up load closes it while the explorer shows only the
/// start of a large collection, so that resolving, sending or saving a request in that moment waits for
/// the whole files (file variables may be declared further down) instead of failing.
final class LoadGate: @unchecked Sendable {
    // NSCondition guards `isOpen`; nothing else is mutable.
    private let condition = NSCondition()
    private var isOpen = true

    func close() {
        condition.lock()
        isOpen = false
        condition.unlock()
    }

    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }

    /// Returns once the gate is open.
    func wait() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }
}
