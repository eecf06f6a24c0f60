import Foundation

/// Opens a sign-in page in the user's browser, when this machine has one to open: `xdg-open` on the PATH
/// and a display (`DISPLAY` or `WAYLAND_DISPLAY`). Over SSH or in a bare terminal there is none, and the
/// URL printed is the way.
public enum BrowserOpener {
    /// Starts `xdg-open URL` without waiting for it; false when there is no browser to open.
    @Sendable public static func open(_ url: URL) -> Bool {
        open(url, environment: ProcessInfo.processInfo.environment)
    }

    static func open(_ url: URL, environment: [String: String]) -> Bool {
        let display = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].contains { !($0 ?? "").isEmpty }
        guard display, let opener = program("xdg-open", path: environment["PATH"] ?? "") else { return false }
        let process = Process()
        process.executableURL = opener
        process.arguments = [url.absoluteString]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        return true
    }

    /// The first executable `name` in the folders of `path`.
    static func program(_ name: String, path: String) -> URL? {
        for folder in path.split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
