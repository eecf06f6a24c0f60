import Foundation

extension FileManager {
    func isDirectory(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }
}
