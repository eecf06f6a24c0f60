import CourierGRPC
import Foundation

/// The descriptors of Tests/Servers/grpc/courier_test.proto with its imports, as protoc writes them
/// (`Fixtures/courier_test.pb`; regenerate with `protoc --include_imports --descriptor_set_out=... -I
/// Tests/Servers/grpc -I /usr/include Tests/Servers/grpc/courier_test.proto` after editing the .proto).
enum Schema {
    static let pool: DescriptorPool = {
        let url = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("courier_test.pb")
        let bytes = [UInt8](try! Data(contentsOf: url))
        return try! DescriptorPool(files: DescriptorDecoder.decodeSet(bytes))
    }()

    static let json = ProtoJSON(pool: pool)
    static let request = "courier.test.EchoRequest"
}
