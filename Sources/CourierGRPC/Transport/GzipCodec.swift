import CZlib

/// gzip for gRPC messages (`grpc-encoding: gzip`). Inflating stops at a limit, so a small compressed
/// message cannot become a huge one in memory.
enum GzipCodec {
    static func compress(_ bytes: [UInt8]) throws(GRPCError) -> [UInt8] {
        var stream = z_stream()
        guard courier_deflate_init_gzip(&stream) == Z_OK else { throw .compression("deflateInit failed") }
        defer { deflateEnd(&stream) }
        var input = bytes
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let result: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = UInt32(inputBuffer.count)
            var status: Int32 = Z_OK
            repeat {
                status = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = UInt32(chunkBuffer.count)
                    return deflate(&stream, Z_FINISH)
                }
                output.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
            } while status == Z_OK
            return status
        }
        guard result == Z_STREAM_END else { throw .compression("deflate failed (\(result))") }
        return output
    }

    static func decompress(_ bytes: [UInt8], limit: Int) throws(GRPCError) -> [UInt8] {
        var stream = z_stream()
        guard courier_inflate_init_gzip(&stream) == Z_OK else { throw .compression("inflateInit failed") }
        defer { inflateEnd(&stream) }
        var input = bytes
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var tooLarge = false
        let result: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = UInt32(inputBuffer.count)
            var status: Int32 = Z_OK
            repeat {
                status = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = UInt32(chunkBuffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                if output.count + produced > limit {
                    tooLarge = true
                    return status
                }
                output.append(contentsOf: chunk[0..<produced])
                if status == Z_BUF_ERROR && stream.avail_in == 0 { break }
            } while status == Z_OK
            return status
        }
        if tooLarge { throw .messageTooLarge(size: UInt64(limit) + 1, limit: limit) }
        guard result == Z_STREAM_END else { throw .compression("a gzip message does not inflate (\(result))") }
        return output
    }
}
