"""What is kept of side questions, apart from the log: each answered one and each attempt
that ended without a kept answer (`core.side` asks them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from .cost import NO_PRICING, NO_TOKENS, Pricing, Tokens, cost, tokens_of
from .model import UNKNOWN_USAGE, Turn, Usage

_SIDE_ID_PREFIX = "side:"  # keeps side pairs' cached costs apart from turns' in a CostIndex


@dataclass(frozen=True, slots=True)
class SideQuestion:
    """One answered side question, kept apart from the log. `sent`, `left_out`: the
    conversation's ordinals its request carried verbatim and left out; `side_ids`: the
    earlier side questions it carried; sizes are the request's, as a request record's."""

    id: str
    question: str
    answer: str
    model: str
    created_at: datetime
    usage: Usage = UNKNOWN_USAGE
    body_bytes: int = 0
    input_tokens: int = 0
    tokens_exact: bool = False
    sent: tuple[int, ...] = ()
    summarized: tuple[int, ...] = ()
    left_out: tuple[int, ...] = ()
    side_ids: tuple[str, ...] = ()
    # The profile and prices it was costed at, and Turnlog's count of an answer that came
    # without usage (kept beside the usage, so a later price change never rewrites a cost).
    pricing: Pricing = NO_PRICING
    output_estimate: int | None = None

    @property
    def tokens(self) -> Tokens:
        """The server's counts, or Turnlog's own (estimated) when it reported none."""
        return spent(self.usage, self.input_tokens, self.output_estimate)

    @property
    def cost(self) -> Decimal | None:
        return cost(self.tokens, self.pricing.prices)

    def as_pair(self) -> Turn:
        """This question and answer as a pair a projection can carry and cost."""
        return Turn(_SIDE_ID_PREFIX + self.id, 0, self.question, self.answer, self.model,
                    "stop", self.created_at, self.usage)


@dataclass(frozen=True, slots=True)
class SideAttempt:
    """A side request that was sent and ended without a kept answer: what the
    server counted (`usage`, unknown if it said nothing) and the turns' ordinals it
    carried (verbatim or summarized), kept apart from the conversation's request records."""

    created_at: datetime
    outcome: str  # the failure's kind, e.g. "length"
    model: str
    usage: Usage = UNKNOWN_USAGE
    carried: tuple[int, ...] = ()
    pricing: Pricing = NO_PRICING
    input_tokens: int = 0  # Turnlog's count of what it sent
    output_estimate: int | None = None  # Turnlog's count of what came back, without usage

    @property
    def tokens(self) -> Tokens:
        return spent(self.usage, self.input_tokens, self.output_estimate)

    @property
    def cost(self) -> Decimal | None:
        return cost(self.tokens, self.pricing.prices)


def spent(usage: Usage, input_count: int, output_estimate: int | None) -> Tokens:
    """A side request's counts as a request record makes them: nothing when the server
    reported no usage and no answer came (a request it may never have seen)."""
    if not usage.known and output_estimate is None:
        return NO_TOKENS
    return tokens_of(usage, input_count=input_count, output_count=output_estimate)


def attempts_usage(attempts: Sequence[SideAttempt]) -> Usage:
    """The usage of these attempts summed (a count stays unknown if none reported it)."""
    known = [a.usage for a in attempts if a.usage.known]
    return Usage(*(sum(getattr(u, name) or 0 for u in known) or None
                   for name in ("prompt_tokens", "completion_tokens", "total_tokens")))
