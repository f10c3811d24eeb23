"""Tools for the window's sends: the MCP servers of this run, and the approval of each
call the model asks for, answered by the person in the window.

`ToolGate.tools_for` runs on the network worker (servers start there, on first use).
A call waiting for approval blocks that worker — not the GUI thread — until the person
answers (`answer`), the send is stopped, or the approval's time runs out; the question
reaches the window as `approval_needed`, queued to the GUI thread.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from ...config.secrets import KeyringUnavailable, KeyStore, open_key_store
from ...config.tool_servers import ToolConfigInvalid, ToolServer, ToolServerStore
from ...core.model import Conversation
from ...core.provider import CancelToken
from ...core.tools import Approval, ToolCall, ToolSpec

if TYPE_CHECKING:
    from ...service.tool_use import SendTools
    from ...toolhost.host import ServerStatus, ToolHost

log = logging.getLogger(__name__)

_POLL_S = 0.1  # how often a waiting approval looks at the send's cancel token


class Hosting:
    """The tool host of one window, made when a server is first asked about (a window
    whose conversations use no tools loads none of it: its event loop, the child
    processes). Thread-safe; `close` stops it, and one made after that is made closed."""

    def __init__(self, on_status: Callable[[str, ServerStatus], None]) -> None:
        self._on_status = on_status
        self._lock = threading.Lock()
        self._host: ToolHost | None = None
        self._closed = False

    def host(self) -> ToolHost:
        with self._lock:
            if self._host is None:
                from ...toolhost.host import ToolHost

                self._host = ToolHost()
                self._host.subscribe(self._on_status)
                if self._closed:
                    self._host.close()
            return self._host

    def close(self) -> None:
        """Stop every server (the window closes)."""
        with self._lock:
            self._closed = True
            host = self._host
        if host is not None:
            host.close()


class ToolGate(QObject):
    """The servers in `<home>/tools.json`, started for the sends that use them."""

    approval_needed = Signal(object, str)  # (ToolCall, the server's name)
    approval_over = Signal()  # answered, timed out or stopped: the card goes away
    status_changed = Signal(str, object)  # (server id, ServerStatus), from the host's thread

    def __init__(self, home: Path, parent: QObject | None = None, *,
                 keys: Callable[[], KeyStore | None] | None = None) -> None:
        super().__init__(parent)
        self.servers = ToolServerStore(home)
        self.hosting = Hosting(lambda server_id, status: self.status_changed.emit(server_id,
                                                                                  status))
        self._keys = keys or _system_keys
        self._answer: Approval | None = None
        self._answered = threading.Event()
        self._lock = threading.Lock()

    @property
    def host(self) -> ToolHost:
        """The MCP servers of this run (made on first use, see `Hosting`)."""
        return self.hosting.host()

    def on_in(self, conversation: Conversation) -> list[ToolServer]:
        """The servers switched on in `conversation` that are switched on themselves."""
        chosen = set(conversation.settings.tool_servers)
        try:
            return [s for s in self.servers.list() if s.enabled and s.id in chosen]
        except ToolConfigInvalid as err:
            log.warning("tool servers unreadable: %s", err)
            return []

    def tools_for(self, conversation: Conversation) -> SendTools | None:
        """On the worker: the send's tools (None: tools are off in this conversation)."""
        servers = self.on_in(conversation)
        if not servers:
            return None
        from ...service.tool_use import SendTools  # what runs the calls: a send's

        return SendTools(self.host, servers, self._keys(), self.ask,
                         always=set(conversation.settings.always_allowed))

    def specs_now(self, conversation: Conversation) -> tuple[ToolSpec, ...]:
        """The tool definitions a send would offer, from the servers already up (nothing
        is started)."""
        from ...service.tool_use import tool_preview  # the preview's, after the first screen

        return tool_preview(self.host, self.on_in(conversation)).specs

    def status(self, server: ToolServer) -> ServerStatus:
        return self.host.status(server.id)

    # -- approval -------------------------------------------------------------------
    def ask(self, call: ToolCall, server: str, timeout_s: float,
            cancel: CancelToken) -> Approval | None:
        """On the worker: show the card, wait for the answer (None: none in time)."""
        with self._lock:
            self._answered.clear()
            self._answer = None
        self.approval_needed.emit(call, server)
        waited = 0.0
        try:
            while not self._answered.wait(_POLL_S):
                waited += _POLL_S
                if cancel.cancelled or waited >= timeout_s:
                    return None
            with self._lock:
                return self._answer
        finally:
            self.approval_over.emit()

    def answer(self, approval: Approval) -> None:
        """On the GUI thread: the person's answer to the card shown."""
        with self._lock:
            self._answer = approval
            self._answered.set()

    def close(self) -> None:
        """Stop every server (the window closes)."""
        self.hosting.close()


def _system_keys() -> KeyStore | None:
    try:
        return open_key_store()
    except KeyringUnavailable:
        return None
