"""What Turnlog keeps about each request it made (numbers and references, never text),
and the protocol of the store part that keeps it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from .model import UNKNOWN_USAGE, Usage, ordinal_runs
from .proof import RequestProof


def ordinal_ranges(ordinals: Sequence[int]) -> list[list[int]]:
    """Compress sorted, distinct ordinals into inclusive `[first, last]` runs (1,2,3,5 →
    [1,3],[5,5]). A span with no gap — the turns a long log leaves out of a request, as a
    rule — is one run known from its two ends, not from walking every ordinal per send."""
    if ordinals and ordinals[-1] - ordinals[0] == len(ordinals) - 1:
        return [[ordinals[0], ordinals[-1]]]
    return [[first, last] for first, last in ordinal_runs(ordinals)]


@dataclass(frozen=True, slots=True)
class RequestRecord:
    """What Turnlog keeps about a request it made: numbers and references, never text."""

    conversation_id: int
    started_at: datetime
    model: str
    outcome: str
    body_bytes: int
    max_bytes: int
    input_tokens: int
    token_budget: int
    tokens_exact: bool
    sent: Sequence[int]
    summarized: Sequence[int]
    left_out: Sequence[int]
    sent_turn_ids: tuple[str, ...] = ()
    usage: Usage = UNKNOWN_USAGE
    duration_s: float = 0.0
    first_token_s: float | None = None
    status: int | None = None
    turn_id: str | None = None
    summary_id: int | None = None
    extra_usage: tuple[Usage, ...] = ()
    attempt: int = 1
    seed: int | None = None  # the sampling seed the body carried (a new sample's)
    # A committed request's references and body hashes (None: a failed request keeps no
    # body, and a record made before request hashes has none).
    proof: RequestProof | None = None


class RequestLog(Protocol):
    """The request records part of a store (`store.records`), as a request writes it."""

    def add(self, record: RequestRecord) -> None: ...
