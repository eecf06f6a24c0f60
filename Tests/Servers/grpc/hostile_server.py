"""A gRPC server that misbehaves on purpose, written on the h2 library (raw HTTP/2, clear text).

Prints "PORT <n>" once it listens on 127.0.0.1 and serves until stdin closes. Paths:
  /hostile.Cycle/Huge       a message whose length prefix says 4 GB, then nothing more (the stream stays open)
  /hostile.Cycle/Truncated  a prefix announcing 100 bytes, 10 bytes, then trailers with grpc-status 0
  /hostile.Cycle/Deep       a reply of type A nested 300 levels deep (A.b.a.b...)
  /hostile.Cycle/Call       echoes the request message, with status 0
  /grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo
                            reflection whose two files import each other: a.proto (service Cycle, message A
                            with a field of type B) and b.proto (message B with a field of type A)
"""
import asyncio
import struct
import sys

import h2.config
import h2.connection
import h2.events
from google.protobuf import descriptor_pb2


def file_a():
    f = descriptor_pb2.FileDescriptorProto(name="a.proto", package="hostile", syntax="proto3", dependency=["b.proto"])
    a = f.message_type.add(name="A")
    a.field.add(name="b", number=1, type=11, label=1, type_name=".hostile.B", json_name="b")
    a.field.add(name="label", number=2, type=9, label=1, json_name="label")
    service = f.service.add(name="Cycle")
    for name in ("Huge", "Truncated", "Deep", "Call"):
        service.method.add(name=name, input_type=".hostile.A", output_type=".hostile.A")
    return f.SerializeToString()


def file_b():
    f = descriptor_pb2.FileDescriptorProto(name="b.proto", package="hostile", syntax="proto3", dependency=["a.proto"])
    b = f.message_type.add(name="B")
    b.field.add(name="a", number=1, type=11, label=1, type_name=".hostile.A", json_name="a")
    return f.SerializeToString()


def varint(value):
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def field(number, payload):
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def frame(message):
    return b"\0" + struct.pack(">I", len(message)) + message


def deep(levels):
    message = b""
    for level in range(levels):
        message = field(1 if level % 2 == 0 else 1, message)
    return message


def read_fields(data):
    """(number, bytes) of each length-delimited field of a flat message."""
    index, fields = 0, []
    while index < len(data):
        key, shift = 0, 0
        while True:
            byte = data[index]; index += 1
            key |= (byte & 0x7F) << shift; shift += 7
            if byte < 0x80:
                break
        length, shift = 0, 0
        while True:
            byte = data[index]; index += 1
            length |= (byte & 0x7F) << shift; shift += 7
            if byte < 0x80:
                break
        fields.append((key >> 3, data[index:index + length]))
        index += length
    return fields


def reflection_answer(request):
    for number, value in read_fields(request):
        if number == 7:
            services = field(1, field(1, b"hostile.Cycle"))
            return field(6, services)
        if number == 4:
            return field(4, field(1, file_a()))
        if number == 3:
            name = value.decode()
            body = {"a.proto": file_a(), "b.proto": file_b()}.get(name)
            if body is None:
                return field(7, varint(1 << 3) + varint(5) + field(2, b"not found"))
            return field(4, field(1, body))
    return field(7, varint(1 << 3) + varint(3))


class Stream:
    def __init__(self, path):
        self.path = path
        self.buffer = b""


async def serve(reader, writer):
    conn = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False, header_encoding="utf-8"))
    conn.initiate_connection()
    writer.write(conn.data_to_send())
    streams = {}
    headers = [(":status", "200"), ("content-type", "application/grpc")]

    def finish(stream_id, status="0"):
        conn.send_headers(stream_id, [("grpc-status", status)], end_stream=True)

    try:
        while True:
            data = await reader.read(65536)
            if not data:
                break
            for event in conn.receive_data(data):
                if isinstance(event, h2.events.RequestReceived):
                    streams[event.stream_id] = Stream(dict(event.headers).get(":path", ""))
                    conn.send_headers(event.stream_id, headers)
                elif isinstance(event, h2.events.DataReceived):
                    conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    stream = streams.get(event.stream_id)
                    if stream is None:
                        continue
                    stream.buffer += event.data
                    while len(stream.buffer) >= 5:
                        length = struct.unpack(">I", stream.buffer[1:5])[0]
                        if len(stream.buffer) < 5 + length:
                            break
                        message = stream.buffer[5:5 + length]
                        stream.buffer = stream.buffer[5 + length:]
                        if stream.path.endswith("ServerReflectionInfo"):
                            conn.send_data(event.stream_id, frame(reflection_answer(message)))
                        elif stream.path.endswith("/Call"):
                            conn.send_data(event.stream_id, frame(message))
                elif isinstance(event, h2.events.StreamEnded):
                    stream = streams.get(event.stream_id)
                    if stream is None:
                        continue
                    if stream.path.endswith("/Huge"):
                        conn.send_data(event.stream_id, b"\0\xff\xff\xff\xff" + b"x" * 16)
                    elif stream.path.endswith("/Truncated"):
                        conn.send_data(event.stream_id, b"\0\0\0\0\x64" + b"y" * 10)
                        finish(event.stream_id)
                    elif stream.path.endswith("/Deep"):
                        conn.send_data(event.stream_id, frame(deep(300)))
                        finish(event.stream_id)
                    else:
                        finish(event.stream_id)
                elif isinstance(event, h2.events.StreamReset):
                    streams.pop(event.stream_id, None)
            writer.write(conn.data_to_send())
            await writer.drain()
    except (ConnectionError, h2.exceptions.ProtocolError):
        pass
    finally:
        writer.close()


async def main():
    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    server.close()


if __name__ == "__main__":
    asyncio.run(main())
