"""What Turnlog keeps about each request it made (numbers and references, never text),
and the protocol of the store part that keeps it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Protocol

from .cost import NO_PRICING, NO_TOKENS, Pricing, Tokens, cost, tokens_of, total
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
    # The profile and prices the request was costed at, kept so a later price change
    # never rewrites its cost.
    pricing: Pricing = NO_PRICING
    # Turnlog's count of the answer, for a request that got one and no usage.
    output_estimate: int | None = None
    # What the tool rounds before the answer used (one per round).
    round_usage: tuple[Usage, ...] = ()

    @property
    def tokens(self) -> Tokens:
        """The counts of this request with its summary calls and tool rounds: the
        server's, or Turnlog's own (estimated) for an answer that came without usage."""
        main = (tokens_of(self.usage, input_count=self.input_tokens,
                          output_count=self.output_estimate)
                if self.usage.known or self.output_estimate is not None else NO_TOKENS)
        others = [tokens_of(u, input_count=0, output_count=None)
                  for u in (*self.extra_usage, *self.round_usage)]
        return total([main, *others])

    @property
    def cost(self) -> Decimal | None:
        """What it cost at the prices it was costed at (None: not priced)."""
        return cost(self.tokens, self.pricing.prices)


class RequestLog(Protocol):
    """The request records part of a store (`store.records`), as a request writes it."""

    def add(self, record: RequestRecord) -> None: ...
