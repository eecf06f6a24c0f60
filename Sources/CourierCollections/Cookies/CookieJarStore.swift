import CourierSecurity
import CourierHTTP
import Foundation
import Synchronization

/// Keeps one cookie jar per environment and saves each to `$XDG_STATE_HOME/courier/cookies/ENV.json`
/// (default `~/.local/state/courier/cookies`) as `saving` says: 0600 files in a 0700 folder, written to a
/// temporary file, synced and renamed. Session cookies (no Expires or Max-Age) are kept too, until cleared.
public final class CookieJarStore: Sendable {
    /// When a changed jar reaches the disk.
    public enum Saving: Sendable, Equatable {
        /// After every change (the explorer: a cookie is set now and then, and kept at once).
        case eachChange
        /// At once when the last save is at least `interval` old, else with a later change or `saveChanges()`
        /// (`courier run`, which calls it at its end: a server that sets a cookie on every response, as a load
        /// balancer's stickiness cookie does, had the jar synced to disk 2,000 times in a 2,000-request run).
        case atMostEvery(Duration)
        /// Only when told (`courier load`: thousands of responses a second).
        case whenTold
    }

    /// The jar name used when no environment is chosen.
    public static let defaultJarName = "default"

    public let directory: URL
    public let saving: Saving
    private let jars = Mutex<[String: CookieJar]>([:])
    /// The jars changed since they were last saved, when changes wait: their latest cookies, by file; and
    /// when the last save was made.
    private let unsaved = Mutex<(cookies: [URL: [Cookie]], lastSave: ContinuousClock.Instant?)>(([:], nil))
    /// Who hears of a jar that could not be saved, and the failure last told per jar (told once until a
    /// save succeeds again).
    private let failures = Mutex<(report: (@Sendable (String) -> Void)?, told: [String: String])>((nil, [:]))

    /// A store in `directory`, or in the default XDG folder when nil.
    public init(directory: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
                saving: Saving = .eachChange) {
        self.directory = directory ?? Self.defaultDirectory(environment: environment)
        self.saving = saving
    }

    /// `$XDG_STATE_HOME/courier/cookies`, else `~/.local/state/courier/cookies`.
    public static func defaultDirectory(environment: [String: String]) -> URL {
        StateFolder.url("cookies", environment: environment)
    }

    /// The jar of environment `name`, read from disk the first time it is asked for.
    public func jar(_ name: String) -> CookieJar {
        jars.withLock { jars in
            if let jar = jars[name] { return jar }
            let file = self.file(name)
            let stored = (try? Data(contentsOf: file)).flatMap { try? Self.decoder.decode([Cookie].self, from: $0) } ?? []
            let jar = CookieJar(stored) { [weak self] cookies in self?.changed(cookies, file: file) }
            jars[name] = jar
            return jar
        }
    }

    /// The environments that have a saved jar, sorted.
    public func names() -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// The file of jar `name`; the name is an environment's, so anything but letters, digits, `-`, `_` and
    /// `.` is replaced to keep it inside the folder.
    public func file(_ name: String) -> URL {
        let safe = String(name.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" })
        return directory.appendingPathComponent((safe.isEmpty || safe.hasPrefix(".") ? "_" + safe : safe) + ".json")
    }

    /// Sends every failure to save a jar (a full disk, a folder that cannot be made) to `report`, as one
    /// line: `courier run` prints it on standard error, the explorer in its status bar. A jar that fails
    /// the same way again is not told twice until it has been saved.
    public func reportSaveFailures(to report: @escaping @Sendable (String) -> Void) {
        failures.withLock { $0.report = report }
    }

    /// Saves every jar changed since it was last saved (when changes wait for this); nothing when none was.
    public func saveChanges() {
        let changed = unsaved.withLock { unsaved in
            defer {
                unsaved.cookies.removeAll()
                unsaved.lastSave = .now
            }
            return unsaved.cookies
        }
        for (file, cookies) in changed.sorted(by: { $0.key.path < $1.key.path }) { save(cookies, to: file) }
    }

    private func changed(_ cookies: [Cookie], file: URL) {
        switch saving {
        case .eachChange:
            save(cookies, to: file)
        case .whenTold:
            unsaved.withLock { $0.cookies[file] = cookies }
        case .atMostEvery(let interval):
            let due = unsaved.withLock { unsaved in
                unsaved.cookies[file] = cookies
                return unsaved.lastSave.map { $0.duration(to: .now) >= interval } ?? true
            }
            if due { saveChanges() }
        }
    }

    private func save(_ cookies: [Cookie], to file: URL) {
        let failure: String?
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            try CollectionWriter.write(Self.encoder.encode(cookies), to: file, displayPath: file.path,
                                       permissions: 0o600)
            failure = nil
        } catch let error as CollectionError {
            failure = "\(error)"
        } catch {
            failure = "\(file.path): cannot save: \(error.localizedDescription)"
        }
        // A jar that cannot be saved still works for this run; the next run starts without its changes.
        let report = failures.withLock { state -> (@Sendable (String) -> Void)? in
            guard let failure else {
                state.told[file.path] = nil
                return nil
            }
            guard state.told[file.path] != failure else { return nil }
            state.told[file.path] = failure
            return state.report
        }
        if let report, let failure {
            report("cookie jar not saved: \(failure); its cookies last only until Courier ends")
        }
    }

    private static var encoder: JSONEncoder { JSONCoding.stateFileEncoder }
    private static var decoder: JSONDecoder { JSONCoding.stateFileDecoder }
}
