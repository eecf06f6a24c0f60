import CourierMessage
import Foundation
import Synchronization

/// The cookies of one environment: filled from responses' Set-Cookie fields, read for each request's
/// Cookie header. Thread-safe; `onChange` is told after each change, so the owner can save it.
public final class CookieJar: Sendable {
    /// At most this many cookies are kept (the oldest go first), so a hostile server cannot fill memory.
    public static let capacity = 3000

    private let cookies: Mutex<[Cookie]>
    private let onChange: @Sendable ([Cookie]) -> Void

    /// A jar holding `cookies`; `onChange` gets the whole jar after every change.
    public init(_ cookies: [Cookie] = [], onChange: @escaping @Sendable ([Cookie]) -> Void = { _ in }) {
        self.cookies = Mutex(cookies)
        self.onChange = onChange
    }

    /// Every cookie still alive at `now`, sorted by domain, path and name.
    public func all(now: Date = Date()) -> [Cookie] {
        cookies.withLock { $0 }.filter { !$0.isExpired(at: now) }
            .sorted { ($0.domain, $0.path, $0.name) < ($1.domain, $1.path, $1.name) }
    }

    /// Stores the cookies of each `Set-Cookie` value of a response to `url`. A cookie with the same
    /// name, domain and path replaces the old one and keeps its creation time; an expired one deletes it.
    public func store(setCookie values: [String], from url: URL, now: Date = Date()) {
        let parsed = values.compactMap { SetCookieParser.parse($0, url: url, now: now) }
        guard !parsed.isEmpty else { return }
        let snapshot = cookies.withLock { jar -> [Cookie] in
            for var cookie in parsed {
                if let index = jar.firstIndex(where: { $0.name == cookie.name && $0.domain == cookie.domain
                                                       && $0.path == cookie.path }) {
                    cookie.created = jar[index].created
                    jar.remove(at: index)
                }
                if !cookie.isExpired(at: now) { jar.append(cookie) }
            }
            jar.removeAll { $0.isExpired(at: now) }
            if jar.count > Self.capacity { jar.removeFirst(jar.count - Self.capacity) }
            return jar
        }
        onChange(snapshot)
    }

    /// The cookies for a request to `url`, longer paths first then older first (section 5.4).
    public func cookies(for url: URL, now: Date = Date()) -> [Cookie] {
        cookies.withLock { $0 }.filter { !$0.isExpired(at: now) && $0.matches(url) }
            .sorted { $0.path.count != $1.path.count ? $0.path.count > $1.path.count : $0.created < $1.created }
    }

    /// The Cookie header value for a request to `url`, or nil when no cookie matches.
    public func header(for url: URL, now: Date = Date()) -> String? {
        let matching = cookies(for: url, now: now)
        return matching.isEmpty ? nil : matching.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Adds the jar's cookies for `url` to `headers`: a Cookie header they carry already comes first.
    public func addCookies(to headers: inout HTTPHeaders, for url: URL, now: Date = Date()) {
        guard let header = header(for: url, now: now) else { return }
        let own = headers["Cookie"].map { $0 + "; " } ?? ""
        headers["Cookie"] = own + header
    }

    /// Removes the cookies `matching` picks (a script's `pm.cookies.jar().unset`, `.clear(url)`).
    public func remove(where matching: (Cookie) -> Bool) {
        let snapshot = cookies.withLock { jar -> [Cookie] in
            jar.removeAll(where: matching)
            return jar
        }
        onChange(snapshot)
    }

    /// Empties the jar.
    public func clear() {
        cookies.withLock { $0.removeAll() }
        onChange([])
    }
}
