import Foundation

/// `WebSocketSession.batches`: the session's events in the batches they arrived in. Taking a batch makes room
/// for the connection to read more.
public struct WebSocketBatches: AsyncSequence, Sendable {
    public typealias Element = [WebSocketEvent]
    let stream: AsyncStream<[WebSocketEvent]>
    let backlog: DeliveryBacklog

    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<[WebSocketEvent]>.AsyncIterator
        let backlog: DeliveryBacklog

        public mutating func next() async -> [WebSocketEvent]? {
            guard let batch = await base.next() else { return nil }
            backlog.taken(batch)
            return batch
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> [WebSocketEvent]? {
            guard let batch = await base.next(isolation: actor) else { return nil }
            backlog.taken(batch)
            return batch
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator(), backlog: backlog)
    }
}

/// `WebSocketSession.events`: the session's batches, one event at a time.
public struct WebSocketEventSequence: AsyncSequence, Sendable {
    public typealias Element = WebSocketEvent
    let batches: WebSocketBatches

    public struct AsyncIterator: AsyncIteratorProtocol {
        var batches: WebSocketBatches.AsyncIterator
        var current: [WebSocketEvent] = []
        var index = 0

        public mutating func next() async -> WebSocketEvent? {
            while index >= current.count {
                guard let batch = await batches.next() else { return nil }
                current = batch
                index = 0
            }
            defer { index += 1 }
            return current[index]
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async -> WebSocketEvent? {
            while index >= current.count {
                guard let batch = await batches.next(isolation: actor) else { return nil }
                current = batch
                index = 0
            }
            defer { index += 1 }
            return current[index]
        }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(batches: batches.makeAsyncIterator()) }
}
