"""`ToolHost`: every MCP server of this run, on one asyncio loop of its own thread.

The official `mcp` SDK is asyncio (anyio). Turnlog's send path and its window are not:
the host runs the SDK on a daemon thread of its own and hands out blocking calls for
worker threads (`ensure_started`, `call`) and futures for those who would rather wait
on their own terms (`submit_call`). Nothing here may be called on the GUI thread but
`status` and `subscribe`, which never wait.

A server starts on first use: its connection is one task that enters the SDK's
`Client`, lists the tools, then waits until it is stopped — the SDK's cancel scopes must
be left by the task that entered them. A stdio server runs through `turnlog.system.children`
(`stdio.StdioChannel`): it dies with Turnlog, its standard error is kept as the last
64 KiB in memory so a failure can show its last lines, and a start that fails or times out
stops its process for certain.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import enum
import json
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..system.children import ChildStartFailed
from ..system.lazy import LazyModule
from .launch import HttpLaunch, Launch, StdioLaunch
from .stdio import StdioChannel

if TYPE_CHECKING:
    import asyncio
else:  # loaded with the first tool server: most windows and commands start none
    asyncio = LazyModule("asyncio")

log = logging.getLogger(__name__)

# A server that never answers is stopped after this, so a send or a listing ends within
# 30 s whatever its servers do.
START_TIMEOUT_S = 20.0
STDERR_LINES = 12
# Tool listings are paged; a server that never stops paging cannot hold a start forever.
MAX_TOOL_PAGES = 50


class ServerState(enum.Enum):
    STOPPED = "stopped"
    STARTING = "starting"
    READY = "ready"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class ToolInfo:
    """One tool as the server lists it: its name, what it does, its JSON Schema."""

    name: str
    description: str
    input_schema: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ServerStatus:
    state: ServerState
    tools: tuple[ToolInfo, ...] = ()
    reason: str = ""
    stderr_tail: tuple[str, ...] = ()

    def describe(self) -> str:
        if self.state is ServerState.READY:
            count = len(self.tools)
            return f"ready with {count} tool{'s' if count != 1 else ''}"
        if self.state is ServerState.FAILED:
            return f"failed: {self.reason}"
        return self.state.value


STOPPED = ServerStatus(ServerState.STOPPED)


@dataclass(frozen=True, slots=True)
class ToolOutput:
    """What a call returned. `is_error`: the tool said it failed (still a result for the
    model to read, not a failure of the send)."""

    text: str
    is_error: bool
    duration_s: float


class ToolServerUnavailable(Exception):
    """The server could not be started or is not running; the message says why."""


class ToolCallTimedOut(Exception):
    """A call did not return within its time limit."""

    def __init__(self, tool: str, timeout_s: float) -> None:
        super().__init__(f"the tool “{tool}” did not return within {timeout_s:g} s")
        self.tool = tool
        self.timeout_s = timeout_s


@dataclass
class _Connection:
    launch: Launch
    status: ServerStatus = field(default_factory=lambda: ServerStatus(ServerState.STARTING))
    client: Any = None
    stop: asyncio.Event = field(default_factory=lambda: asyncio.Event())
    ready: asyncio.Future[ServerStatus] | None = None
    task: asyncio.Task[None] | None = None
    channel: StdioChannel | None = None


class ToolHost:
    """The MCP servers of this run. `on_status(server_id, status)` is called on the host's
    thread whenever a server's state changes (the window turns it into a signal)."""

    def __init__(self, *, stderr_lines: int = STDERR_LINES) -> None:
        self._stderr_lines = stderr_lines
        # The loop and its thread are made on first use: a window whose conversations use
        # no tools runs none of this.
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._connections: dict[str, _Connection] = {}
        self._statuses: dict[str, ServerStatus] = {}
        self._listeners: list[Callable[[str, ServerStatus], None]] = []
        self._channels: set[StdioChannel] = set()  # stopped at close whatever the loop does
        self._closed = False

    # -- for any thread, never waiting ------------------------------------------------
    def status(self, server_id: str) -> ServerStatus:
        with self._lock:
            return self._statuses.get(server_id, STOPPED)

    def subscribe(self, listener: Callable[[str, ServerStatus], None]) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock, contextlib.suppress(ValueError):
                self._listeners.remove(listener)

        return unsubscribe

    # -- for worker threads ---------------------------------------------------------
    def ensure_started(self, server_id: str, launch: Launch, *,
                       timeout_s: float = START_TIMEOUT_S) -> ServerStatus:
        """The server's status once it is ready or has failed; started if it is not
        running (a failed one is tried again)."""
        return self._run(self._ensure(server_id, launch, timeout_s), timeout_s + 5)

    def submit_call(self, server_id: str, tool: str, arguments: Mapping[str, Any], *,
                    timeout_s: float) -> concurrent.futures.Future[ToolOutput]:
        """A future for one call; cancelling it cancels the call. It fails with
        `ToolServerUnavailable` (not running) or `ToolCallTimedOut`."""
        loop = self._running_loop()
        return asyncio.run_coroutine_threadsafe(
            self._call(server_id, tool, dict(arguments), timeout_s), loop)

    def call(self, server_id: str, tool: str, arguments: Mapping[str, Any], *,
             timeout_s: float) -> ToolOutput:
        return self.submit_call(server_id, tool, arguments, timeout_s=timeout_s).result()

    def stop(self, server_id: str) -> None:
        """Stop the server (its child process ends); its state becomes stopped."""
        if not self._closed and self._loop is not None:
            self._run(self._stop(server_id), 15)

    def close(self) -> None:
        """Stop every server and the loop. The host cannot be used afterwards."""
        if self._closed:
            return
        loop, thread = self._loop, self._thread
        if loop is not None and thread is not None:
            with contextlib.suppress(Exception):
                self._run(self._stop_all(), 20)
        self._closed = True
        if loop is not None and thread is not None:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(5)
            if not thread.is_alive():
                loop.close()
        for channel in list(self._channels):  # whatever became of the loop
            channel.stop()

    # -- on the loop ----------------------------------------------------------------
    def _running_loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            self._check_open()
            if self._loop is None:
                self._loop = asyncio.new_event_loop()
                self._thread = threading.Thread(target=self._loop.run_forever,
                                                name="turnlog-tools", daemon=True)
                self._thread.start()
            return self._loop

    def _run(self, coroutine: Any, timeout_s: float) -> Any:
        if self._closed:
            coroutine.close()
            self._check_open()
        future = asyncio.run_coroutine_threadsafe(coroutine, self._running_loop())
        try:
            return future.result(timeout_s)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise ToolServerUnavailable("the tool servers did not answer in time") from None

    def _check_open(self) -> None:
        if self._closed:
            raise ToolServerUnavailable("the tool servers were stopped")

    def _set(self, server_id: str, status: ServerStatus) -> None:
        with self._lock:
            self._statuses[server_id] = status
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(server_id, status)
            except Exception:  # a listener's bug must not take a server down
                log.exception("a tool server status listener failed")

    async def _ensure(self, server_id: str, launch: Launch, timeout_s: float) -> ServerStatus:
        connection = self._connections.get(server_id)
        if connection is not None and connection.launch != launch:
            await self._stop(server_id)
            connection = None
        if connection is not None and connection.status.state is ServerState.READY:
            return connection.status
        if connection is None or connection.status.state is not ServerState.STARTING:
            connection = self._open(server_id, launch)
        assert connection.ready is not None
        try:
            return await asyncio.wait_for(asyncio.shield(connection.ready), timeout_s)
        except TimeoutError:
            failed = ServerStatus(ServerState.FAILED,
                                  reason=f"it did not answer within {timeout_s:g} s",
                                  stderr_tail=self._tail(connection))
            await self._stop(server_id, failed)
            return failed

    def _open(self, server_id: str, launch: Launch) -> _Connection:
        loop = asyncio.get_running_loop()
        connection = _Connection(launch, ready=loop.create_future())
        if isinstance(launch, StdioLaunch):
            connection.channel = StdioChannel(launch)
            self._channels.add(connection.channel)
        self._connections[server_id] = connection
        self._set(server_id, connection.status)
        connection.task = loop.create_task(self._serve(server_id, connection))
        return connection

    async def _serve(self, server_id: str, connection: _Connection) -> None:
        from mcp import Client  # the SDK is loaded only once a server is used

        try:
            async with contextlib.AsyncExitStack() as stack:
                client = await stack.enter_async_context(
                    Client(await _transport(connection, stack), cache=None))
                tools = await _list_tools(client)
                connection.client = client
                self._settle(server_id, connection, ServerStatus(ServerState.READY, tools))
                await connection.stop.wait()
                final = STOPPED
        except asyncio.CancelledError:
            final = STOPPED
        except BaseException as err:  # noqa: BLE001 - every way a server fails is shown
            started = connection.status.state is ServerState.READY
            reason = _reason(err)
            if connection.channel is not None and connection.channel.unreadable:
                reason = connection.channel.unreadable
            log.info("tool server %s failed: %s", server_id, reason)
            final = ServerStatus(ServerState.FAILED,
                                 reason=f"it stopped: {reason}" if started else reason,
                                 stderr_tail=self._tail(connection))
        finally:
            connection.client = None
        if connection.stop.is_set() and final.state is ServerState.FAILED and \
                connection.status.state is ServerState.READY:
            final = STOPPED  # stopping a server is not its failure
        self._settle(server_id, connection, final)
        if connection.channel is not None:
            self._channels.discard(connection.channel)

    def _settle(self, server_id: str, connection: _Connection, status: ServerStatus) -> None:
        if connection.status.state is ServerState.FAILED and status is STOPPED:
            return  # a failure stays shown after its connection ended
        connection.status = status
        if connection.ready is not None and not connection.ready.done():
            connection.ready.set_result(status)
        if self._connections.get(server_id) is connection:
            self._set(server_id, status)

    def _tail(self, connection: _Connection) -> tuple[str, ...]:
        channel = connection.channel
        return channel.stderr_lines(self._stderr_lines) if channel is not None else ()

    async def _call(self, server_id: str, tool: str, arguments: dict[str, Any],
                    timeout_s: float) -> ToolOutput:
        connection = self._connections.get(server_id)
        client = connection.client if connection is not None else None
        if client is None:
            status = connection.status if connection is not None else STOPPED
            raise ToolServerUnavailable(f"the tool server is not running ({status.describe()})")
        started = time.monotonic()
        try:
            result = await asyncio.wait_for(client.call_tool(tool, arguments), timeout_s)
        except TimeoutError:
            raise ToolCallTimedOut(tool, timeout_s) from None
        except Exception as err:  # noqa: BLE001 - a protocol error is the tool's answer
            from mcp import MCPError

            if not isinstance(err, MCPError):
                raise ToolServerUnavailable(f"the call could not be made: {_reason(err)}") \
                    from err
            return ToolOutput(f"Error: {err}", True, time.monotonic() - started)
        return ToolOutput(result_text(result), bool(result.is_error),
                          time.monotonic() - started)

    async def _stop(self, server_id: str, final: ServerStatus = STOPPED) -> None:
        connection = self._connections.pop(server_id, None)
        if connection is None:
            return
        connection.stop.set()
        task = connection.task
        if task is not None and not task.done() and \
                connection.status.state is not ServerState.READY:
            task.cancel()  # still starting: nothing to wind down, the process goes now
        if task is not None and not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), 8)
            except TimeoutError:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        if connection.channel is not None:
            await asyncio.to_thread(connection.channel.stop)
        connection.status = final
        self._set(server_id, final)

    async def _stop_all(self) -> None:
        for server_id in list(self._connections):
            await self._stop(server_id)


async def _transport(connection: _Connection, stack: contextlib.AsyncExitStack) -> Any:
    launch = connection.launch
    if isinstance(launch, HttpLaunch):
        import httpx2
        from mcp.client.streamable_http import streamable_http_client

        headers = {"Authorization": f"Bearer {launch.token}"} if launch.token else {}
        # The SDK leaves a client it was given open: the exit stack closes it.
        client = await stack.enter_async_context(httpx2.AsyncClient(
            headers=headers, timeout=httpx2.Timeout(30.0, read=300.0)))
        return streamable_http_client(launch.url, http_client=client)
    assert connection.channel is not None
    return connection.channel.open()


async def _list_tools(client: Any) -> tuple[ToolInfo, ...]:
    tools: list[ToolInfo] = []
    cursor = None
    for _page in range(MAX_TOOL_PAGES):
        listing = await client.list_tools(cursor=cursor)
        tools.extend(ToolInfo(tool.name, tool.description or "", dict(tool.input_schema or {}))
                     for tool in listing.tools)
        cursor = listing.next_cursor
        if not cursor:
            break
    return tuple(tools)


def result_text(result: Any) -> str:
    """A tool result as the text the model reads: its text blocks; for anything else a
    line saying what it was (images and audio are not sent)."""
    pieces: list[str] = []
    for block in result.content:
        kind = getattr(block, "type", "")
        if kind == "text":
            pieces.append(block.text)
        elif kind in ("image", "audio"):
            size = len(block.data) * 3 // 4
            pieces.append(f"[{kind} {block.mime_type}, about {size} bytes, not shown]")
        elif kind == "resource":
            resource = block.resource
            text = getattr(resource, "text", None)
            pieces.append(text if isinstance(text, str) else
                          f"[resource {resource.uri} ({resource.mime_type or 'binary'})]")
        elif kind == "resource_link":
            pieces.append(f"[resource link {block.uri}]")
    if not pieces and result.structured_content is not None:
        pieces.append(json.dumps(result.structured_content, ensure_ascii=False))
    return "\n".join(pieces)


def _reason(err: BaseException) -> str:
    """An exception (or the first leaf of an exception group) in plain words."""
    while isinstance(err, BaseExceptionGroup) and err.exceptions:
        err = err.exceptions[0]
    if isinstance(err, ChildStartFailed):
        return str(err)
    if isinstance(err, FileNotFoundError):
        return f"the command was not found ({err.filename or err})"
    if isinstance(err, PermissionError):
        return f"the command may not be run ({err.filename or err})"
    text = str(err).strip()
    name = type(err).__name__
    return f"{name}: {text}" if text else name
