"""The tools of one send: the chosen servers' tools offered to the model, each call
approved by the person and run on its MCP server. Shared by the window and the CLI.

`SendTools` is core's `ToolRunner`. The person's answer comes from `ask` (the window's
approval card, the CLI's terminal prompt); a tool they always allowed in the conversation
runs without asking, and `approve_all` (the CLI's --approve-all) runs every call.
Runs on the send's worker thread: starting servers and calling tools wait there.
"""

from __future__ import annotations

import concurrent.futures
import logging
import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from turnlog.config.secrets import KeyStore
from turnlog.config.tool_servers import ToolConfigInvalid, ToolServer, launch_for
from turnlog.core.provider import CancelToken
from turnlog.core.tool_loop import ToolOutcome, ToolTimedOut
from turnlog.core.tools import Approval, ToolBounds, ToolCall, ToolSpec

if TYPE_CHECKING:
    from turnlog.toolhost.host import ServerStatus, ToolHost

# The host (its event loop, the child processes) loads with the first server asked about:
# a preview of a conversation without tools never asks.

log = logging.getLogger(__name__)

_WIRE_NAME = re.compile(r"[^A-Za-z0-9_-]")
Ask = Callable[[ToolCall, str, float, CancelToken], Approval | None]
"""(call, server name, timeout, cancel) → the person's answer, None if none in time."""


@dataclass(frozen=True, slots=True)
class OfferedTool:
    server: ToolServer
    tool: str  # the tool's own name on its server
    spec: ToolSpec  # as offered to the model (its name unique in the request)


@dataclass(frozen=True, slots=True)
class ServerProblem:
    server: ToolServer
    status: ServerStatus


def wire_name(name: str) -> str:
    """A tool name the chat-completions format accepts (letters, digits, _ and -)."""
    return _WIRE_NAME.sub("_", name)[:64] or "tool"


def offered_tools(servers: Sequence[ToolServer], statuses: Sequence[ServerStatus]
                  ) -> tuple[dict[str, OfferedTool], list[ServerProblem]]:
    """The tools a request offers, by their name on the wire, from the servers' statuses
    (one each, in order), and the servers that are not ready. The one way from servers to
    tool definitions: a send's (`SendTools`) and a preview's (`tool_preview`) alike."""
    from turnlog.toolhost.host import ServerState

    offered: dict[str, OfferedTool] = {}
    problems: list[ServerProblem] = []
    for server, status in zip(servers, statuses, strict=True):
        if status.state is not ServerState.READY:
            problems.append(ServerProblem(server, status))
            continue
        for tool in status.tools:
            if not server.tool_on(tool.name):
                continue
            name = wire_name(tool.name)
            if name in offered:
                name = wire_name(f"{server.name}_{tool.name}")
            offered[name] = OfferedTool(server, tool.name, ToolSpec(
                name, tool.description, tool.input_schema))
    return offered, problems


@dataclass(frozen=True, slots=True)
class ToolPreview:
    """The tools a send would offer, known without starting anything: `specs` from the
    servers that are up, `starting` the servers not started yet (a send starts them and
    its body then differs), `problems` the servers that failed (a send goes without)."""

    specs: tuple[ToolSpec, ...] = ()
    starting: tuple[ToolServer, ...] = ()
    problems: tuple[ServerProblem, ...] = ()


def tool_preview(host: ToolHost, servers: Sequence[ToolServer]) -> ToolPreview:
    """What `SendTools` would offer now, from the host's statuses (nothing is started)."""
    from turnlog.toolhost.host import ServerState

    statuses = [host.status(server.id) for server in servers]
    starting = tuple(server for server, status in zip(servers, statuses, strict=True)
                     if status.state not in (ServerState.READY, ServerState.FAILED))
    offered, problems = offered_tools(servers, statuses)
    return ToolPreview(tuple(o.spec for o in offered.values()), starting,
                       tuple(p for p in problems if p.server not in starting))


class SendTools:
    """The tools a send offers, from servers started (if need be) when it is made."""

    def __init__(self, host: ToolHost, servers: Sequence[ToolServer], keys: KeyStore | None,
                 ask: Ask, *, always: set[str] | None = None, approve_all: bool = False,
                 bounds: ToolBounds | None = None,
                 on_always: Callable[[str], None] | None = None) -> None:
        self._host = host
        self._ask = ask
        self._always = always if always is not None else set()
        self._approve_all = approve_all
        self._bounds = bounds or ToolBounds()
        self._on_always = on_always
        self._lock = threading.Lock()
        self.offered: dict[str, OfferedTool] = {}
        self.problems: list[ServerProblem] = []
        self._start(servers, keys)

    def _start(self, servers: Sequence[ToolServer], keys: KeyStore | None) -> None:
        from turnlog.toolhost.host import ServerState, ServerStatus, ToolServerUnavailable

        statuses = []
        for server in servers:
            try:
                status = self._host.ensure_started(server.id, launch_for(server, keys))
            except (ToolConfigInvalid, ToolServerUnavailable) as err:
                status = ServerStatus(ServerState.FAILED, reason=str(err))
            statuses.append(status)
        self.offered, self.problems = offered_tools(servers, statuses)

    @property
    def always(self) -> frozenset[str]:
        """The tools always allowed in the conversation, those allowed during this send
        included."""
        with self._lock:
            return frozenset(self._always)

    # ToolRunner -------------------------------------------------------------------
    @property
    def bounds(self) -> ToolBounds:
        return self._bounds

    def specs(self) -> Sequence[ToolSpec]:
        return [offered.spec for offered in self.offered.values()]

    def approve(self, call: ToolCall, timeout_s: float, cancel: CancelToken) -> Approval | None:
        if self._approve_all:
            return Approval.ALL
        with self._lock:
            if call.name in self._always:
                return Approval.ALLOWED
        offered = self.offered.get(call.name)
        answer = self._ask(call, offered.server.name if offered else "", timeout_s, cancel)
        if answer is Approval.ALWAYS:
            with self._lock:
                self._always.add(call.name)
            if self._on_always is not None:
                self._on_always(call.name)
        return answer

    def run(self, call: ToolCall, arguments: dict[str, Any], timeout_s: float,
            cancel: CancelToken) -> ToolOutcome:
        from turnlog.toolhost.host import ToolCallTimedOut, ToolServerUnavailable

        offered = self.offered.get(call.name)
        if offered is None:
            names = ", ".join(sorted(self.offered)) or "none"
            return ToolOutcome(f"Error: there is no tool named “{call.name}” (the tools are: "
                               f"{names}).", True, 0.0)
        server = offered.server.name  # kept with the turn: which server ran the call
        try:
            future = self._host.submit_call(offered.server.id, offered.tool, arguments,
                                            timeout_s=timeout_s)
        except ToolServerUnavailable as err:
            return ToolOutcome(f"Error: {err}.", True, 0.0, server)
        cancel.on_cancel(future.cancel)
        try:
            output = future.result(timeout_s + 5)
        except ToolCallTimedOut:
            raise ToolTimedOut(call.name) from None
        except concurrent.futures.CancelledError:
            return ToolOutcome("Error: stopped by the user before it returned.", True, 0.0,
                               server)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise ToolTimedOut(call.name) from None
        except ToolServerUnavailable as err:
            return ToolOutcome(f"Error: {err}.", True, 0.0, server)
        return ToolOutcome(output.text, output.is_error, output.duration_s, server)
