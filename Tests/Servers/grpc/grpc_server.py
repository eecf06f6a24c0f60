"""The gRPC server the tests call: grpcio with server reflection, serving courier_test.proto.

Prints "PORT <n>" once it listens on 127.0.0.1 (port 0 asks the system for one), then serves until stdin
closes or it is killed. Run with the test venv's python (grpcio, grpcio-reflection, grpcio-tools).
"""
import os
import sys
import tempfile
import threading
import time
from concurrent import futures

import grpc
from grpc_reflection.v1alpha import reflection
from grpc_tools import protoc
import importlib.resources

HERE = os.path.dirname(os.path.abspath(__file__))


def generate():
    out = tempfile.mkdtemp(prefix="courier-grpc-")
    include = str(importlib.resources.files("grpc_tools") / "_proto")
    status = protoc.main(["protoc", f"-I{HERE}", f"-I{include}", f"--python_out={out}",
                          f"--grpc_python_out={out}", os.path.join(HERE, "courier_test.proto")])
    if status != 0:
        sys.exit(f"protoc failed: {status}")
    sys.path.insert(0, out)


generate()
import courier_test_pb2 as pb  # noqa: E402
import courier_test_pb2_grpc as pb_grpc  # noqa: E402
from google.protobuf import struct_pb2  # noqa: E402

FAILURES = {
    "unavailable": grpc.StatusCode.UNAVAILABLE,
    "unauthenticated": grpc.StatusCode.UNAUTHENTICATED,
    "deadline": grpc.StatusCode.DEADLINE_EXCEEDED,
    "internal": grpc.StatusCode.INTERNAL,
}
# How many times each message failed before, for "unavailable-once" (fails the first call only).
SEEN = {}
LOCK = threading.Lock()


class Echo(pb_grpc.EchoServicer):
    def Say(self, request, context):
        if request.message == "unavailable-once":
            with LOCK:
                SEEN[request.message] = SEEN.get(request.message, 0) + 1
                first = SEEN[request.message] == 1
            if first:
                context.abort(grpc.StatusCode.UNAVAILABLE, "try again")
        if request.message in FAILURES:
            context.abort(FAILURES[request.message], f"asked to fail with {request.message}")
        if request.message == "gzip":
            context.set_compression(grpc.Compression.Gzip)
        if request.message == "slow":
            time.sleep(request.wait.seconds + request.wait.nanos / 1e9)
        if request.message == "big":
            return pb.EchoReply(message="x" * (request.count or 1))
        return pb.EchoReply(echo=request, message=request.message)

    def Count(self, request, context):
        count = request.count or 3
        pause = request.wait.seconds + request.wait.nanos / 1e9
        for index in range(count):
            if index and pause:
                time.sleep(pause)
            yield pb.EchoReply(message=f"{request.message} {index + 1}", index=index + 1)

    def Sum(self, request_iterator, context):
        total, count, messages = 0, 0, []
        for request in request_iterator:
            total += request.count
            count += 1
            messages.append(request.message)
        return pb.SumReply(total=total, count=count, messages=messages)

    def Chat(self, request_iterator, context):
        for index, request in enumerate(request_iterator):
            yield pb.EchoReply(message=f"re: {request.message}", index=index + 1)

    def Fail(self, request, context):
        context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"message must not be '{request.message}'")

    def Forever(self, request, context):
        index = 0
        while context.is_active():
            index += 1
            yield pb.EchoReply(message=f"tick {index}", index=index)
            time.sleep(0.05)

    def Metadata(self, request, context):
        result = struct_pb2.Struct()
        for key, value in context.invocation_metadata():
            result[key] = value if isinstance(value, str) else value.hex()
        return result


def main():
    # Arguments: [--tls CERT.pem KEY.pem] for TLS (ALPN h2) instead of clear text.
    tls = sys.argv[2:4] if len(sys.argv) >= 4 and sys.argv[1] == "--tls" else None
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=16))
    pb_grpc.add_EchoServicer_to_server(Echo(), server)
    names = (pb.DESCRIPTOR.services_by_name["Echo"].full_name, reflection.SERVICE_NAME)
    reflection.enable_server_reflection(names, server)
    if tls:
        with open(tls[0], "rb") as cert, open(tls[1], "rb") as key:
            credentials = grpc.ssl_server_credentials([(key.read(), cert.read())])
        bound = server.add_secure_port("127.0.0.1:0", credentials)
    else:
        bound = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(f"PORT {bound}", flush=True)
    # Ends with its parent: the test closes stdin (or dies, which closes it too).
    sys.stdin.read()
    server.stop(0)


if __name__ == "__main__":
    main()
