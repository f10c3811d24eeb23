"""Side questions: ask about a conversation without adding to it, on a budget of their own.

A side request carries what every request carries (system prompt, pinned facts), the
conversation's cached rolling summary if one may be used (never made for a side
question), a recent window of the newest whole turns (at most 20 pairs, ¼ of the side
input budget, 16,000 tokens), then the earlier side questions, newest first as whole
pairs within what is left, then the question. The turns between the summary's end and
the recent window are left out and named. Nothing is cut: a question that cannot fit
is refused with sizes (`ProjectionRefused`).

`SideAsker` runs one side question top to bottom: prepare → organize → answer → keep, or
fail with the draft. The log, its summaries and its request records are never written.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Protocol

from .body import ASSISTANT, USER, Message, RequestOptions, build_body
from .budget import Budget, default_output_reserve
from .compaction_plan import CompactionSettings, recent_count, summary_span
from .cost import NO_PRICING, Pricing
from .failures import Failure, FailureKind, ProviderFailure, StoreError, check_question
from .model import Turn, Usage
from .outcome import Stage, answer_estimate, validate_reply
from .projection import (
    CostIndex,
    Part,
    PartKind,
    Projection,
    ProjectionRefused,
    SummaryPart,
    _first_sent,
    project,
)
from .provider import CancelToken, ChatProvider
from .side_records import SideAttempt, SideQuestion
from .side_records import attempts_usage as attempts_usage  # named here for the side panel
from .summaries import StoredSummary, summary_text

# A side question's output reserve: its own, independent of the conversation's.
DEFAULT_SIDE_OUTPUT_RESERVE = 8_192
SIDE_LABEL = "side question"


def side_budget(budget: Budget, output_reserve: int) -> Budget:
    """The conversation's budget (its window and byte limit) with the side questions'
    own output reserve. Raises `InvalidBudget` outside 256–32,768."""
    return replace(budget, output_reserve=output_reserve,
                   reserve_sized=output_reserve == default_output_reserve(budget.context_window))


def side_options(options: RequestOptions, output_reserve: int) -> RequestOptions:
    return replace(options, max_tokens=output_reserve)


def usable_summary(cached: StoredSummary | None, turns: Sequence[Turn],
                   model: str) -> SummaryPart | None:
    """The cached rolling summary as a side request may carry it: only if a main request
    to `model` could reuse it as it is (same settings, covered turns unchanged)."""
    span = summary_span(cached, turns, CompactionSettings(model, _ANY_BUDGET,
                                                          RequestOptions()).key)
    if cached is None or span is None:
        return None
    return SummaryPart(summary_text(cached), span[1], cached.id, span[0])


_ANY_BUDGET = Budget(1, 1, 256)  # the summary settings key depends on the model only


@dataclass(frozen=True, slots=True)
class SideProjection:
    """A side request: `projection` holds its exact body, parts and budget (its verbatim
    turns are the recent window); `side_ids` are the earlier side questions it carries,
    oldest first; `recent_limit` the most turns the recent window could take."""

    projection: Projection
    side_ids: tuple[str, ...]
    recent_limit: int

    @property
    def body(self) -> bytes:
        return self.projection.body

    @property
    def left_out(self) -> tuple[int, ...]:
        """Ordinals neither summarized nor in the recent window."""
        return self.projection.left_out


def project_side(
    turns: Sequence[Turn],
    question: str,
    earlier: Sequence[SideQuestion],
    *,
    model: str,
    budget: Budget,
    system_prompt: str = "",
    options: RequestOptions | None = None,
    pinned: Sequence[str] = (),
    summary: SummaryPart | None = None,
    costs: CostIndex | None = None,
) -> SideProjection:
    """Project a side question (`budget` is already the side budget). `earlier`: this
    conversation's side questions, oldest first. Raises `ProjectionRefused`."""
    costs = costs or CostIndex()
    covered = summary.covered_count if summary else 0
    recent_limit = recent_count(turns, budget, costs, start=covered)
    base = project(turns, question, model=model, budget=budget, system_prompt=system_prompt,
                   options=options, pinned=pinned, summary=summary, costs=costs,
                   max_verbatim=recent_limit)
    # Newest first, whole pairs, stopping at the first that does not fit what is left.
    pairs = [side.as_pair() for side in earlier]
    first = _first_sent(pairs, costs, 0, budget.max_bytes - base.body_bytes,
                        budget.input_tokens - base.input_tokens)
    chosen = [(side, Part(PartKind.SIDE, costs.cost(pair).bytes, costs.cost(pair).tokens))
              for side, pair in zip(earlier[first:], pairs[first:], strict=True)]
    if not chosen:
        return SideProjection(base, (), recent_limit)
    messages = list(base.messages[:-1])
    for side, _ in chosen:
        messages += [Message(USER, side.question), Message(ASSISTANT, side.answer)]
    messages.append(base.messages[-1])
    parts = (*base.parts[:-1], *(part for _, part in chosen), base.parts[-1])
    projection = replace(
        base, body=build_body(model, messages, base_options(options)),
        messages=tuple(messages), parts=parts,
        input_tokens=base.input_tokens + sum(part.tokens for _, part in chosen),
    )
    return SideProjection(projection, tuple(side.id for side, _ in chosen), recent_limit)


def base_options(options: RequestOptions | None) -> RequestOptions:
    return options or RequestOptions()


# ------------------------------------------------------------------ asking
class ActiveLine(Protocol):
    """The turns part of a store (`store.turns`), as a side question reads it."""

    def __call__(self, conversation_id: int) -> Sequence[Turn]: ...


class CachedSummary(Protocol):
    """The records part of a store (`store.records`), as a side question reads it."""

    def latest_summary(self, conversation_id: int) -> StoredSummary | None: ...


class SideLog(Protocol):
    """The side questions part of a store (`store.side`)."""

    def of(self, conversation_id: int) -> Sequence[SideQuestion]: ...

    def add(self, conversation_id: int, question: SideQuestion) -> SideQuestion:
        """Keep an answered side question; raise `StoreError` on a fault."""
        ...

    def add_attempt(self, conversation_id: int, attempt: SideAttempt) -> None:
        """Keep a failed side request's usage; raise `StoreError` on a fault."""
        ...


class SideStore(Protocol):
    """What a side question reads and writes, part by part (`TurnlogStore` is one). It
    reads the conversation's active turns and its cached summary; it writes only side
    questions."""

    @property
    def turns(self) -> ActiveLine: ...

    @property
    def records(self) -> CachedSummary: ...

    @property
    def side(self) -> SideLog: ...


@dataclass(frozen=True, slots=True)
class SideRequest:
    """A side question and how to project it (`budget`, `options`: the side ones)."""

    conversation_id: int
    question: str
    model: str
    budget: Budget
    options: RequestOptions
    system_prompt: str = ""
    pinned: tuple[str, ...] = ()
    compaction: bool = True
    pricing: Pricing = NO_PRICING  # the profile it goes through and its prices
    id: str = field(default_factory=lambda: uuid.uuid4().hex)


@dataclass(frozen=True, slots=True)
class SideAnswered:
    side: SideQuestion
    projection: SideProjection


@dataclass(frozen=True, slots=True)
class SideFailed:
    failure: Failure
    draft: str
    partial: str = ""
    projection: SideProjection | None = None
    refusal: ProjectionRefused | None = None
    attempt: SideAttempt | None = None  # what was kept of a request the server saw


SideOutcome = SideAnswered | SideFailed


def plan_side(store: SideStore, request: SideRequest, costs: CostIndex) -> SideProjection:
    """The side request as it would be sent now (the preview and the send share it).
    Raises `ProjectionRefused` or `StoreError`."""
    turns = store.turns(request.conversation_id)
    cached = store.records.latest_summary(request.conversation_id) if request.compaction else None
    return project_side(
        turns, request.question, store.side.of(request.conversation_id),
        model=request.model, budget=request.budget, system_prompt=request.system_prompt,
        options=request.options, pinned=request.pinned,
        summary=usable_summary(cached, turns, request.model), costs=costs,
    )


class SideAsker:
    """Asks side questions through one store and one provider (from a worker thread)."""

    def __init__(self, store: SideStore, provider: ChatProvider, *,
                 costs: CostIndex | None = None) -> None:
        self.store = store
        self.provider = provider
        self.costs = costs or CostIndex()

    def ask(
        self,
        request: SideRequest,
        *,
        cancel: CancelToken | None = None,
        on_stage: Callable[[Stage, str], None] = lambda stage, detail: None,
        on_delta: Callable[[str], None] = lambda text: None,
        on_projection: Callable[[SideProjection], None] = lambda projection: None,
    ) -> SideOutcome:
        """Prepare, organize, answer, keep; any failure gives the draft back."""
        cancel = cancel or CancelToken()
        draft = request.question
        on_stage(Stage.PREPARING, "")
        problem = check_question(draft)
        if problem is not None:
            return SideFailed(problem, draft)
        on_stage(Stage.ORGANIZING, "")
        try:
            planned = plan_side(self.store, request, self.costs)
        except ProjectionRefused as refusal:
            return SideFailed(Failure(FailureKind.REFUSED, detail=refusal.describe()), draft,
                              refusal=refusal)
        except StoreError as err:
            return SideFailed(err.failure(), draft)
        if cancel.cancelled:
            return SideFailed(Failure(FailureKind.CANCELLED), draft, projection=planned)
        on_projection(planned)
        on_stage(Stage.ANSWERING, "")
        try:
            reply = self.provider.complete(planned.body, on_delta=on_delta, cancel=cancel)
        except ProviderFailure as err:
            tried = self._record(request, planned, err.failure, err.usage, request.model,
                                 err.partial)
            return SideFailed(err.failure, draft, err.partial, planned, attempt=tried)
        problem = validate_reply(reply)
        if problem is None and cancel.cancelled:
            problem = Failure(FailureKind.CANCELLED)
        if problem is not None:
            tried = self._record(request, planned, problem, reply.usage,
                                 reply.model or request.model, reply.content)
            return SideFailed(problem, draft, reply.content, planned, attempt=tried)
        p = planned.projection
        side = SideQuestion(
            request.id, draft, reply.content, reply.model or request.model,
            datetime.now(UTC), reply.usage, p.body_bytes, p.input_tokens, p.tokens_exact,
            p.sent, p.summarized, p.left_out, planned.side_ids, request.pricing,
            answer_estimate(reply.content, reply.usage),
        )
        try:
            kept = self.store.side.add(request.conversation_id, side)
        except StoreError as err:
            return SideFailed(err.failure(), draft, reply.content, planned)
        return SideAnswered(kept, planned)

    def _record(self, request: SideRequest, planned: SideProjection, failure: Failure,
                usage: Usage, model: str, partial: str) -> SideAttempt | None:
        """Keep what a failed side request used; a store fault (the conversation deleted
        meanwhile) leaves the failure as it is and keeps nothing (`None`)."""
        p = planned.projection
        attempt = SideAttempt(datetime.now(UTC), failure.kind.value, model, usage,
                              tuple(sorted({*p.sent, *p.summarized})), request.pricing,
                              p.input_tokens, answer_estimate(partial, usage))
        try:
            self.store.side.add_attempt(request.conversation_id, attempt)
        except StoreError:
            return None
        return attempt
