"""One send, top to bottom: build candidate → project → send → validate → commit, or fail.

The log changes only through `LogStore.commit_turn`, and only after a reply
passed `validate_reply`. Every other path returns `Failed` carrying the draft.
"""

from __future__ import annotations

import contextlib
import enum
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Protocol

from .body import RequestOptions
from .budget import Budget
from .compaction import CompactionResult, CompactionSettings, Compactor
from .failures import Failure, FailureKind, ProviderFailure, StoreError
from .model import UNKNOWN_USAGE, Conversation, Turn, Usage
from .projection import CostIndex, Projection, ProjectionRefused, project
from .provider import CancelToken, ChatProvider, Reply


class Stage(enum.Enum):
    STARTING_LOCAL_MODEL = "starting local model"
    PREPARING = "preparing"
    ORGANIZING = "organizing turns"
    COMPACTING = "compacting"
    ANSWERING = "answering"


@dataclass(frozen=True, slots=True)
class PendingTurn:
    """A complete reply about to be appended. `id` is client-generated: committing it
    twice stores it once."""

    id: str
    question: str
    answer: str
    model: str
    finish_reason: str
    usage: Usage
    created_at: datetime
    generation: int | None = None


def ordinal_ranges(ordinals: Sequence[int]) -> list[list[int]]:
    """Compress sorted ordinals into inclusive `[first, last]` runs (1,2,3,5 → [1,3],[5,5])."""
    runs: list[list[int]] = []
    for ordinal in ordinals:
        if runs and ordinal == runs[-1][1] + 1:
            runs[-1][1] = ordinal
        else:
            runs.append([ordinal, ordinal])
    return runs


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
    sent: tuple[int, ...]
    summarized: tuple[int, ...]
    left_out: tuple[int, ...]
    sent_turn_ids: tuple[str, ...] = ()
    usage: Usage = UNKNOWN_USAGE
    duration_s: float = 0.0
    first_token_s: float | None = None
    status: int | None = None
    turn_id: str | None = None
    summary_id: int | None = None
    extra_usage: tuple[Usage, ...] = ()
    attempt: int = 1


class LogStore(Protocol):
    def turns(self, conversation_id: int) -> Sequence[Turn]: ...

    def generation(self, conversation_id: int) -> int:
        """A number that changes whenever turns of the conversation are deleted."""
        ...

    def commit_turn(self, conversation_id: int, pending: PendingTurn) -> Turn:
        """Append in one transaction; raise `StoreError` on any fault or a stale generation."""
        ...

    def record_request(self, record: RequestRecord) -> None: ...


@dataclass(frozen=True, slots=True)
class SendRequest:
    """The candidate: what the user asked, and how to project it."""

    conversation: Conversation
    question: str
    model: str
    budget: Budget
    options: RequestOptions = field(default_factory=RequestOptions)
    pinned: tuple[str, ...] = ()
    turn_id: str = field(default_factory=lambda: uuid.uuid4().hex)


@dataclass(frozen=True, slots=True)
class Committed:
    turn: Turn
    projection: Projection
    reply: Reply
    record: RequestRecord


@dataclass(frozen=True, slots=True)
class Failed:
    failure: Failure
    draft: str
    partial: str = ""
    projection: Projection | None = None
    record: RequestRecord | None = None
    refusal: ProjectionRefused | None = None


Outcome = Committed | Failed


def check_question(question: str) -> Failure | None:
    """Refuse blank questions and text that cannot be encoded as UTF-8 (a lone surrogate)."""
    if not question.strip():
        return Failure(FailureKind.BLANK_QUESTION, hint="Type a question first")
    try:
        question.encode("utf-8")
    except UnicodeEncodeError as err:
        return Failure(
            FailureKind.INVALID_TEXT,
            detail=f"character {err.start + 1} is half of a broken character pair (a lone "
            f"surrogate, often left by a bad paste)",
            hint="Delete or retype that character and send again",
        )
    return None


def validate_reply(reply: Reply) -> Failure | None:
    """Only a non-empty answer that finished with `stop` may be committed."""
    if reply.tool_calls:
        return Failure(
            FailureKind.OTHER_FINISH_REASON,
            detail="the model asked to call a tool, which Turnlog does not offer",
        )
    if reply.finish_reason is None:
        return Failure(FailureKind.NO_FINISH_REASON, hint="Send again")
    if reply.finish_reason == "length":
        return Failure(
            FailureKind.LENGTH, hint="Raise the output limit (output reserve) and send again"
        )
    if reply.finish_reason != "stop":
        return Failure(
            FailureKind.OTHER_FINISH_REASON, detail=f"finish reason “{reply.finish_reason}”"
        )
    if not reply.content.strip():
        return Failure(FailureKind.EMPTY, hint="Send again or try another model")
    return None


class Sender:
    """Runs sends for one store and one provider. Safe to use from a worker thread.

    With a `compactor`, conversations that have compaction on get a rolling summary
    of their oldest turns instead of losing them from the request.
    """

    def __init__(
        self,
        store: LogStore,
        provider: ChatProvider,
        *,
        costs: CostIndex | None = None,
        compactor: Compactor | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.provider = provider
        self.costs = costs or (compactor.costs if compactor else CostIndex())
        self.compactor = compactor
        self.clock = clock

    def send(
        self,
        request: SendRequest,
        *,
        cancel: CancelToken | None = None,
        on_stage: Callable[[Stage, str], None] = lambda stage, detail: None,
        on_delta: Callable[[str], None] = lambda text: None,
        on_projection: Callable[[Projection], None] = lambda projection: None,
    ) -> Outcome:
        cancel = cancel or CancelToken()
        draft = request.question
        cid = request.conversation.id

        # 1. Candidate: the question must be sendable text.
        on_stage(Stage.PREPARING, "")
        problem = check_question(draft)
        if problem is not None:
            return Failed(problem, draft)
        try:
            turns = self.store.turns(cid)
            generation = self.store.generation(cid)
        except StoreError as err:
            return Failed(Failure(err.kind, detail=str(err)), draft)

        attempt = 1
        min_covered = 0
        max_verbatim: int | None = None
        previous: Projection | None = None
        overflow: Failure | None = None
        overflow_record: RequestRecord | None = None
        usages: list[Usage] = []
        while True:
            # 2. Projection out of the log as it is now (with a summary where needed).
            on_stage(Stage.ORGANIZING, "")
            started_wall = datetime.now(UTC)
            started = self.clock()
            summary = None
            if self.compactor is not None and request.conversation.settings.compaction:
                compaction = CompactionResult(summary=None, usages=usages)
                try:
                    self.compactor.summarize(
                        cid, generation, turns, draft,
                        CompactionSettings(request.model, request.budget, request.options),
                        system_prompt=request.conversation.system_prompt,
                        pinned=request.pinned, cancel=cancel,
                        progress=lambda k, n: on_stage(Stage.COMPACTING, f"chunk {k} of {n}"),
                        min_covered=min_covered, result=compaction,
                    )
                except ProviderFailure as err:
                    usages.append(err.usage)
                    record = self._record(request, None, started_wall, started,
                                          err.failure.kind.value, extra_usage=usages,
                                          attempt=attempt, status=err.failure.status)
                    return Failed(err.failure, draft, projection=previous, record=record)
                except StoreError as err:
                    return Failed(Failure(err.kind, detail=str(err), stage="compacting"), draft)
                summary = compaction.summary
            if cancel.cancelled:
                return Failed(Failure(FailureKind.CANCELLED), draft, projection=previous)
            try:
                projection = project(
                    turns,
                    draft,
                    model=request.model,
                    budget=request.budget,
                    system_prompt=request.conversation.system_prompt,
                    options=request.options,
                    pinned=request.pinned,
                    summary=summary,
                    costs=self.costs,
                    max_verbatim=max_verbatim,
                )
            except ProjectionRefused as refusal:
                failure = Failure(FailureKind.REFUSED, detail=refusal.describe())
                return Failed(failure, draft, refusal=refusal, projection=previous)
            if overflow is not None and previous is not None and (
                projection.body_bytes >= previous.body_bytes
            ):
                # Recovery could not make the request smaller: report the original overflow.
                return Failed(overflow, draft, projection=previous, record=overflow_record)
            on_projection(projection)

            # 3. Send the exact bytes that were measured.
            on_stage(Stage.ANSWERING, "")
            try:
                reply = self.provider.complete(projection.body, on_delta=on_delta, cancel=cancel)
            except ProviderFailure as err:
                record = self._record(
                    request, projection, started_wall, started, err.failure.kind.value,
                    usage=err.usage, status=err.failure.status, extra_usage=usages,
                    attempt=attempt,
                )
                recoverable = (
                    err.failure.kind is FailureKind.CONTEXT_OVERFLOW
                    and not err.partial
                    and attempt == 1
                    and not cancel.cancelled
                    and (projection.sent_count > 0)
                )
                if not recoverable:
                    return Failed(err.failure, draft, err.partial, projection, record)
                # One recovery, before any answer text: shrink by one turn and retry.
                overflow, overflow_record = err.failure, record
                first_sent = len(turns) - projection.sent_count
                if summary is not None or (
                    self.compactor is not None and request.conversation.settings.compaction
                ):
                    min_covered = first_sent + 1
                else:
                    max_verbatim = projection.sent_count - 1
                previous = projection
                attempt += 1
                usages = []
                continue
            break

        # 4. Validate: only a complete answer may enter the log.
        problem = validate_reply(reply)
        if problem is None and cancel.cancelled:
            problem = Failure(FailureKind.CANCELLED)
        if problem is not None:
            record = self._record(
                request, projection, started_wall, started, problem.kind.value,
                usage=reply.usage, first_token_s=reply.first_token_s, extra_usage=usages,
                attempt=attempt,
            )
            return Failed(problem, draft, reply.content, projection, record)

        # 5. Commit.
        pending = PendingTurn(
            id=request.turn_id,
            question=draft,
            answer=reply.content,
            model=reply.model or request.model,
            finish_reason="stop",
            usage=reply.usage,
            created_at=datetime.now(UTC),
            generation=generation,
        )
        try:
            turn = self.store.commit_turn(cid, pending)
        except StoreError as err:
            failure = Failure(err.kind, detail=str(err))
            record = self._record(
                request, projection, started_wall, started, err.kind.value, usage=reply.usage,
                first_token_s=reply.first_token_s, extra_usage=usages, attempt=attempt,
            )
            return Failed(failure, draft, reply.content, projection, record)
        record = self._record(
            request, projection, started_wall, started, "committed", usage=reply.usage,
            first_token_s=reply.first_token_s, turn_id=turn.id, extra_usage=usages,
            attempt=attempt,
        )
        return Committed(turn, projection, reply, record)

    def _record(
        self,
        request: SendRequest,
        projection: Projection | None,
        started_wall: datetime,
        started: float,
        outcome: str,
        *,
        usage: Usage = UNKNOWN_USAGE,
        status: int | None = None,
        first_token_s: float | None = None,
        turn_id: str | None = None,
        extra_usage: Sequence[Usage] = (),
        attempt: int = 1,
    ) -> RequestRecord:
        record = RequestRecord(
            conversation_id=request.conversation.id,
            started_at=started_wall,
            model=request.model,
            outcome=outcome,
            body_bytes=projection.body_bytes if projection else 0,
            max_bytes=request.budget.max_bytes,
            input_tokens=projection.input_tokens if projection else 0,
            token_budget=request.budget.input_tokens,
            tokens_exact=projection.tokens_exact if projection else self.costs.counter.exact,
            sent=projection.sent if projection else (),
            summarized=projection.summarized if projection else (),
            left_out=projection.left_out if projection else (),
            sent_turn_ids=projection.sent_turn_ids if projection else (),
            usage=usage,
            duration_s=self.clock() - started,
            first_token_s=first_token_s,
            status=status,
            turn_id=turn_id,
            summary_id=projection.summary.summary_id if projection and projection.summary
            else None,
            extra_usage=tuple(extra_usage),
            attempt=attempt,
        )
        # The record is bookkeeping; losing it must not turn an answer into a failure.
        with contextlib.suppress(StoreError):
            self.store.record_request(record)
        return record
