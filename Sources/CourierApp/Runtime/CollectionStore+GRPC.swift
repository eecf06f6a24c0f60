import CourierCollections
import Foundation

extension CollectionStore {
    /// The `.proto` file (or descriptor set) a GRPC request's `# @proto` tag names, beside its `.http` file;
    /// nil when it has none (its schema then comes from server reflection).
    func protoFile(of job: SendJob) -> URL? {
        guard let (file, template, _) = try? sendContext(job),
              let path = template.tags[GRPCRequestCall.protoTag] else { return nil }
        return URL(fileURLWithPath: path, relativeTo: file.url.deletingLastPathComponent())
    }
}
