"""The retry budget: when a send tries again by itself, and how long it waits first.

Only a failure that says "not now" is tried again — 429, 502, 503, 504, or a
connection refused or reset before any response — and only while no answer text has
arrived. At most `attempts` attempts, and every wait inside `window_s` from the first
one: a server asking (with `Retry-After`) for a longer wait than is left gets no
automatic retry, so the person sees "retry after N s" instead of a silent long wait.
A refused key, a bad request or a context overflow is never tried again.
"""

from __future__ import annotations

from dataclasses import dataclass

from .failures import Failure, FailureKind

RETRY_STATUSES = frozenset({429, 502, 503, 504})
RETRY_TRANSPORT = frozenset({"refused", "reset"})
_NEVER = frozenset({FailureKind.CONTEXT_OVERFLOW, FailureKind.AUTH, FailureKind.CANCELLED,
                    FailureKind.INSECURE_KEY, FailureKind.NO_KEY})


def worth_retrying(failure: Failure) -> bool:
    """Whether the failure says "not now" rather than "not like this"."""
    if failure.kind in _NEVER:
        return False
    return failure.status in RETRY_STATUSES or failure.transport in RETRY_TRANSPORT


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """At most `attempts` attempts within `window_s` seconds; with no `Retry-After`, the
    first wait is `backoff_s` and each later one twice the one before."""

    attempts: int = 3
    window_s: float = 60.0
    backoff_s: float = 1.0

    def wait_before_next(self, failure: Failure, *, attempt: int, elapsed_s: float,
                         answered: bool) -> float | None:
        """Seconds to wait before attempt `attempt + 1`, or None when there is none:
        the budget is spent, answer text already arrived, or the failure is final."""
        if answered or attempt >= self.attempts or not worth_retrying(failure):
            return None
        wait = failure.retry_after
        if wait is None:
            wait = self.backoff_s * 2 ** (attempt - 1)
        if elapsed_s + wait > self.window_s:
            return None
        return max(0.0, wait)
