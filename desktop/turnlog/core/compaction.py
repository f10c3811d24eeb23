"""Compaction: fold the oldest turns into one rolling summary, with provenance and bounds.

What a request carries is planned in `compaction_plan` (pure, shared by the window's
preview and the send; named here too). `Compactor` makes or extends the summary that plan
asks for, through the same provider as any request, caches it through a `SummaryStore`,
and fails by name on every bound; the key facts a summary must keep are checked here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Protocol

from .attachments import Asked
from .body import SYSTEM, USER, Message, RequestOptions, build_body, utf8_len

# The plan, named here too for who makes summaries (and for the tests of both halves).
from .compaction_plan import COMPACTION_DEADLINE_S as COMPACTION_DEADLINE_S
from .compaction_plan import MAX_SUMMARY_BYTES as MAX_SUMMARY_BYTES
from .compaction_plan import MAX_SUMMARY_CALLS as MAX_SUMMARY_CALLS
from .compaction_plan import MIN_CHUNK_ROOM as MIN_CHUNK_ROOM
from .compaction_plan import PROMPT_VERSION as PROMPT_VERSION
from .compaction_plan import SUMMARY_OUTPUT_TOKENS as SUMMARY_OUTPUT_TOKENS
from .compaction_plan import SUMMARY_PROMPT as SUMMARY_PROMPT
from .compaction_plan import CompactionResult as CompactionResult
from .compaction_plan import CompactionSettings as CompactionSettings
from .compaction_plan import CostIndex as CostIndex
from .compaction_plan import Preview as Preview
from .compaction_plan import chunk_room as chunk_room
from .compaction_plan import fold_input as fold_input
from .compaction_plan import ids_digest as ids_digest
from .compaction_plan import json_len as json_len
from .compaction_plan import plan_compaction as plan_compaction
from .compaction_plan import preview as preview
from .compaction_plan import recent_count as recent_count
from .compaction_plan import summary_options as summary_options
from .compaction_plan import summary_output_tokens as summary_output_tokens
from .compaction_plan import turn_block as turn_block
from .failures import Failure, FailureKind, ProviderFailure
from .key_facts import key_facts as key_facts
from .key_facts import missing_key_facts as missing_key_facts
from .key_facts import negations as negations
from .key_facts import pinned_facts_missing as pinned_facts_missing
from .model import Turn, Usage
from .projection import Pinned, ProjectionRefused, SummaryPart, project
from .provider import CancelToken, ChatProvider
from .summaries import StoredSummary, SummaryDraft, summary_text


class SummaryStore(Protocol):
    """The records part of a store (`store.records`), as compaction reads and writes it."""

    def latest_summary(self, conversation_id: int) -> StoredSummary | None: ...

    def save_summary(self, conversation_id: int, draft: SummaryDraft) -> StoredSummary:
        """Write only if the conversation's generation still equals `draft.generation`
        and every covered turn still exists; otherwise raise `StoreError`."""
        ...


# --------------------------------------------------------------------- chunks
def split_utf8(
    text: str, max_bytes: int, measure: Callable[[str], int] = utf8_len
) -> list[str]:
    """Split `text` into pieces of at most `max_bytes` (as `measure` counts them), never
    inside a character: Python strings hold whole code points, and we cut between them."""
    pieces: list[str] = []
    start = 0
    while start < len(text):
        end = fitting_end(text, start, max_bytes, measure)
        pieces.append(text[start:end])
        start = end
    return pieces


def fitting_end(
    text: str, start: int, max_bytes: int, measure: Callable[[str], int] = utf8_len
) -> int:
    """The end of the longest piece of `text` from `start` that fits in `max_bytes`. Every
    character takes at least one byte, so the search never looks past `start + max_bytes`:
    its cost follows the piece, not the rest of the text."""
    if max_bytes < 6:
        raise ValueError("a chunk must hold at least one character (6 bytes)")
    lo, hi = start + 1, min(len(text), start + max_bytes)
    while lo < hi:  # the longest prefix that fits
        mid = (lo + hi + 1) // 2
        if measure(text[start:mid]) <= max_bytes:
            lo = mid
        else:
            hi = mid - 1
    return lo


def chunk_turns(turns: Sequence[Turn], max_bytes: int) -> list[str]:
    """Group whole turns into chunks of at most `max_bytes` (escaped for JSON); a turn larger
    than a chunk is split on character boundaries into chunks of its own."""
    chunks: list[str] = []
    blocks = [turn_block(t) for t in turns]
    while blocks:
        chunk, blocks = take_chunk(blocks, max_bytes)
        chunks.append(chunk)
    return chunks


def take_chunk(blocks: list[str], max_bytes: int) -> tuple[str, list[str]]:
    """The next chunk from `blocks` (whole turns while they fit, else a piece of the first
    one) and the blocks left over."""
    used = 0
    taken = 0
    for block in blocks:
        # A block longer than the room cannot fit (a character is at least one byte):
        # no need to measure all of it.
        size = json_len(block) if len(block) <= max_bytes else max_bytes + 1
        if used + size > max_bytes:
            break
        used += size
        taken += 1
    if taken:
        return "".join(blocks[:taken]), blocks[taken:]
    end = fitting_end(blocks[0], 0, max_bytes, json_len)
    return blocks[0][:end], [blocks[0][end:], *blocks[1:]]



Progress = Callable[[int, int], None]


class Compactor:
    """Makes, extends and reuses the rolling summary of one conversation's oldest turns."""

    def __init__(
        self,
        summaries: SummaryStore,
        provider: ChatProvider,
        *,
        costs: CostIndex,
        clock: Callable[[], float] = time.monotonic,
        max_calls: int = MAX_SUMMARY_CALLS,
        deadline_s: float = COMPACTION_DEADLINE_S,
    ) -> None:
        self.summaries = summaries
        self.provider = provider
        self.costs = costs
        self.clock = clock
        self.max_calls = max_calls
        self.deadline_s = deadline_s

    # Making ---------------------------------------------------------------
    def ensure(
        self,
        conversation_id: int,
        generation: int,
        turns: Sequence[Turn],
        span: tuple[int, int, int],
        base: StoredSummary | None,
        settings: CompactionSettings,
        cancel: CancelToken,
        progress: Progress,
        result: CompactionResult,
        started: float,
    ) -> StoredSummary:
        """A stored summary covering exactly the turns at indexes first..covered-1 (`span`
        is first, start, covered), extending `base` (a summary of first..start-1) with the
        turns from `start`, or starting afresh (`base` None, `start` == first)."""
        first, start, covered = span
        if base is not None and start == covered:
            return base
        previous = base.content if base else ""
        # Chunks are cut one at a time: the room for new turns shrinks as the summary grows.
        blocks = [turn_block(t) for t in turns[start:covered]]
        index = 0
        while blocks:
            room = self._chunk_bytes(settings, previous)
            chunk, blocks = take_chunk(blocks, room)
            index += 1
            total = index + -(-sum(json_len(b) for b in blocks) // room)
            progress(index, total)
            stage = f"compacting (chunk {index} of {total})"
            self._check_bounds(result, started, stage=stage)
            result.calls += 1
            content, usage = self._call(previous, chunk, settings, cancel, stage)
            result.usages.append(usage)
            previous = content
        covered_turns = turns[first:covered]
        warnings = tuple(missing_key_facts(key_facts(covered_turns), previous))
        tokens = self.costs.counter.message_tokens(SYSTEM, previous)
        draft = SummaryDraft(
            covered_turn_ids=tuple(t.id for t in covered_turns),
            first_ordinal=covered_turns[0].ordinal,
            last_ordinal=covered_turns[-1].ordinal,
            covered_digest=ids_digest(covered_turns),
            content=previous,
            model=settings.model,
            settings_key=settings.key,
            content_tokens=tokens,
            usages=tuple(result.usages),
            warnings=warnings,
            generation=generation,
        )
        return self.summaries.save_summary(conversation_id, draft)

    def _chunk_bytes(self, settings: CompactionSettings, previous: str) -> int:
        """Room for new turns in one summary call (see `chunk_room`); too little fails."""
        room = chunk_room(settings, previous, self.costs.counter)
        if room < MIN_CHUNK_ROOM:
            raise ProviderFailure(
                Failure(
                    FailureKind.SUMMARY_FAILED,
                    detail=f"the budget leaves only {max(room, 0):,} bytes for older turns in "
                    "a summary request",
                    hint="Raise the byte limit or the context window, or turn compaction off",
                    stage="compacting",
                )
            )
        return room

    @staticmethod
    def _fold_input(previous: str, chunk: str) -> str:
        return fold_input(previous, chunk)

    @staticmethod
    def _options(settings: CompactionSettings) -> RequestOptions:
        return summary_options(settings)

    def _check_bounds(self, result: CompactionResult, started: float, *, stage: str) -> None:
        if result.calls >= self.max_calls:
            raise ProviderFailure(
                Failure(
                    FailureKind.COMPACTION_LIMIT,
                    detail=f"it needed more than {self.max_calls} summary calls",
                    hint="Raise the byte limit or context window, or turn compaction off",
                    stage=stage,
                )
            )
        if self.clock() - started > self.deadline_s:
            raise ProviderFailure(
                Failure(
                    FailureKind.COMPACTION_LIMIT,
                    detail=f"summarizing took longer than {self.deadline_s:.0f} s",
                    hint="Try again, or turn compaction off for this conversation",
                    stage=stage,
                )
            )

    def _call(
        self,
        previous: str,
        chunk: str,
        settings: CompactionSettings,
        cancel: CancelToken,
        stage: str,
    ) -> tuple[str, Usage]:
        provider = self.provider
        body = build_body(
            settings.model,
            [Message(SYSTEM, SUMMARY_PROMPT), Message(USER, self._fold_input(previous, chunk))],
            self._options(settings),
        )
        try:
            reply = provider.complete(body, on_delta=lambda text: None, cancel=cancel)
        except ProviderFailure as err:
            failure = err.failure
            raise ProviderFailure(
                Failure(failure.kind, failure.detail, failure.hint, failure.retry_after,
                        failure.status, stage=stage),
                usage=err.usage,
            ) from err
        problem = None
        if reply.tool_calls:
            problem = "the model tried to call a tool instead of summarizing"
        elif reply.finish_reason == "length":
            problem = (f"the summary was cut off at its "
                       f"{summary_output_tokens(settings.budget):,}-token limit")
        elif reply.finish_reason != "stop":
            problem = f"the summary ended with finish reason “{reply.finish_reason}”"
        elif not reply.content.strip():
            problem = "the summary came back empty"
        elif utf8_len(reply.content) > MAX_SUMMARY_BYTES:
            problem = (f"the summary is {utf8_len(reply.content):,} bytes, over the "
                       f"{MAX_SUMMARY_BYTES:,}-byte limit")
        if problem is not None:
            raise ProviderFailure(
                Failure(FailureKind.SUMMARY_FAILED, detail=problem, stage=stage,
                        hint="Send again, or turn compaction off for this conversation"),
                usage=reply.usage,
            )
        return reply.content.strip(), reply.usage

    def summarize(
        self,
        conversation_id: int,
        generation: int,
        turns: Sequence[Turn],
        question: Asked,
        settings: CompactionSettings,
        *,
        system_prompt: str,
        pinned: Pinned,
        cancel: CancelToken,
        progress: Progress,
        min_covered: int = 0,
        result: CompactionResult | None = None,
    ) -> CompactionResult:
        """The summary part for this request, or none when the whole log fits.

        Carries out `plan_compaction`: reuses the cached summary while it fits, else folds
        up to the low-water mark. If the newest turns after the new summary still do not
        all fit, extends the cover and folds again, so the summary and the verbatim suffix
        always meet (turns before the summary are left out only for a backlog too long).
        """
        result = result if result is not None else CompactionResult(summary=None)
        started = self.clock()
        plan = plan_compaction(
            turns, question, settings, system_prompt=system_prompt, pinned=pinned,
            costs=self.costs, cached=self.summaries.latest_summary(conversation_id),
            min_covered=min_covered,
        )
        if plan.covered == 0:
            return result
        first, start, covered, base = plan.first, plan.start, plan.covered, plan.base
        while True:
            stored = self.ensure(conversation_id, generation, turns, (first, start, covered),
                                 base, settings, cancel, progress, result, started)
            result.stored = stored
            part = SummaryPart(summary_text(stored), covered, stored.id, first)
            result.summary = part
            try:
                projection = project(
                    turns, question, model=settings.model, budget=settings.budget,
                    system_prompt=system_prompt, options=settings.options, pinned=pinned,
                    summary=part, costs=self.costs, continuation=settings.continuation,
                )
            except ProjectionRefused:
                # The summary came out too long to go beside the question: the request
                # goes without it (the oldest turns left out) rather than not at all.
                result.summary = None
                return result
            first_sent = len(turns) - projection.sent_count
            if first_sent == covered:
                return result
            # Turns between summary and verbatim must be folded in.
            base, start, covered = stored, covered, first_sent
