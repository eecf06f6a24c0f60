import CourierCollections
import CourierScript
import Foundation

/// `postman.setNextRequest` across the files of a folder's run, as Postman's runner goes across a collection's
/// folders (which `courier import postman` writes as files): a name another file holds ends this file's run and
/// goes on at that request of that file, then the files after it; `setNextRequest(null)` ends the whole run.
/// With `--jobs`, requests run side by side and a jump is not followed: the run says it needs no `--jobs`.
extension RunScheduler {
    /// Where the run goes on: a file of the plan and the first of its requests to run.
    struct FilePosition: Sendable {
        var file: Int
        var request: Int
    }

    /// Where the run goes after the file at `file` whose last outcome's script asked for `next`; nil when it is
    /// over. `jumps` counts the jumps between files, bounded as jumps within a file are.
    func nextPosition(after next: NextRequest?, of file: Int, jumps: inout Int) -> FilePosition? {
        let following = file + 1 < plan.entries.count ? FilePosition(file: file + 1, request: 0) : nil
        switch next {
        case .stop?:
            return nil
        case .named(let name)?:
            guard NextRequestSteps.index(of: name, in: plan.entries[file].loaded.file.requests) == nil,
                  let target = plan.entries.indices.first(where: { index in
                      index != file && NextRequestSteps.index(of: name, in: plan.entries[index].requests) != nil
                  }),
                  let request = NextRequestSteps.index(of: name, in: plan.entries[target].requests) else {
                return following
            }
            jumps += 1
            guard jumps <= NextRequestSteps.maximumSteps else {
                Console.error("postman.setNextRequest('\(name)'): the run went between files "
                    + "\(NextRequestSteps.maximumSteps) times; stopped as a loop")
                return nil
            }
            return FilePosition(file: target, request: request)
        case nil:
            return following
        }
    }

    /// Whether a file of the plan other than the one at `path` holds a request `setNextRequest` may name.
    func requestsElsewhere(than path: String) -> @Sendable (String) -> Bool {
        let others = plan.entries.filter { $0.displayPath != path }.map(\.requests)
        return { name in others.contains { NextRequestSteps.index(of: name, in: $0) != nil } }
    }
}
