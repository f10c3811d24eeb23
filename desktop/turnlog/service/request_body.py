"""The one body builder: everything a send depends on, turned into the exact body bytes,
its parts, both budgets and the marks — for the composer's counter, the inspector's
preview, the send, the request in flight, `turnlog-cli ask` and `turnlog-cli project`.

`build` takes an `Ask` (the conversation and its active line, the draft and its files,
the route and model, the tools offered, memory, the stored summary, a new version or a
continuation, the cost index) and gives a `Built`: the `SendRequest` a send hands to
core's `Sender`, and the `Preview` of the body that request puts on the wire. The
preview is *final* only when nothing stands between it and Send: otherwise `not_final`
says why (a summary is made first, the built-in model is still starting, a tool server is
still starting, token counts are still being made, or Send refuses and why).

`rebuild` makes a past request's body again from what its record names (`core.proof`),
with the frozen builder of the record's body format, and checks it against the stored
SHA-256; `sent_request` finds the record of a turn as the window numbers it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..core.attachments import Attachment, Question, has_images
from ..core.compaction_plan import Preview, preview
from ..core.failures import check_question
from ..core.memory import NO_MEMORY, Memory
from ..core.model import Conversation, Turn, without_last
from ..core.numbers import TurnNumbers
from ..core.projection import CostIndex, Projection, ProjectionRefused, sent_body
from ..core.send_request import PartialAnswer, SendRequest
from .route import Route, request_for

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:  # type names only: the tool loop runs in a send, not in a preview; a
    # past request's proof is read back by `rebuild`, which loads its module
    from typing import Protocol

    from ..core.proof import Rebuilt, SentParts, ShownPart, Sources
    from ..core.summaries import StoredSummary
    from ..core.tool_loop import ToolRunner
    from ..core.tools import ToolSpec
    from ..core.versions import Versions

# Why a preview is not final (the window translates these words; the CLI prints them).
SUMMARY_FIRST = "a summary is made first and the body changes"
NO_IMAGES = "Send is refused: the model takes no images"
TOO_LARGE = "Send is refused: the request is too large"
BLANK = "Send is refused: the question is empty"
WHAT_IF = "a what-if limit: Send uses the conversation's own"
MODEL_STARTING = "the built-in model is still starting: its window may change the body"


@dataclass(frozen=True, slots=True)
class Ask:
    """Everything a send depends on. `turns`: the conversation's active line as the store
    has it (with the turn `replaces` names, which a new version is asked without).
    `tool_specs`: the definitions of the tools a send offers (`tools`, the runner a send
    calls them through, offers the same). `waiting`: why the body a send makes could
    still differ from this one (a model or tool server still starting, counts being
    made), from what only the caller knows. `seed`: the sampling seed the body carries
    (`new_sample_seed`: Regenerate's), kept by the caller so the body it previews is
    the one it sends."""

    conversation: Conversation
    question: str
    route: Route
    turns: Sequence[Turn] = ()
    attachments: tuple[Attachment, ...] = ()
    memory: Memory = NO_MEMORY
    summary: StoredSummary | None = None
    replaces: str | None = None
    partial: PartialAnswer | None = None
    tool_specs: tuple[ToolSpec, ...] = ()
    tools: ToolRunner | None = None
    costs: CostIndex | None = None
    turn_id: str | None = None
    max_bytes: int | None = None  # a what-if byte limit (nothing is sent under it)
    waiting: str = ""
    seed: int | None = None


# Seeds below 2**31: every server that takes one (llama.cpp's is a 32-bit int) takes these.
SEED_LIMIT = 1 << 31


def new_sample_seed(route: Route) -> int | None:
    """A fresh seed for a new sample of an answer (Regenerate), where the server `route`
    leads to takes one; None elsewhere (an unknown field can make a strict server refuse)."""
    import secrets

    return secrets.randbelow(SEED_LIMIT) if route.seed else None


@dataclass(frozen=True, slots=True)
class Built:
    """The request of an `Ask`: what a send hands to `Sender`, and what it would carry.
    `planned` is None where the mandatory part does not fit (`refusal` says by how much)."""

    request: SendRequest
    planned: Preview | None
    refusal: ProjectionRefused | None
    not_final: str

    @property
    def final(self) -> bool:
        return not self.not_final

    @property
    def projection(self) -> Projection | None:
        return self.planned.projection if self.planned is not None else None

    @property
    def body(self) -> bytes:
        projection = self.projection
        return projection.body if projection is not None else b""

    def to_summarize_runs(self) -> tuple[tuple[int, int], ...]:
        return tuple(self.planned.to_summarize_runs()) if self.planned is not None else ()


def send_request(ask: Ask) -> SendRequest:
    """The candidate a send hands to core's `Sender` (raises `InvalidBudget`)."""
    request = request_for(ask.conversation, ask.question, ask.route, turn_id=ask.turn_id,
                          replaces=ask.replaces, memory=ask.memory, partial=ask.partial,
                          attachments=ask.attachments, tools=ask.tools)
    if ask.seed is not None:
        request = replace(request, options=replace(request.options, seed=ask.seed))
    if ask.max_bytes is None:
        return request
    return replace(request, budget=replace(request.budget, max_bytes=ask.max_bytes))


def line_of(ask: Ask) -> Sequence[Turn]:
    """The turns a send projects: the active line, less the turn a new version replaces."""
    turns = ask.turns
    if ask.replaces is not None and len(turns) and turns[-1].id == ask.replaces:
        return without_last(turns)
    return turns


def build(ask: Ask, line: Sequence[Turn] | None = None) -> Built:
    """The one body builder (see the module's docstring). `line`: `line_of(ask)` when the
    caller keeps it made (a paged log keeps its pages). Raises `InvalidBudget` for limits
    out of range and `CountNotKnown` from a counter that may not wait."""
    request = send_request(ask)
    specs = ask.tool_specs or (tuple(ask.tools.specs()) if ask.tools is not None else ())
    settings = ask.conversation.settings
    try:
        planned: Preview | None = preview(
            line_of(ask) if line is None else line, Question(ask.question, request.attachments),
            model=request.model, budget=request.budget,
            system_prompt=ask.conversation.system_prompt, options=request.options,
            costs=ask.costs or CostIndex(), compaction=settings.compaction, cached=ask.summary,
            pinned=ask.memory, target=settings.compaction_share,
            continuation=request.continuation, tools=specs)
        refusal = None
    except ProjectionRefused as err:
        planned, refusal = None, err
    return Built(request, planned, refusal, _not_final(ask, request, planned, refusal))


def _not_final(ask: Ask, request: SendRequest, planned: Preview | None,
               refusal: ProjectionRefused | None) -> str:
    """Why Send would not put `planned`'s body on the wire now ("" when it would)."""
    if check_question(ask.question) is not None:
        return BLANK
    if has_images(request.attachments) and not request.options.images:
        return NO_IMAGES
    if refusal is not None or planned is None:
        return TOO_LARGE
    if ask.max_bytes is not None:
        return WHAT_IF
    if ask.route.pending:
        return MODEL_STARTING
    if ask.waiting:
        return ask.waiting
    if not planned.final:
        return SUMMARY_FIRST
    return ""


# ------------------------------------------------------------ a past request, rebuilt
COMMITTED = "committed"  # the outcome of a request whose answer entered the log


class RoundNotFound(ValueError):
    """A tool round a request did not have."""


def rebuild(sources: Sources, round_: int | None = None) -> Rebuilt:
    """A past request as its record's references rebuild it (`round_`: which of a tool
    exchange's requests, 1 the first; default the answer's): its parts, its turns' marks,
    the body when every part could be read (never guessed) and whether it hashes to the
    stored hash. Raises `RoundNotFound`."""
    from ..core.proof import CHANGED, PART_DELETED, Rebuilt, sha256_hex

    rounds = len(sources.sha256) if sources.sha256 else max(
        1, len(sources.answered.tools) + 1 if sources.answered else 1)
    chosen = rounds if round_ is None else round_
    if not 1 <= chosen <= rounds:
        raise RoundNotFound(f"the request has {rounds} round{'s' if rounds != 1 else ''} "
                            f"(1 to {rounds}), not {chosen}")
    parts = _shown_parts(sources, chosen)
    marks = _marks_of(sources)
    stored = sources.sha256[chosen - 1] if sources.sha256 else None
    why = _why_not(sources, parts)
    body = None if why else sent_body(_sent_parts(sources, chosen))
    verified = body is not None and stored is not None and sha256_hex(body) == stored
    if body is not None and not verified:
        why = CHANGED if stored is not None else PART_DELETED
    return Rebuilt(sources.record_id, sources.turn_id, sources.outcome, parts, marks, body,
                   stored, verified, why, chosen, rounds)


def _why_not(sources: Sources, parts: Sequence[ShownPart]) -> str:
    from ..core.proof import (
        FAILED,
        FORMATS,
        NOT_VERIFIABLE,
        PART_DELETED,
        UNKNOWN_FORMAT,
        PartState,
    )

    if sources.outcome != COMMITTED:
        return FAILED
    if sources.format is None:
        return NOT_VERIFIABLE
    if sources.format not in FORMATS:
        return UNKNOWN_FORMAT.format(format=sources.format)
    if any(p.state is PartState.DELETED for p in parts) or sources.sha256 is None:
        return PART_DELETED
    return ""


def _marks_of(sources: Sources) -> dict[str, list[tuple[int, int]]]:
    return {"sent verbatim": list(sources.marks.get("sent", ())),
            "in summary": list(sources.marks.get("summarized", ())),
            "not sent": list(sources.marks.get("left_out", ()))}


def _shown_parts(sources: Sources, chosen: int) -> tuple[ShownPart, ...]:
    """The parts in wire order, each shown or *deleted*."""
    from ..core.proof import PartState, ShownPart

    def text(kind: str, value: str | None, ordinal: int | None = None) -> ShownPart:
        state = PartState.SHOWN if value is not None else PartState.DELETED
        return ShownPart(kind, state, value, ordinal)

    out = [text(kind, value) for kind, value in sources.texts]
    if sources.summary_id is not None:
        out.append(text("summary", sources.summary))
    out += [text("turn", t.question, t.ordinal) for t in sources.turns]
    missing = sources.run_count - len(sources.turns)
    out += [ShownPart("turn", PartState.DELETED) for _ in range(max(0, missing))]
    answered = sources.answered
    out.append(text("question", answered.question if answered else None,
                    answered.ordinal if answered else None))
    if sources.continued is not None:
        out.append(text("continuation", answered.answer[:sources.continued] if answered
                        else None))
    if sources.tools is None:
        out.append(ShownPart("tools", PartState.DELETED))
    elif sources.tools:
        out.append(ShownPart("tools", PartState.SHOWN,
                             ", ".join(str(t.get("function", {}).get("name", "?"))
                                       for t in sources.tools)))
    if chosen > 1 and answered is not None:
        out.append(ShownPart("tool exchange", PartState.SHOWN,
                             f"{chosen - 1} round{'s' if chosen > 2 else ''} of tool calls"))
    return tuple(out)


def _sent_parts(sources: Sources, chosen: int) -> SentParts:
    from ..core.partial import Continuation
    from ..core.proof import NOTE_TEXT, PIN_TEXT, PREFERENCE_TEXT, SYSTEM_TEXT, SentParts

    answered = sources.answered
    assert answered is not None and sources.options is not None and sources.tools is not None
    texts = [(kind, value or "") for kind, value in sources.texts]
    continuation = None
    if sources.continued is not None:
        continuation = Continuation(answered.answer[:sources.continued], "",
                                    prefill=sources.prefill)
    return SentParts(
        model=sources.model, options=sources.options,
        system_prompt=next((v for k, v in texts if k == SYSTEM_TEXT), ""),
        pins=tuple(v for k, v in texts if k == PIN_TEXT),
        kept=tuple((k, v) for k, v in texts if k in (PREFERENCE_TEXT, NOTE_TEXT)),
        summary=sources.summary if sources.summary_id is not None else None,
        turns=sources.turns, question=Question(answered.question, answered.attachments),
        continuation=continuation, rounds=answered.tools[:chosen - 1], tools=sources.tools)


class NoRecord(LookupError):
    """No kept request made the answer asked for."""


if TYPE_CHECKING:  # types only: `TurnlogStore` has these parts

    class RecordSource(Protocol):
        """The parts of a store a past request is read back from (`TurnlogStore` has them)."""

        @property
        def turns(self) -> _Versions: ...

        @property
        def records(self) -> _Records: ...

    class _Versions(Protocol):
        def versions(self, conversation_id: int) -> Versions: ...

    class _Records(Protocol):
        def turn_at(self, conversation_id: int, ordinal: int) -> str | None: ...

        def ids_of(self, conversation_id: int, turn_id: str) -> list[int]: ...

        def sources(self, record_id: int) -> Sources | None: ...


def record_of_turn(store: RecordSource, conversation_id: int, turn_id: str) -> int:
    """The record of the request that produced turn `turn_id` (raises `NoRecord`)."""
    found = store.records.ids_of(conversation_id, turn_id)
    if not found:
        raise NoRecord("no request record of this answer is kept (it was imported, or "
                       "its record was deleted)")
    return found[-1]


def request_of_turn(store: RecordSource, conversation_id: int, turn_id: str,
                    round_: int | None = None) -> Rebuilt:
    """The request that produced turn `turn_id`, rebuilt and checked, its turns named by
    the numbers the window shows (raises `NoRecord`, `RoundNotFound`)."""
    from ..core.proof import numbered

    sources = store.records.sources(record_of_turn(store, conversation_id, turn_id))
    if sources is None:
        raise NoRecord("the request record was deleted")
    numbers = TurnNumbers.of(store.turns.versions(conversation_id))
    return numbered(rebuild(sources, round_), numbers.number)


def sent_request(store: RecordSource, conversation_id: int, number: int,
                 round_: int | None = None) -> Rebuilt:
    """The request that produced turn `number` (as the window numbers turns: its versions
    share one; the version in use is taken) rebuilt and checked. Raises `NoRecord`,
    `RoundNotFound`."""
    versions = store.turns.versions(conversation_id)
    turn_id = store.records.turn_at(conversation_id, TurnNumbers.of(versions).opening(number))
    if turn_id is None:
        raise NoRecord(f"conversation {conversation_id} has no turn {number}")
    return request_of_turn(store, conversation_id, versions.active_of(turn_id), round_)
