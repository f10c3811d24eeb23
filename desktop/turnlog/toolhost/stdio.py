"""A stdio MCP server's transport: its process started through `turnlog.system.children` (it dies
with Turnlog, its standard error kept as the last 64 KiB), its messages read as lines.

The SDK's own stdio transport starts the process itself and skips a message it cannot
read, so a request whose answer is unreadable (a tool schema nested 5,000 levels deep)
waits until its timeout. Here such a message ends the connection at once with the
reason, and stopping the connection stops the process for certain (end of input, a
short grace period, then its whole process group is killed).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from ..system import children
from ..system.lazy import LazyModule
from .launch import StdioLaunch

if TYPE_CHECKING:
    import asyncio
else:  # loaded with the first tool server: most windows and commands start none
    asyncio = LazyModule("asyncio")

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 32 * 1024 * 1024
"""The longest message (one line) read from a server: a longer one ends the connection."""
EXIT_GRACE_S = 1.0
"""How long a server has to exit on its own once its input is closed."""


class StdioChannel:
    """One stdio server's process and why its connection ended, if it ended on a message
    that could not be read."""

    def __init__(self, launch: StdioLaunch) -> None:
        self.launch = launch
        self.child: children.Child | None = None
        self.unreadable = ""  # the reason, when a message from the server could not be read

    def stderr_lines(self, count: int) -> tuple[str, ...]:
        return self.child.stderr_lines(count) if self.child is not None else ()

    def stop(self) -> None:
        """Stop the process for certain (any thread; safe to call twice)."""
        if self.child is not None:
            self.child.stop(EXIT_GRACE_S)

    @contextlib.asynccontextmanager
    async def open(self) -> AsyncIterator[tuple[Any, Any]]:
        """(read stream, write stream) for the SDK's `Client`, the server running."""
        import anyio
        from mcp.client.stdio import get_default_environment

        launch = self.launch
        self.child = children.start(
            [launch.command, *launch.args], stdin="pipe", stdout="pipe", stderr="tail",
            env=get_default_environment() | dict(launch.env), cwd=launch.cwd)
        loop = asyncio.get_running_loop()
        try:
            reader, writer, read_end = await _pipes(loop, self.child)
            incoming, read_stream = anyio.create_memory_object_stream[Any](0)
            write_stream, outgoing = anyio.create_memory_object_stream[Any](0)
            async with anyio.create_task_group() as group:
                group.start_soon(self._read, reader, incoming)
                group.start_soon(_write, writer, outgoing)
                try:
                    yield read_stream, write_stream
                finally:
                    group.cancel_scope.cancel()
                    for stream in (read_stream, write_stream, incoming, outgoing):
                        stream.close()
                    writer.close()
                    read_end.close()
        finally:
            await asyncio.to_thread(self.stop)

    async def _read(self, reader: asyncio.StreamReader, incoming: Any) -> None:
        import anyio

        async with incoming:
            while True:
                try:
                    line = await reader.readuntil(b"\n")
                except asyncio.IncompleteReadError:
                    return  # the server closed its output
                except asyncio.LimitOverrunError:
                    self.unreadable = ("it sent a message longer than "
                                       f"{MAX_MESSAGE_BYTES // (1024 * 1024)} MiB")
                    return
                message = self._parse(line)
                if message is None:
                    if self.unreadable:
                        return
                    continue
                try:
                    await incoming.send(message)
                except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                    return

    def _parse(self, line: bytes) -> Any:
        """A message from one line; None for a line that is no message (stray output is
        skipped) or for one that cannot be read (`unreadable` then says why)."""
        import mcp_types as types
        from mcp.shared.message import SessionMessage
        from pydantic import ValidationError

        text = line.decode("utf-8", "replace").strip()
        if not text:
            return None
        try:
            return SessionMessage(types.jsonrpc_message_adapter.validate_json(
                text, by_name=False))
        except ValidationError as err:
            if not text.startswith("{"):
                log.debug("a tool server wrote a line that is not a message; skipped")
                return None
            problem = str(err.errors()[0].get("msg", err)) if err.errors() else str(err)
            if "recursion limit" in problem:
                problem = "it is nested too deeply"
            self.unreadable = f"it sent a message Turnlog cannot read ({problem[:200]})"
            return None


async def _pipes(loop: asyncio.AbstractEventLoop, child: children.Child
                 ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, asyncio.BaseTransport]:
    """The server's output as a reader, its input as a writer, and the reading end (to be
    closed with them)."""
    assert child.stdout is not None and child.stdin is not None
    reader = asyncio.StreamReader(limit=MAX_MESSAGE_BYTES, loop=loop)
    read_end, _protocol = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), child.stdout)
    transport, protocol = await loop.connect_write_pipe(
        lambda: asyncio.StreamReaderProtocol(asyncio.StreamReader()), child.stdin)
    return reader, asyncio.StreamWriter(transport, protocol, None, loop), read_end


async def _write(writer: asyncio.StreamWriter, outgoing: Any) -> None:
    async with outgoing:
        async for message in outgoing:
            data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
            try:
                writer.write(data.encode("utf-8") + b"\n")
                await writer.drain()
            except (ConnectionError, OSError):
                return
