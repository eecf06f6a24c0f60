import Foundation

/// Where the repository's demo collection is.
public enum DemoCollection {
    public static var root: URL { CourierCLI.packageRoot }
    public static var file: URL { root.appendingPathComponent("Collections/demo.http") }
}
