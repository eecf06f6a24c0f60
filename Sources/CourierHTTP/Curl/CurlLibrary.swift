import CCurl

/// libcurl is loaded on first use, not linked (see CCurl/library.h): a process that never sends does not pay
/// for loading it and the libraries it brings.
public enum CurlLibrary {
    /// Starts loading libcurl in the background, for a command that is about to send: the loading overlaps
    /// the command's own start (arguments, files, the client) instead of following it.
    public static func preload() {
        courier_curl_preload()
    }
}
