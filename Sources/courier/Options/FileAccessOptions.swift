import CourierCollections
import Foundation

/// The options that let a collection touch more than its own folder, declared once for `run` and `check`:
/// `--allow-read PATH` and (`run` only) `--allow-overwrite`.
enum FileAccessOptions {
    /// `--allow-read PATH`, repeatable.
    static let allowRead = OptionSpec.option(
        "--allow-read", "PATH", .file, repeatable: true,
        help: "Let requests read PATH (a file, or every file under a folder) as a body or script although it is "
            + "outside the collection's folder. Files under /proc, /sys and /dev are never read.")

    /// `--allow-overwrite`.
    static let allowOverwrite = OptionSpec.flag(
        "--allow-overwrite", help: "Let '>>! FILE' replace a file that Courier did not write (without it, only "
            + "files a redirect wrote and nobody changed since are replaced).")
}

extension ParsedArguments {
    /// `--allow-read` paths as absolute paths (relative ones from the current folder). A path that does
    /// not exist is a usage error: a typo would otherwise allow nothing and say nothing.
    func allowedReads() throws(UsageError) -> [String] {
        try values("--allow-read").map { path throws(UsageError) -> String in
            let url = URL(fileURLWithPath: path).standardizedFileURL
            guard FileManager.default.fileExists(atPath: url.path) else {
                throw UsageError("--allow-read: no such file or folder '\(path)'", command: command)
            }
            return url.path
        }
    }
}
