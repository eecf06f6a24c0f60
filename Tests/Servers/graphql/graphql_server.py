"""The GraphQL subscription server the tests use: strawberry-graphql on uvicorn, speaking both WebSocket
subprotocols (graphql-transport-ws and the older graphql-ws) at /graphql.

Prints "PORT <n>" once it listens on 127.0.0.1 and serves until stdin closes. Subscriptions:
  count(to: Int!, gap: Float = 0): Int!   1, 2, ... to, gap seconds apart, then complete
  ticks: Int!                             1, 2, 3, ... every 50 ms until the client stops
  boom: Int!                              1, then an error
"""
import asyncio
import socket
import sys
import threading
import os
from typing import AsyncGenerator

import strawberry
import uvicorn
from strawberry.asgi import GraphQL


@strawberry.type
class Query:
    @strawberry.field
    def hello(self) -> str:
        return "world"


@strawberry.type
class Subscription:
    @strawberry.subscription
    async def count(self, to: int, gap: float = 0) -> AsyncGenerator[int, None]:
        for number in range(1, to + 1):
            if gap and number > 1:
                await asyncio.sleep(gap)
            yield number

    @strawberry.subscription
    async def ticks(self) -> AsyncGenerator[int, None]:
        number = 0
        while True:
            number += 1
            yield number
            await asyncio.sleep(0.05)

    @strawberry.subscription
    async def boom(self) -> AsyncGenerator[int, None]:
        yield 1
        raise ValueError("boom went the subscription")


def main():
    app = GraphQL(strawberry.Schema(query=Query, subscription=Subscription))
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    # Listening before the port is announced: a client that connects first waits in the backlog for uvicorn.
    sock.listen(128)
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    # Ends with its parent: the test closes stdin (or dies, which closes it too).
    threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
    config = uvicorn.Config(app, log_level="warning", ws="websockets-sansio")
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
