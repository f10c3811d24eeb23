"""What one preview of the draft builds: the asks for the one body builder, taken on the
GUI thread, and their building, which reads nothing of the window and so may run on a
worker (the log's pages are safe to read from any thread)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...core.budget import Budget
from ...core.model import Conversation, Turn
from ...core.projection import CostIndex, Projection
from ...service import request_body
from ...service.known_counts import CountNotKnown
from ...service.request_body import Ask, Built
from ...service.route import Route
from .connection import Endpoint


@dataclass(frozen=True, slots=True)
class PreviewAsk:
    """A preview's ask with the counts at hand; `estimated`, when those are an exact
    counter's counts made so far: the ask built instead if one of them is missing (then
    the whole preview is estimated, and says the exact counts are still being made)."""

    ask: Ask
    estimated: Ask | None = None

    def build(self, line: Sequence[Turn]) -> tuple[Built, bool]:
        """The body this preview shows, and whether a count was missing."""
        if self.estimated is None:
            return request_body.build(self.ask, line), False
        try:
            return request_body.build(self.ask, line), False
        except CountNotKnown:
            return request_body.build(self.estimated, line), True


@dataclass(frozen=True, slots=True)
class PreviewPlan:
    """Everything one preview of `draft` depends on, as the window knew it when it was
    asked for. `problem`: why Send cannot go whatever the body (no connection, invalid
    limits, images the model does not take), "" if none. `draft_ask` is None without a
    budget; `what_if` is the same draft under another byte limit, when one is asked."""

    conversation: Conversation
    parts: RequestParts
    draft: str
    line: Sequence[Turn]
    problem: str
    draft_ask: PreviewAsk | None
    what_if: PreviewAsk | None
    generation: int

    def build(self) -> PreviewBodies:
        """Build the bodies (pure: any thread)."""
        draft, missing = (None, False) if self.draft_ask is None \
            else self.draft_ask.build(self.line)
        what_if, also = (None, False) if self.what_if is None \
            else self.what_if.build(self.line)
        return PreviewBodies(draft, what_if, missing or also)


@dataclass(frozen=True, slots=True)
class PreviewBodies:
    """What a `PreviewPlan` built: the draft's body, the what-if's, and whether an exact
    count was missing for either (made in the background, then previewed again)."""

    draft: Built | None
    what_if: Built | None
    counts_missing: bool


@dataclass(frozen=True, slots=True)
class RequestParts:
    """What a request for a conversation would go out with now. `problem`: a (title,
    message) saying why sending cannot start, when it cannot."""

    endpoint: Endpoint | None
    model: str
    budget: Budget | None
    problem: tuple[str, str] | None
    costs: CostIndex | None = None  # the endpoint's exact counts, when it makes them

    @property
    def route(self) -> Route | None:
        return self.endpoint.route if self.endpoint else None


def same_request(shown: Projection, planned: Projection) -> bool:
    """Whether `planned` is the request `shown` describes: the same body, measured and
    marked alike (cheap: its parts are compared, not its log's turns)."""
    return shown is planned or (
        shown.body == planned.body and shown.budget == planned.budget
        and shown.input_tokens == planned.input_tokens
        and shown.tokens_exact == planned.tokens_exact and shown.parts == planned.parts
        and shown.summary == planned.summary and shown.memory == planned.memory
        and shown.question_files == planned.question_files
        and shown.images == planned.images and shown.turn_count == planned.turn_count
        and shown.runs("sent") == planned.runs("sent")
        and shown.runs("left out") == planned.runs("left out"))
