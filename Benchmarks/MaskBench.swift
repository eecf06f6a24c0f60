import CourierBody
import CourierSecurity
import Foundation

/// What masking known secrets costs the response viewer on a large body: the first screen, the end and a
/// search over the whole body (for the last line), each through `MaskedLines` (two secrets, one of them in the body) against
/// the same body unmasked, in the same run.
enum MaskBench {
    static func run(sizes: [Int] = [10, 50]) {
        let sizes = BodyBench.chosenSizes(default: sizes)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let masker = SecretMasker(secrets: ["user4242@example.com", "tok-S3CRET-not-in-the-body"])
        print("== mask: known secrets masked per line in a large pretty JSON body (ms; ratio = masked / plain)")
        print("body          first-screen plain / masked   ratio    search plain / masked   ratio")
        for megabytes in sizes {
            let file = folder.appendingPathComponent("mask-\(megabytes).json")
            BodyBench.writeBody(megabytes: megabytes, minified: true, to: file)
            guard let mapped = (try? BodyDocument(contentsOf: file))?.bytes else { continue }
            func measure(_ wrap: (any LineSource) -> any LineSource) -> (screen: Double, search: Double, hits: Int) {
                let pretty = PrettyJSONDocument(data: mapped)
                let source = wrap(pretty)
                // The best of 20 draws of the first screen: a 2-core machine shared with builds is noisy.
                let screen = (0..<20).map { _ in
                    BodyBench.time { for line in 0..<BodyBench.screenLines { _ = source.coloredLine(line) } }
                }.min() ?? 0
                var hits = 0
                let search = BodyBench.time {
                    // Found on the last object only, so the whole body is scanned.
                    hits = (try? BodySearch(SearchQuery("lastneedle")).hits(in: source))?.count ?? 0
                }
                return (screen, search, hits)
            }
            let plain = measure { $0 }
            let masked = measure { MaskedLines($0, masker: masker) }
            print(String(format: "%3d MB        %8.2f / %8.2f       %5.2fx   %9.1f / %9.1f   %5.2fx  (hits %d / %d)",
                         megabytes, plain.screen, masked.screen, masked.screen / max(plain.screen, 0.001),
                         plain.search, masked.search, masked.search / max(plain.search, 0.001), plain.hits, masked.hits))
        }
    }
}
