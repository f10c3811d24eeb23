"""Counting without waiting: a preview on the GUI thread uses only the token counts an
exact counter (a server's tokenizer) already made, and a warm-up that counts ahead stops
between two requests when cancelled. Named apart from the sender (`service.chat`), so the
window's first screen loads none of it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from ..core.budget import reply_priming
from ..core.projection import CostIndex
from ..core.provider import CancelToken

if TYPE_CHECKING:
    from ..core.budget import TokenCounter


class CountNotKnown(Exception):
    """A count that only the server could give, asked for where nothing may wait on it."""


@runtime_checkable
class KnowingCounter(Protocol):
    """A counter that can say what it already knows without asking anyone
    (`ServerTokenCounter` is one)."""

    @property
    def exact(self) -> bool: ...

    def message_tokens(self, role: str, content: str) -> int: ...

    def reply_priming_tokens(self) -> int: ...

    def known_message_tokens(self, role: str, content: str) -> int | None: ...


class KnownCounts:
    """`counter` limited to the counts it already has: a missing one raises
    `CountNotKnown` instead of a request to the server. For the GUI thread."""

    def __init__(self, counter: KnowingCounter) -> None:
        self._counter = counter

    @property
    def exact(self) -> bool:
        return self._counter.exact

    def message_tokens(self, role: str, content: str) -> int:
        tokens = self._counter.known_message_tokens(role, content)
        if tokens is None:
            raise CountNotKnown(role)
        return tokens

    def reply_priming_tokens(self) -> int:
        return self._counter.reply_priming_tokens()

    def reply_priming_tokens_for(self, first_role: str) -> int:
        return reply_priming(self._counter, first_role)


class CancellableCounts:
    """`counter`, checking `cancel` before each count (each may be a request to the
    server): a cancelled warm-up stops between two requests."""

    def __init__(self, counter: TokenCounter, cancel: CancelToken) -> None:
        self._counter = counter
        self._cancel = cancel

    @property
    def exact(self) -> bool:
        return self._counter.exact

    def message_tokens(self, role: str, content: str) -> int:
        if self._cancel.cancelled:
            raise CountNotKnown("counting was cancelled")
        return self._counter.message_tokens(role, content)

    def reply_priming_tokens(self) -> int:
        return self._counter.reply_priming_tokens()

    def reply_priming_tokens_for(self, first_role: str) -> int:
        return reply_priming(self._counter, first_role)


def known_costs(costs: CostIndex) -> CostIndex | None:
    """A view of `costs` that answers only from counts already made (raising
    `CountNotKnown` for the rest), or None when its counter cannot say what it knows."""
    counter = costs.counter
    if not isinstance(counter, KnowingCounter):
        return None
    return costs.sharing(KnownCounts(counter))
