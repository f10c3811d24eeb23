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
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..core.attachments import Attachment, Question, has_images
from ..core.compaction import Preview, StoredSummary, preview
from ..core.memory import NO_MEMORY, Memory
from ..core.model import Conversation, Turn, without_last
from ..core.projection import CostIndex, Projection, ProjectionRefused
from ..core.send import PartialAnswer, SendRequest, check_question
from ..core.tool_loop import ToolRunner
from ..core.tools import ToolSpec
from .chat import Route, request_for

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
