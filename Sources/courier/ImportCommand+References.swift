import CourierCollections
import CourierHTTP
import Foundation

/// Where `courier import openapi` may follow a `$ref` to another document: files in the description's
/// folder tree (links resolved; others with `--allow-read`, never /proc, /sys or /dev), as a collection
/// reads its body files; and http(s) URLs, fetched as the description itself is. A description fetched from a
/// URL reads no local file.
extension ImportCommand {
    static func referenceLoader(for source: String, allowedReads: [String])
        -> (URL, @Sendable (URL) throws(CollectionError) -> Data) {
        let fromWeb = URL(string: source).map(isWeb) ?? false
        let location = fromWeb ? URL(string: source)! : URL(fileURLWithPath: source).standardizedFileURL
        let folder = location.deletingLastPathComponent()
        let access = CollectionFileAccess(root: fromWeb ? nil : folder, allowedReads: allowedReads)
        return (location, { url throws(CollectionError) -> Data in
            if isWeb(url) {
                switch fetch(url) {
                case .success(let data): return data
                case .failure(let error):
                    throw .importFailed(source: url.absoluteString, reason: error.logDescription)
                }
            }
            guard url.isFileURL, !fromWeb else {
                throw .importFailed(source: url.absoluteString, reason: fromWeb
                    ? "a description fetched from a URL reads no local files" : "only files and http(s) URLs are read")
            }
            switch access.read(url.path, from: folder, streamed: false) {
            case .allowed(let file):
                do { return try CollectionFileAccess.contents(of: file) } catch {
                    throw .importFailed(source: url.path, reason: "cannot read it (\(error.localizedDescription))")
                }
            case .needsConfirmation(_, let reason):
                throw .importFailed(source: url.path, reason: reason + " (follow it with --allow-read PATH)")
            case .refused(let reason):
                throw .importFailed(source: url.path, reason: reason)
            }
        })
    }

    /// Whether `url` is fetched over the network (http or https).
    static func isWeb(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// An http(s) URL's body, through the client core; a status outside 2xx is an error.
    static func fetch(_ url: URL) -> Result<Data, APIError> {
        Interruptible.run { () async throws(APIError) -> Data in
            let client = ClientSetup().makeClient()
            let response = try await client.send(HTTPRequest(url: url))
            guard (200..<300).contains(response.status) else {
                throw APIError.http(status: response.status, body: Data(), message: nil)
            }
            do { return try response.body.readAll() } catch {
                throw APIError.protocolError(underlying: "cannot read the body: \(error)")
            }
        }
    }
}
