"""What core needs from a chat endpoint: send exact bytes, stream deltas, stop on cancel."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .model import UNKNOWN_USAGE, Usage
from .tools import ToolCall


class CancelToken:
    """Set from any thread; checked by the send path and the provider between bytes."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self._callbacks: list[Callable[[], None]] = []
        self._lock = threading.Lock()

    def cancel(self) -> None:
        with self._lock:
            if self._event.is_set():
                return
            self._event.set()
            callbacks = list(self._callbacks)
        for callback in callbacks:
            callback()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def on_cancel(self, callback: Callable[[], None]) -> None:
        """Run `callback` when cancelled (at once if already cancelled)."""
        with self._lock:
            if not self._event.is_set():
                self._callbacks.append(callback)
                return
        callback()

    def wait(self, seconds: float) -> bool:
        return self._event.wait(seconds)


@dataclass(frozen=True, slots=True)
class Reply:
    """What a provider got back for a request that reached the end of its response."""

    content: str
    finish_reason: str | None
    usage: Usage = UNKNOWN_USAGE
    model: str = ""
    tool_calls: bool = False
    first_token_s: float | None = None
    reasoning: str = ""  # a reasoning model's `reasoning_content`, apart from the answer
    calls: tuple[ToolCall, ...] = ()  # the tool calls it asked for, assembled


class ChatProvider(Protocol):
    def complete(
        self, body: bytes, *, on_delta: Callable[[str], None], cancel: CancelToken,
        on_reasoning: Callable[[str], None] | None = None,
    ) -> Reply:
        """Send `body` unchanged; raise `ProviderFailure` for anything that is not a reply.
        `on_delta` gets the answer's text as it streams, `on_reasoning` (when given) a
        reasoning model's reasoning text apart from it."""
        ...
