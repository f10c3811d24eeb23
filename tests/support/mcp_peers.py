"""Real MCP servers for the tests, written with the official `mcp` SDK (server side).

Run as a script, this module is a stdio server (`python tests/support/mcp_peers.py`); imported,
it offers `http_peer`, the same tools over streamable HTTP on 127.0.0.1 behind a bearer
token, in a thread of the test process.

The tools: `echo` returns its text; `fail` raises (the SDK answers with an error
result); `hang` sleeps far longer than any test waits; `big` returns `size` bytes of
text (1 MB by default); `write_file` writes a file, so a test can see that a tool with a
side effect ran (or did not); `getenv` shows the server's environment.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from mcp.server.mcpserver import MCPServer

PEER_SCRIPT = Path(__file__).resolve()
ONE_MB = 1_000_000


def build_server(name: str = "test-peer") -> MCPServer:
    server = MCPServer(name)

    @server.tool()
    def echo(text: str) -> str:
        """Return the text unchanged."""
        return text

    @server.tool()
    def fail(reason: str = "it failed on purpose") -> str:
        """Always fail with the reason given."""
        raise ValueError(reason)

    @server.tool()
    def hang(seconds: float = 3600.0) -> str:
        """Sleep for a long time before answering."""
        time.sleep(seconds)
        return "woke up"

    @server.tool()
    def big(size: int = ONE_MB) -> str:
        """Return `size` bytes of text."""
        line = "0123456789abcdef" * 4 + "\n"
        return (line * (size // len(line) + 1))[:size]

    @server.tool()
    def write_file(path: str, text: str) -> str:
        """Write the text to the file at path."""
        Path(path).write_text(text, encoding="utf-8")
        return f"wrote {len(text.encode('utf-8'))} bytes to {path}"

    @server.tool()
    def getenv(name: str) -> str:
        """The value of an environment variable of the server's process."""
        return os.environ.get(name, "(unset)")

    return server


@dataclass(frozen=True)
class HttpPeer:
    url: str
    token: str


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def http_peer(token: str = "peer-token-123") -> Iterator[HttpPeer]:
    """The tools over streamable HTTP at http://127.0.0.1:PORT/mcp; requests without
    `Authorization: Bearer <token>` get 401."""
    import uvicorn
    from starlette.responses import PlainTextResponse

    app = build_server("http-peer").streamable_http_app()

    async def guarded(scope, receive, send):  # type: ignore[no-untyped-def]
        if scope["type"] == "http":
            headers = dict(scope.get("headers") or [])
            if headers.get(b"authorization") != f"Bearer {token}".encode():
                await PlainTextResponse("no or wrong token", status_code=401)(
                    scope, receive, send)
                return
        await app(scope, receive, send)

    port = _free_port()
    config = uvicorn.Config(guarded, host="127.0.0.1", port=port, log_level="warning",
                            lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="mcp-http-peer", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the HTTP MCP peer did not start")
        time.sleep(0.02)
    try:
        yield HttpPeer(f"http://127.0.0.1:{port}/mcp", token)
    finally:
        server.should_exit = True
        thread.join(10)


def _slow_start(args: list[str]) -> None:
    """`--slow-start SECONDS STAMP_FILE`: append when this server was started, wait, then
    append when it serves (as wall-clock times), so a test can see servers start at once."""
    if len(args) < 4 or args[1] != "--slow-start":
        return
    seconds, stamps = float(args[2]), Path(args[3])
    with stamps.open("a", encoding="utf-8") as out:
        out.write(f"start {time.time()}\n")
    time.sleep(seconds)
    with stamps.open("a", encoding="utf-8") as out:
        out.write(f"ready {time.time()}\n")


if __name__ == "__main__":
    print("test peer: starting on stdio", file=sys.stderr, flush=True)
    _slow_start(sys.argv)
    if len(sys.argv) > 1 and sys.argv[1] == "--crash":
        print("test peer: cannot open its database", file=sys.stderr, flush=True)
        sys.exit(3)
    build_server().run("stdio")
