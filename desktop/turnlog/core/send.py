"""One send, top to bottom: prepare → compact → plan → attempt (→ retry within the budget,
→ recover once) → commit, or fail.

The log changes only through `LogStore.turns.commit`, and only after a reply
passed `validate_reply`. Every other path returns `Failed` carrying the draft, and
with an answer that stopped before it was complete, that `PartialAnswer`: it enters
the log only by `keep_partial`, when the person asks (see `core.partial`).
"""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Protocol

from .attachments import Question, has_images
from .budget import WINDOW_LEARNED, InvalidBudget
from .compaction_plan import CompactionResult, CompactionSettings
from .failures import Failure, FailureKind, ProviderFailure, StoreError, check_question
from .model import UNKNOWN_USAGE, Turn, Usage, without_last
from .outcome import Committed as Committed  # named here too, for who sends
from .outcome import Failed as Failed
from .outcome import Outcome as Outcome
from .outcome import Stage as Stage
from .outcome import answer_estimate as answer_estimate
from .outcome import validate_reply as validate_reply
from .partial import incomplete_reason
from .pending import PendingTurn
from .projection import (
    CostIndex,
    Projection,
    ProjectionRefused,
    SummaryPart,
    project,
    proof_of,
    with_exchange,
)
from .proof import RequestProof, sha256_hex
from .provider import CancelToken, ChatProvider, Reply
from .request_record import RequestLog, RequestRecord
from .request_record import ordinal_ranges as ordinal_ranges  # named here for readers of a send
from .retry import RetryPolicy
from .send_request import PartialAnswer as PartialAnswer
from .send_request import SendRequest as SendRequest
from .send_request import offered_specs as offered_specs
from .tool_loop import RoundProgress, ToolLoopFailed, ToolRunner, bound, run_round
from .tools import ToolRound, executed

if TYPE_CHECKING:  # the summary maker is handed in by who sends (`service.chat`)
    from .compaction import Compactor


class TurnLog(Protocol):
    """The turns part of a store (`store.turns`): what a send reads and appends."""

    def __call__(self, conversation_id: int) -> Sequence[Turn]:
        """The conversation's active line, oldest first."""
        ...

    def commit(self, conversation_id: int, pending: PendingTurn) -> Turn:
        """Append in one transaction; raise `StoreError` on any fault or a stale generation."""
        ...


class Generations(Protocol):
    """The conversations part of a store (`store.conversations`), as a send reads it."""

    def generation(self, conversation_id: int) -> int:
        """A number that changes whenever turns of the conversation are deleted."""
        ...


class Room(Protocol):
    """The database part of a store (`store.database`), as a send asks it for room."""

    def ensure_room(self, expected_bytes: int) -> None:
        """Before anything is sent: raise `StoreError` (storage_full) when a commit of
        about `expected_bytes` of text cannot be written, so a full disk does not waste
        the request and its cost."""
        ...


class LogStore(Protocol):
    """What a send reads and writes, part by part (`TurnlogStore` is one)."""

    @property
    def turns(self) -> TurnLog: ...

    @property
    def conversations(self) -> Generations: ...

    @property
    def records(self) -> RequestLog: ...

    @property
    def database(self) -> Room: ...


# What committing a turn takes on disk for each byte of its text: the row, its search
# index entries, the WAL's copies of the pages, the request record.
COMMIT_BYTES_PER_TEXT_BYTE = 4
COMMIT_BYTES_BASE = 1 << 20
ANSWER_BYTES_PER_TOKEN = 4


def keep_partial(store: LogStore, answer: PartialAnswer) -> Turn:
    """Keep as an incomplete turn: the one way a partial answer enters the log, only
    because the person asked. Raises `StoreError` (a delete meanwhile: conversation gone)."""
    return store.turns.commit(answer.conversation_id, answer.pending())


@dataclass
class _Run:
    """One send in progress: what it was asked, what it has learnt, and its callbacks.

    `usages` collects what summary calls cost during the current attempt; after an
    overflow, `min_covered` or `max_verbatim` make the next projection smaller and
    `overflow` keeps the first failure to report if that did not help.
    """

    request: SendRequest
    cancel: CancelToken
    on_stage: Callable[[Stage, str], None]
    on_delta: Callable[[str], None]
    on_projection: Callable[[Projection], None]
    on_reasoning: Callable[[str], None] | None = None
    turns: Sequence[Turn] = ()
    generation: int = 0
    attempt: int = 1
    started_wall: datetime = field(default_factory=lambda: datetime.now(UTC))
    started: float = 0.0
    usages: list[Usage] = field(default_factory=list)
    round_usages: list[Usage] = field(default_factory=list)  # the tool rounds' replies
    summary: SummaryPart | None = None
    min_covered: int = 0
    max_verbatim: int | None = None
    previous: Projection | None = None
    overflow: Failure | None = None
    overflow_record: RequestRecord | None = None
    tries: int = 0  # attempts at this answer counted against the retry budget
    first_try: float | None = None
    rounds: list[ToolRound] = field(default_factory=list)  # this send's tool exchange
    progress: RoundProgress = field(default_factory=lambda: RoundProgress([]))
    sent_sha256: list[str] = field(default_factory=list)  # this attempt's bodies, as sent

    @property
    def draft(self) -> str:
        return self.request.question

    @property
    def question(self) -> Question:
        return Question(self.request.question, self.request.attachments)

    @property
    def cid(self) -> int:
        return self.request.conversation.id


class _Stop(Exception):  # noqa: N818 - control flow inside `Sender`, never seen outside
    """Ends a send early with this outcome."""

    def __init__(self, failed: Failed) -> None:
        super().__init__(failed.failure.kind.value)
        self.failed = failed


class _Overflow(Exception):  # noqa: N818 - control flow inside `Sender`, never seen outside
    """The server found the request larger than its context window, before any answer."""

    def __init__(self, failure: Failure, record: RequestRecord) -> None:
        super().__init__(failure.kind.value)
        self.failure = failure
        self.record = record


class Sender:
    """Runs sends for one store and one provider. Safe to use from a worker thread.

    With a `compactor`, conversations that have compaction on get a rolling summary
    of their oldest turns instead of losing them from the request. With `retry`, an
    answer that failed with "not now" (429, 502–504, refused or reset) before any text
    arrived is tried again within that budget; each attempt gets its request record.
    """

    def __init__(
        self,
        store: LogStore,
        provider: ChatProvider,
        *,
        costs: CostIndex | None = None,
        compactor: Compactor | None = None,
        clock: Callable[[], float] = time.monotonic,
        retry: RetryPolicy | None = None,
    ) -> None:
        self.store = store
        self.retry = retry
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
        on_reasoning: Callable[[str], None] | None = None,
    ) -> Outcome:
        """Prepare; compact, plan and attempt (a second time only to recover from a context
        overflow); then commit the reply, or fail. The log changes only in `_commit`.
        `on_reasoning`, when given, gets a reasoning model's reasoning as it streams."""
        run = _Run(request, cancel or CancelToken(), on_stage, on_delta, on_projection,
                   on_reasoning)
        try:
            self._prepare(run)
            while True:
                self._compact(run)
                projection = self._plan(run)
                try:
                    reply = self._attempt(run, projection)
                    break
                except _Overflow as overflow:
                    self._recover_once(run, projection, overflow)
            if reply.calls and request.tools is not None:
                reply, projection = self._tool_loop(run, projection, reply, request.tools)
            outcome = self._commit(run, projection, reply)
        except _Stop as stop:
            outcome = stop.failed
        if isinstance(outcome, Committed):
            return outcome
        if run.progress.done:  # nothing is kept, but what ran has run: say so
            ran = executed([ToolRound((c,), (r,)) for c, r in run.progress.done])
            return replace(outcome, failure=replace(outcome.failure, ran=ran), answer=None)
        return self._offer(run, outcome)

    # The steps, in the order they run ---------------------------------------
    def _prepare(self, run: _Run) -> None:
        """The candidate: the question must be sendable text; read the log as it is now."""
        run.on_stage(Stage.PREPARING, "")
        problem = check_question(run.draft)
        if problem is None and has_images(run.request.attachments) \
                and not run.request.options.images:
            problem = Failure(FailureKind.NO_IMAGES,
                              detail="the connection is set not to accept images",
                              hint="Remove the images, or turn on “Accepts images” for "
                                   "this connection")
        if problem is not None:
            raise _Stop(Failed(problem, run.draft))
        try:
            run.turns = self.store.turns(run.cid)
            run.generation = self.store.conversations.generation(run.cid)
            answer = (run.request.options.max_tokens or run.request.budget.output_reserve)
            text = len(run.draft.encode("utf-8", "surrogatepass")) \
                + answer * ANSWER_BYTES_PER_TOKEN
            if run.request.continuation is not None:
                text += len(run.request.continuation.partial.encode("utf-8", "surrogatepass"))
            # The originals and the bytes sent, beside each other.
            text += sum(a.size + len(a.sent) for a in run.request.attachments)
            self.store.database.ensure_room(COMMIT_BYTES_BASE + COMMIT_BYTES_PER_TEXT_BYTE * text)
        except StoreError as err:
            raise _Stop(Failed(err.failure(), run.draft)) from err
        replaces = run.request.replaces
        if replaces is not None:
            if not run.turns or run.turns[-1].id != replaces:
                failure = Failure(FailureKind.CONVERSATION_GONE,
                                  detail="the turn to replace is no longer the last one")
                raise _Stop(Failed(failure, run.draft))
            run.turns = without_last(run.turns)

    def _compact(self, run: _Run) -> None:
        """Start an attempt; with compaction on, make or reuse the summary it needs."""
        run.on_stage(Stage.ORGANIZING, "")
        run.started_wall = datetime.now(UTC)
        run.started = self.clock()
        run.summary = None
        request = run.request
        if self.compactor is None or not request.conversation.settings.compaction:
            return
        compaction = CompactionResult(summary=None, usages=run.usages)
        try:
            self.compactor.summarize(
                run.cid, run.generation, run.turns, run.question,
                CompactionSettings(request.model, request.budget, request.options,
                                   request.conversation.settings.compaction_share,
                                   request.continuation, offered_specs(request)),
                system_prompt=request.conversation.system_prompt,
                pinned=request.pinned, cancel=run.cancel,
                progress=lambda k, n: run.on_stage(Stage.COMPACTING, f"chunk {k} of {n}"),
                min_covered=run.min_covered, result=compaction,
            )
        except ProviderFailure as err:
            run.usages.append(err.usage)
            record = self._record(run, None, err.failure.kind.value, status=err.failure.status)
            raise _Stop(Failed(err.failure, run.draft, projection=run.previous,
                               record=record)) from err
        except StoreError as err:
            failure = err.failure(stage="compacting")
            raise _Stop(Failed(failure, run.draft)) from err
        run.summary = compaction.summary

    def _plan(self, run: _Run) -> Projection:
        """The exact request: the log projected into the budget, with the summary if any."""
        if run.cancel.cancelled:
            raise _Stop(Failed(Failure(FailureKind.CANCELLED), run.draft,
                               projection=run.previous))
        request = run.request
        try:
            projection = project(
                run.turns, run.question, model=request.model, budget=request.budget,
                system_prompt=request.conversation.system_prompt, options=request.options,
                pinned=request.pinned, summary=run.summary, costs=self.costs,
                max_verbatim=run.max_verbatim, continuation=request.continuation,
                tools=offered_specs(request),
            )
        except ProjectionRefused as refusal:
            failure = Failure(FailureKind.REFUSED, detail=refusal.describe())
            raise _Stop(Failed(failure, run.draft, refusal=refusal,
                               projection=run.previous)) from refusal
        if run.overflow is not None and run.previous is not None and (
            projection.body_bytes >= run.previous.body_bytes
        ):
            # Recovery could not make the request smaller: report the original overflow.
            raise _Stop(Failed(run.overflow, run.draft, projection=run.previous,
                               record=run.overflow_record))
        run.on_projection(projection)
        return projection

    def _attempt(self, run: _Run, projection: Projection) -> Reply:
        """Send the exact bytes that were measured. A context overflow before any answer
        text, the first time, may be recovered from; a "not now" before any answer text
        is tried again within the retry budget; every other failure ends here."""
        reasoning = run.on_reasoning
        while True:
            run.on_stage(Stage.ANSWERING, "")
            answered = False

            def on_delta(text: str) -> None:
                nonlocal answered
                answered = True
                run.on_delta(text)

            run.tries += 1
            if run.first_try is None:
                run.first_try = self.clock()
            def on_thought(text: str) -> None:  # shown thinking: a partial stream too
                nonlocal answered
                answered = True
                if reasoning is not None:
                    reasoning(text)

            run.sent_sha256 = [sha256_hex(projection.body)]
            try:
                if reasoning is None:
                    return self.provider.complete(projection.body, on_delta=on_delta,
                                                  cancel=run.cancel)
                return self.provider.complete(projection.body, on_delta=on_delta,
                                              cancel=run.cancel, on_reasoning=on_thought)
            except ProviderFailure as err:
                record = self._record(run, projection, err.failure.kind.value, usage=err.usage,
                                      status=err.failure.status, answer=err.partial)
                recoverable = (
                    err.failure.kind is FailureKind.CONTEXT_OVERFLOW
                    and not err.partial
                    and run.overflow is None
                    and not run.cancel.cancelled
                    and projection.sent_count > 0
                )
                if recoverable:
                    raise _Overflow(err.failure, record) from err
                failed = Failed(err.failure, run.draft, err.partial, projection, record)
                self._wait_to_retry(run, failed, answered or bool(err.partial))

    def _wait_to_retry(self, run: _Run, failed: Failed, answered: bool) -> None:
        """Wait before the next attempt, cancellably, and start it; or end the send with
        `failed` when the retry budget allows none."""
        wait = None
        if self.retry is not None and not run.cancel.cancelled and run.first_try is not None:
            wait = self.retry.wait_before_next(failed.failure, attempt=run.tries,
                                               elapsed_s=self.clock() - run.first_try,
                                               answered=answered)
        if wait is None or self.retry is None:
            raise _Stop(failed)
        run.on_stage(Stage.RETRYING, f"in {math.ceil(wait)} s (attempt {run.tries + 1} of "
                                     f"{self.retry.attempts})")
        if run.cancel.wait(wait):
            raise _Stop(replace(failed, failure=Failure(FailureKind.CANCELLED), partial=""))
        run.attempt += 1
        run.usages = []  # summary calls were counted with the first attempt
        run.started_wall = datetime.now(UTC)
        run.started = self.clock()

    def _recover_once(self, run: _Run, projection: Projection, overflow: _Overflow) -> None:
        """Shrink the next attempt: into the window the error stated, when it stated one
        that the request's count does not fit; else by one turn, summarized if compaction
        is on, else left out."""
        run.overflow, run.overflow_record = overflow.failure, overflow.record
        run.previous = projection
        run.attempt += 1
        run.usages = []
        budget = run.request.budget
        stated = overflow.failure.context_window
        if stated is not None and stated < budget.context_window:
            with contextlib.suppress(InvalidBudget):
                smaller = budget.within(stated, WINDOW_LEARNED)
                if 0 < smaller.input_tokens < projection.input_tokens:
                    options = run.request.options
                    if options.max_tokens is not None:
                        options = replace(options, max_tokens=min(options.max_tokens,
                                                                  smaller.output_reserve))
                    run.request = replace(run.request, budget=smaller, options=options)
                    return
        first_sent = len(run.turns) - projection.sent_count
        if run.summary is not None or (
            self.compactor is not None and run.request.conversation.settings.compaction
        ):
            run.min_covered = first_sent + 1
        # One turn fewer verbatim either way: when no summary call fits the window, the
        # oldest sent turn is left out instead of folded.
        run.max_verbatim = projection.sent_count - 1

    def _commit(self, run: _Run, projection: Projection, reply: Reply) -> Outcome:
        """Only a complete answer may enter the log; anything else fails with the draft."""
        problem = validate_reply(reply)
        if problem is None and run.cancel.cancelled:
            problem = Failure(FailureKind.CANCELLED)
        if problem is not None:
            record = self._record(run, projection, problem.kind.value, usage=reply.usage,
                                  first_token_s=reply.first_token_s, answer=reply.content)
            return Failed(problem, run.draft, reply.content, projection, record,
                          answer=self._partial(run, reply.content, problem, reply))
        continuation = run.request.continuation
        answer = continuation.join(reply.content) if continuation else reply.content
        pending = PendingTurn(
            id=run.request.turn_id, question=run.draft, answer=answer,
            model=reply.model or run.request.model, finish_reason="stop", usage=reply.usage,
            created_at=datetime.now(UTC), generation=run.generation,
            replaces=run.request.replaces,
            reasoning=reply.reasoning, attachments=run.request.attachments,
            tools=tuple(run.rounds),
        )
        try:
            turn = self.store.turns.commit(run.cid, pending)
        except StoreError as err:
            record = self._record(run, projection, err.kind.value, usage=reply.usage,
                                  first_token_s=reply.first_token_s, answer=reply.content)
            failure = err.failure()
            return Failed(failure, run.draft, answer, projection, record)
        record = self._record(run, projection, "committed", usage=reply.usage,
                              first_token_s=reply.first_token_s, turn_id=turn.id,
                              answer=reply.content,
                              proof=self._proof(run, projection))
        return Committed(turn, projection, reply, record)

    def _tool_loop(self, run: _Run, projection: Projection, reply: Reply,
                   runner: ToolRunner) -> tuple[Reply, Projection]:
        """Run the calls, send the results, until a reply asks for none. Output has
        arrived: nothing here is re-planned or retried, every failure ends the send."""
        bounds = runner.bounds
        started = self.clock()

        def remaining() -> float:
            return bounds.deadline_s - (self.clock() - started - run.progress.waited_s)

        current = projection
        try:
            while reply.calls:
                if len(run.rounds) >= bounds.max_rounds:
                    raise bound("tool_rounds", f"the model asked for tools {bounds.max_rounds} "
                                "times without answering", "Send again, or ask more narrowly")
                run.on_stage(Stage.ANSWERING, "running tools")
                run.rounds.append(run_round(reply, runner, run.cancel, self.clock, remaining,
                                            run.progress))
                current = with_exchange(projection, run.rounds, self.costs.counter)
                self._check_exchange_fits(current)
                if remaining() <= 0:
                    raise bound("tool_deadline", f"the tool calls and answers took longer than "
                                f"{bounds.deadline_s:g} s (time waiting for approval not "
                                "counted)", "Send again")
                run.on_projection(current)
                run.on_stage(Stage.ANSWERING, "")
                run.sent_sha256.append(sha256_hex(current.body))
                run.round_usages.append(reply.usage)
                reply = self.provider.complete(current.body, on_delta=run.on_delta,
                                               cancel=run.cancel)
        except ToolLoopFailed as err:
            record = self._record(run, current, err.failure.code or err.failure.kind.value)
            raise _Stop(Failed(err.failure, run.draft, projection=current,
                               record=record)) from err
        except ProviderFailure as err:
            record = self._record(run, current, err.failure.kind.value, usage=err.usage,
                                  status=err.failure.status, answer=err.partial)
            raise _Stop(Failed(err.failure, run.draft, err.partial, current, record)) from err
        return reply, current

    @staticmethod
    def _check_exchange_fits(projection: Projection) -> None:
        """After a tool ran, a request that no longer fits is a failure, not a new plan."""
        budget = projection.budget
        if projection.body_bytes > budget.max_bytes or \
                projection.input_tokens > budget.input_tokens:
            raise bound("tool_overflow",
                        f"with the tool results the request takes {projection.body_bytes:,} "
                        f"bytes and about {projection.input_tokens:,} tokens; the limits are "
                        f"{budget.max_bytes:,} bytes and {budget.input_tokens:,} tokens",
                        "Raise the limits, or ask for less at once")

    @staticmethod
    def _proof(run: _Run, projection: Projection) -> RequestProof:
        """The committed request's references, with the hashes of the bodies it sent."""
        request = run.request
        continuation = request.continuation
        return proof_of(projection, request.conversation.system_prompt, request.pinned,
                        run.sent_sha256 or [sha256_hex(projection.body)],
                        continued=len(continuation.partial) if continuation else None,
                        prefill=continuation.prefill if continuation else False)

    def _partial(self, run: _Run, text: str, failure: Failure,
                 reply: Reply | None = None) -> PartialAnswer | None:
        """The answer so far of a failed attempt, to offer, if it is one to keep: some
        text that stopped for a reason `incomplete_reason` names."""
        reason = incomplete_reason(failure)
        if reason is None or not text.strip():
            return None
        return PartialAnswer(
            run.cid, run.draft, text, reason, (reply.model if reply else "")
            or run.request.model, run.request.turn_id, run.generation,
            finish_reason=(reply.finish_reason or "") if reply else "",
            usage=reply.usage if reply else UNKNOWN_USAGE, replaces=run.request.replaces,
            reasoning=reply.reasoning if reply else "", attachments=run.request.attachments)

    def _offer(self, run: _Run, failed: Failed) -> Failed:
        """A failed send, with its partial answer offered. A failed continuation offers the
        longer answer so far (what it had, and any more that came), for its own reason or
        else the first one's, so it can be kept or continued again."""
        continuation = run.request.continuation
        answer = failed.answer
        if continuation is None:
            if answer is None:
                answer = self._partial(run, failed.partial, failed.failure)
            return replace(failed, answer=answer)
        text = continuation.join(failed.partial)
        reason = incomplete_reason(failed.failure) or continuation.reason
        if answer is None:
            answer = PartialAnswer(run.cid, run.draft, text, reason, run.request.model,
                                   run.request.turn_id, run.generation,
                                   replaces=run.request.replaces,
                                   attachments=run.request.attachments)
        return replace(failed, partial=text,
                       answer=replace(answer, text=text, reason=reason))

    def _record(
        self,
        run: _Run,
        projection: Projection | None,
        outcome: str,
        *,
        usage: Usage = UNKNOWN_USAGE,
        status: int | None = None,
        first_token_s: float | None = None,
        turn_id: str | None = None,
        proof: RequestProof | None = None,
        answer: str | None = None,
    ) -> RequestRecord:
        request = run.request
        record = RequestRecord(
            conversation_id=request.conversation.id,
            started_at=run.started_wall,
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
            duration_s=self.clock() - run.started,
            first_token_s=first_token_s,
            status=status,
            turn_id=turn_id,
            summary_id=projection.summary.summary_id if projection and projection.summary
            else None,
            extra_usage=tuple(run.usages),
            attempt=run.attempt,
            seed=request.options.seed,
            proof=proof,
            pricing=request.pricing,
            output_estimate=answer_estimate(answer, usage),
            round_usage=tuple(run.round_usages),
        )
        # The record is bookkeeping; losing it must not turn an answer into a failure.
        with contextlib.suppress(StoreError):
            self.store.records.add(record)
        return record
