"""The GraphQL subscription server the tests use: strawberry-graphql on uvicorn, speaking both WebSocket
subprotocols (graphql-transport-ws and the older graphql-ws) at /graphql.

Prints "PORT <n>" once it listens on 127.0.0.1 and serves until stdin closes. Subscriptions:
  count(to: Int!, gap: Float = 0): Int!   1, 2, ... to, gap seconds apart, then complete
  ticks: Int!                             1, 2, 3, ... every 50 ms until the client stops
  boom: Int!                              1, then an error
At /pinging, a hand-written graphql-transport-ws server that pings after the subscribe and answers with one
result, {"data":{"pong":"received"}}, only once the client's pong came, then completes.
"""
import asyncio
import json
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


async def pinging(scope, receive, send):
    """A server that pings the client and waits for its pong before it sends the one result."""
    await receive()  # websocket.connect
    await send({"type": "websocket.accept", "subprotocol": "graphql-transport-ws"})
    subscription_id = None
    while True:
        event = await receive()
        if event["type"] != "websocket.receive":
            return
        message = json.loads(event.get("text") or "{}")
        if message.get("type") == "connection_init":
            await send({"type": "websocket.send", "text": json.dumps({"type": "connection_ack"})})
        elif message.get("type") == "subscribe":
            subscription_id = message.get("id")
            await send({"type": "websocket.send", "text": json.dumps({"type": "ping"})})
        elif message.get("type") == "pong" and subscription_id is not None:
            result = {"type": "next", "id": subscription_id, "payload": {"data": {"pong": "received"}}}
            await send({"type": "websocket.send", "text": json.dumps(result)})
            await send({"type": "websocket.send", "text": json.dumps({"type": "complete", "id": subscription_id})})


def routed(graphql):
    async def app(scope, receive, send):
        if scope["type"] == "websocket" and scope["path"] == "/pinging":
            await pinging(scope, receive, send)
        else:
            await graphql(scope, receive, send)
    return app


def main():
    app = routed(GraphQL(strawberry.Schema(query=Query, subscription=Subscription)))
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
