import CourierCollections
import Foundation

extension CollectionStore {
    /// The job's request as code in `language`, as `courier export` writes it: secrets left out (read from
    /// environment variables, or Swift parameters), whatever the explorer shows on screen.
    public func code(_ job: SendJob, language: CodeLanguage) throws(CollectionError) -> String {
        var (file, template, context) = try sendContext(job)
        // The code leaves secrets out, so it names a store's value rather than asking the store (and gpg).
        context.readsSecretStores = false
        let folder = file.url.deletingLastPathComponent()
        let resolved = try Resolver(file: file.file, baseFolder: folder, context: context).resolve(template)
        return language.code(for: resolved, context: context, baseFolder: folder, fileName: file.url.lastPathComponent,
                             showSecrets: false)
    }
}
