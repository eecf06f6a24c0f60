import CourierSecurity
import Foundation
import Testing

/// Known secrets in bodies read in chunks: a large (spilled) body a server echoes back.
struct StreamingMaskerTests {
    @Test func aSecretSplitAcrossTwoChunksAtAnyPlaceIsMaskedAsInOnePiece() {
        let secret = "tok-999-secret"
        let text = Data("before \(secret) middle \(secret) after".utf8)
        let whole = SecretPolicy.masking(String(decoding: text, as: UTF8.self), secrets: [secret])
        for cut in 0...text.count {
            var masker = StreamingMasker(secrets: [secret])
            var out = masker.feed(text.prefix(cut))
            out += masker.feed(text.dropFirst(cut))
            out += masker.finish()
            #expect(String(decoding: out, as: UTF8.self) == whole, "cut at \(cut)")
        }
    }

    @Test func withoutSecretsBytesPassThroughAtOnce() {
        var masker = StreamingMasker(secrets: [String]())
        let chunk = Data("tok-999-secret".utf8)
        #expect(masker.feed(chunk) == chunk)
        #expect(masker.finish().isEmpty)
    }
}
