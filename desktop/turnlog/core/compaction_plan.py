"""The compaction plan: what a request carries of the rolling summary, worked out before
anything is sent — pure, quick to load, shared by the window's preview, `turnlog-cli
project` and the send.

Nothing is summarized while the whole log fits. The cached summary is reused, with no
summary call, while it and every turn after it fit the request. Only when they do not is
the summary extended, down to a low-water mark: the newest turns that take at most a
target share of each budget (50 % unless the conversation says otherwise) stay verbatim,
so the sends after it have room to grow before the next compaction. A backlog longer than
the summary calls can fold is cut before folding: the summary covers its newest part and
the turns before are not sent. Making the summary is `compaction.Compactor`'s, loaded
only where a summary is made.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from .attachments import Asked
from .body import SYSTEM, USER, Message, RequestOptions, build_body, encode_json, utf8_len
from .budget import ESTIMATE, Budget
from .model import FrozenTurns, Turn, Usage, ordinal_runs_of, ordinals_of, position_of
from .projection import (
    CostIndex,
    PartKind,
    Pinned,
    Projection,
    ProjectionRefused,
    SummaryPart,
    project,
)

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:  # a stored summary's record and the tool records: loaded with the first one
    from .budget import TokenCounter
    from .partial import Continuation
    from .summaries import StoredSummary
    from .tools import ToolSpec

# The recent window of a side question (the main conversation fills the budget instead).
RECENT_MAX_PAIRS = 20
RECENT_MAX_TOKENS = 16_000
# After a compaction the verbatim turns take at most this share of each budget.
DEFAULT_TARGET_SHARE = 0.5
SUMMARY_OUTPUT_TOKENS = 2_048
MAX_SUMMARY_CALLS = 12
COMPACTION_DEADLINE_S = 120.0
# A summary longer than its output cap could allow (≈ 8 bytes a token, generous for CJK).
MAX_SUMMARY_BYTES = SUMMARY_OUTPUT_TOKENS * 8
PROMPT_VERSION = 1
MIN_CHUNK_ROOM = 256  # bytes of turns a summary call must have room for

SUMMARY_PROMPT = """\
You maintain the rolling summary of an earlier part of a conversation between a user and an \
assistant. You receive the previous summary (if any) and the next turns. Write one updated \
summary that replaces the previous one.

Rules:
- Keep exactly, character for character: numbers, identifiers, codes and ticket names, \
versions, file paths, URLs, commands, names, dates and amounts.
- Keep every decision, preference and constraint the user stated.
- Keep every negation or prohibition verbatim (for example "do not …", "never …", \
"must not …"); never turn a prohibition into a suggestion.
- Keep the language the user wrote in.
- Do not add facts, advice or commentary. Do not call tools.
- Be concise: short bullet points, no preamble."""


def ids_digest(turns: Iterable[Turn]) -> str:
    return _digest(turn.id for turn in turns)


def prefix_digest(turns: Sequence[Turn], count: int) -> str:
    """`ids_digest(turns[:count])`, from the ids alone where the log can give them
    without reading its turns (a paged log)."""
    if isinstance(turns, FrozenTurns):
        return _digest(turns.ids(0, min(count, len(turns))))
    return ids_digest(turns[:count])


def _digest(ids: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for turn_id in ids:
        digest.update(turn_id.encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def recent_count(turns: Sequence[Turn], budget: Budget, costs: CostIndex, *,
                 start: int = 0) -> int:
    """The recent window of a side question: ≤ 20 pairs, ≤ ¼ of the input budget,
    ≤ 16,000 tokens, among the turns from index `start` on (reads only those it keeps)."""
    limit = min(budget.input_tokens // 4, RECENT_MAX_TOKENS)
    used = 0
    kept = 0
    for index in range(len(turns) - 1, start - 1, -1):
        if kept == RECENT_MAX_PAIRS:
            break
        cost = costs.cost(turns[index]).tokens
        if used + cost > limit:
            break
        used += cost
        kept += 1
    return kept



SUMMARY_RESULT_CHARS = 500  # of each tool result, in the text a summary is made from


def turn_block(turn: Turn) -> str:
    """A turn as the summarizer reads it: its files and images named, never carried (a
    summary stands in for turns no longer sent, and their images are not sent again);
    its tool calls (with the start of each result) between question and answer, so the
    summary covers what the tools did."""
    files = "".join(f"\n{a.mention}" for a in turn.attachments)
    tools = ""
    for tool_round in turn.tools:
        for call, result in tool_round.pairs():
            text = result.content[:SUMMARY_RESULT_CHARS]
            if len(result.content) > SUMMARY_RESULT_CHARS:
                text += " …"
            tools += f"Tool call: {call.name} {call.arguments} → {text}\n"
    return (f"[Turn {turn.ordinal}]\nUser: {turn.question}{files}\n{tools}"
            f"Assistant: {turn.answer}\n")


def json_len(text: str) -> int:
    """Bytes `text` takes inside a JSON string on the wire (escapes included, quotes not)."""
    return utf8_len(encode_json(text)) - 2



# ------------------------------------------------------------- what a send carries
@dataclass
class CompactionResult:
    summary: SummaryPart | None
    stored: StoredSummary | None = None
    usages: list[Usage] = field(default_factory=list)
    calls: int = 0




@dataclass(frozen=True, slots=True)
class CompactionSettings:
    model: str
    budget: Budget
    options: RequestOptions
    target: float = DEFAULT_TARGET_SHARE  # the low-water mark, a share of each budget
    # A request for the rest of a partial answer: that answer is mandatory input too.
    continuation: Continuation | None = None
    # The tool definitions the request offers: mandatory input as well.
    tools: Sequence[ToolSpec] = ()

    @property
    def key(self) -> str:
        """What must match for a cached summary to be reused (the target does not: it
        decides how far a summary reaches, not what it says)."""
        return f"v{PROMPT_VERSION}|{self.model}|{SUMMARY_OUTPUT_TOKENS}"


def summary_span(
    cached: StoredSummary | None, turns: Sequence[Turn], settings_key: str
) -> tuple[int, int] | None:
    """The indexes `(first, end)` of the turns `cached` covers in `turns`, if it may be
    used: made with the same settings, over turns that are all still there, unchanged.
    Reads only the ids of the covered turns."""
    if cached is None or cached.settings_key != settings_key:
        return None
    first = position_of(turns, cached.first_ordinal)
    if first is None:
        return None
    end = first + cached.covered_count
    if end > len(turns) or _range_digest(turns, first, end) != cached.covered_digest:
        return None
    return first, end


def _range_digest(turns: Sequence[Turn], first: int, end: int) -> str:
    if first == 0:
        return prefix_digest(turns, end)
    if isinstance(turns, FrozenTurns):
        return _digest(turns.ids(first, end))
    return ids_digest(turns[first:end])


def reusable_summary(
    cached: StoredSummary | None, turns: Sequence[Turn], covered: int, settings_key: str
) -> StoredSummary | None:
    """`cached`, if a summary reaching to turn index `covered` may start from it: made
    with the same settings, reaching no further than that, over turns that are unchanged."""
    span = summary_span(cached, turns, settings_key)
    return cached if span is not None and span[1] <= covered else None


def low_water_count(
    turns: Sequence[Turn], budget: Budget, costs: CostIndex, target: float, limit: int
) -> int:
    """How many newest turns stay verbatim after a compaction: those that take at most
    `target` of the byte limit and of the input-token budget, never more than `limit` (the
    turns that fit at all) and never fewer than the newest one if it fits."""
    max_bytes = int(budget.max_bytes * target)
    max_tokens = int(budget.input_tokens * target)
    used_bytes = used_tokens = kept = 0
    while kept < limit:
        cost = costs.cost(turns[len(turns) - 1 - kept])
        if used_bytes + cost.bytes > max_bytes or used_tokens + cost.tokens > max_tokens:
            break
        used_bytes += cost.bytes
        used_tokens += cost.tokens
        kept += 1
    return max(kept, min(1, limit))


def summary_output_tokens(budget: Budget) -> int:
    """The output cap of a summary call: 2,048 tokens, or a quarter of a smaller window
    (a summary call plans its input and output within the window it serves)."""
    return max(1, min(SUMMARY_OUTPUT_TOKENS, budget.context_window // 4))


def chunk_room(settings: CompactionSettings, previous: str, counter: TokenCounter) -> int:
    """Room for new turns in one summary call (bytes, escaped for JSON): both budgets,
    minus the prompt, the previous summary and the output cap. May be ≤ 0."""
    budget = settings.budget
    fold = fold_input(previous, "")
    fixed = build_body(settings.model, [Message(SYSTEM, SUMMARY_PROMPT), Message(USER, fold)],
                       summary_options(settings))
    byte_room = budget.max_bytes - len(fixed)
    # Tokens: the window minus output cap and margin, converted to bytes at the
    # estimate's worst case (one token per byte) so a chunk never overflows.
    token_room = (
        budget.context_window - summary_output_tokens(budget) - budget.safety_margin
        - counter.message_tokens(SYSTEM, SUMMARY_PROMPT) - counter.message_tokens(USER, fold)
    )
    return min(byte_room, token_room)


def backlog_start(turns: Sequence[Turn], start: int, covered: int, capacity: int) -> int:
    """The oldest index from which `turns[index:covered]` fold within `capacity` bytes:
    `start` when the whole backlog does, else later (at least one turn is folded). Reads
    back from `covered` only as far as the capacity reaches."""
    used = 0
    index = covered
    while index > start:
        size = json_len(turn_block(turns[index - 1]))
        if used + size > capacity and index < covered:
            break
        used += size
        index -= 1
    return index


@dataclass(frozen=True, slots=True)
class CompactionPlan:
    """What a send with compaction on carries: the turns at indexes `first`..`covered`-1
    in the summary, starting from `base` (the cached summary it reuses or extends); the
    `first` oldest turns are not sent. `reuse` is the request itself when the cached
    summary is reused as it is (no summary call).

    `plain` is the request without any summary, or None when its mandatory part does not
    fit (`refusal`); a send then goes on and refuses with the sizes, summary included.
    """

    plain: Projection | None
    covered: int
    base: StoredSummary | None
    refusal: ProjectionRefused | None = None
    first: int = 0
    base_end: int = 0
    reuse: Projection | None = None

    @property
    def start(self) -> int:
        """Index of the first turn a send still has to fold in (`covered` if none)."""
        return self.base_end if self.base is not None else self.first

    def base_part(self) -> SummaryPart | None:
        """The reused summary as a request carries it, or None."""
        if self.base is None:
            return None
        from .summaries import summary_text  # read with the summary, by the store

        return SummaryPart(summary_text(self.base), self.base_end, self.base.id, self.first)


def plan_compaction(
    turns: Sequence[Turn],
    question: Asked,
    settings: CompactionSettings,
    *,
    system_prompt: str,
    pinned: Pinned,
    costs: CostIndex,
    cached: StoredSummary | None,
    min_covered: int = 0,
) -> CompactionPlan:
    """The one compaction plan: what the preview shows and what a send carries out.

    Nothing is summarized when the whole log fits. The cached summary is reused while it
    and all turns after it fit. Otherwise the summary reaches to the low-water mark (or
    to `min_covered`: an overflow recovery asks for one turn more than it sent), extending
    the cached summary when the calls can fold the turns after it, else starting afresh
    from the newest part of the backlog they can fold.
    """
    project_with = _projector(turns, question, settings, system_prompt, pinned, costs)
    try:
        plain = project_with(None)
    except ProjectionRefused as err:  # the send refuses with sizes; nothing to summarize
        return CompactionPlan(None, 0, None, err)
    if plain.sent_count == len(turns) and min_covered == 0:
        return CompactionPlan(plain, 0, None)
    span = summary_span(cached, turns, settings.key)
    reuse: Projection | None = None
    if cached is not None and span is not None and span[1] >= min_covered:
        first, end = span
        from .summaries import summary_text  # read with the summary, by the store

        part = SummaryPart(summary_text(cached), end, cached.id, first)
        try:
            reuse = project_with(part)
        except ProjectionRefused:
            reuse = None
        if reuse is not None and reuse.sent_count == len(turns) - end:
            return CompactionPlan(plain, end, cached, None, first, end, reuse)
    if not _capacity(settings, "") or not _summary_fits(plain, settings.budget):
        # No summary call fits this window, or no summary fits beside the question: the
        # stored summary goes as it is where it fits (the turns between it and the newest
        # ones left out), else the request goes without one, its oldest turns left out as
        # with compaction off, rather than every send failing.
        if reuse is not None and span is not None:
            return CompactionPlan(plain, span[1], cached, None, span[0], span[1], reuse)
        return CompactionPlan(plain, 0, None)
    if min_covered:  # a recovery folds exactly the turns it asks for
        covered = min(min_covered, len(turns))
    else:
        covered = len(turns) - low_water_count(turns, settings.budget, costs,
                                               settings.target, plain.sent_count)
    return _fold_plan(plain, turns, settings, costs, covered, cached, span)


def _projector(
    turns: Sequence[Turn], question: Asked, settings: CompactionSettings, system_prompt: str,
    pinned: Pinned, costs: CostIndex,
) -> Callable[[SummaryPart | None], Projection]:
    def project_with(summary: SummaryPart | None) -> Projection:
        return project(turns, question, model=settings.model, budget=settings.budget,
                       system_prompt=system_prompt, options=settings.options, pinned=pinned,
                       summary=summary, costs=costs, continuation=settings.continuation,
                       tools=settings.tools)
    return project_with


def _fold_plan(
    plain: Projection, turns: Sequence[Turn], settings: CompactionSettings, costs: CostIndex,
    covered: int, cached: StoredSummary | None, span: tuple[int, int] | None,
) -> CompactionPlan:
    """A plan that folds turns up to `covered`: from the cached summary's end when the
    summary calls can carry the turns in between, else from the newest part they can."""
    if span is not None and span[1] <= covered:
        first, end = span
        capacity = _capacity(settings, cached.content)  # type: ignore[union-attr]
        if not capacity or backlog_start(turns, end, covered, capacity) == end:
            return CompactionPlan(plain, covered, cached, None, first, end)
    capacity = _capacity(settings, "")
    first = backlog_start(turns, 0, covered, capacity) if capacity else 0
    return CompactionPlan(plain, covered, None, None, first)


def _capacity(settings: CompactionSettings, previous: str) -> int:
    """How many bytes of turns the summary calls can surely fold, starting from `previous`:
    each chunk at half its room now, leaving the other half for the summary to grow. 0 when
    a summary call has no room at all (the send then fails by name, as it must)."""
    # Estimated: a plan (and the preview) never waits on a server to count the prompt.
    room = chunk_room(settings, previous, ESTIMATE)
    return MAX_SUMMARY_CALLS * room // 2 if room >= MIN_CHUNK_ROOM else 0


# What a summary costs in a request beyond its own text: its message and its heading.
SUMMARY_PART_OVERHEAD_TOKENS = 32


def _summary_fits(plain: Projection, budget: Budget) -> bool:
    """Whether a summary as long as a summary call may make fits the request beside its
    mandatory part (all but the turns)."""
    mandatory = plain.input_tokens - sum(p.tokens for p in plain.parts
                                         if p.kind is PartKind.TURN)
    return mandatory + summary_output_tokens(budget) + SUMMARY_PART_OVERHEAD_TOKENS \
        <= budget.input_tokens


def summary_options(settings: CompactionSettings) -> RequestOptions:
    return RequestOptions(
        stream=settings.options.stream,
        include_usage=settings.options.include_usage,
        max_tokens=summary_output_tokens(settings.budget),
        temperature=0.0,
    )


def fold_input(previous: str, chunk: str) -> str:
    prior = previous if previous else "(none yet)"
    return f"Previous summary:\n{prior}\n\nNext turns:\n{chunk}"


@dataclass(frozen=True, slots=True)
class Preview:
    """What a send would carry, worked out before anything is sent.

    `state`: "none" (no summary), "cached" (the cached summary is reused as it is) or
    "to_make" (a summary must be made or extended first). Unless "to_make", the preview is
    `final`: `projection.body` is byte for byte the body a send would put on the wire now.
    Otherwise the body shows the plan with the previous summary (`summary`, if any) and
    `to_summarize` names the turns the send folds in first. `summarized`: the ordinals the
    summary the send would carry covers.
    """

    projection: Projection
    fold: tuple[int, int] = (0, 0)  # indexes of the turns a send folds in first
    summary: StoredSummary | None = None
    state: str = "none"
    span: tuple[int, int] = (0, 0)  # indexes of the turns the summary would cover

    @property
    def final(self) -> bool:
        return self.state != "to_make"

    @property
    def to_summarize(self) -> tuple[int, ...]:
        """Ordinals of the turns a send folds into the summary first."""
        return ordinals_of(self.projection._turns, *self.fold)

    def to_summarize_runs(self) -> list[tuple[int, int]]:
        """`to_summarize` as inclusive runs, from the span's ends where a paged log knows
        them (a preview on every key press does not list a backlog of 100,000)."""
        return ordinal_runs_of(self.projection._turns, *self.fold)

    @property
    def summarized(self) -> tuple[int, ...]:
        """Ordinals the summary a send would carry covers (read only when asked)."""
        return ordinals_of(self.projection._turns, *self.span)

    def summary_json(self) -> dict[str, object]:
        """The summary a send would carry: state, ordinals covered, bytes and tokens of
        the summary part in `projection` (the previous one while a new one is to make)."""
        part = next((p for p in self.projection.parts if p.kind is PartKind.SUMMARY), None)
        turns, (first, end) = self.projection._turns, self.span
        return {
            "state": self.state,
            "covers": [turns[first].ordinal, turns[end - 1].ordinal] if end > first else None,
            "bytes": part.bytes if part else 0,
            "tokens": part.tokens if part else 0,
        }


def preview(
    turns: Sequence[Turn],
    question: Asked,
    *,
    model: str,
    budget: Budget,
    system_prompt: str,
    options: RequestOptions,
    costs: CostIndex,
    compaction: bool,
    cached: StoredSummary | None,
    pinned: Pinned = (),
    target: float = DEFAULT_TARGET_SHARE,
    continuation: Continuation | None = None,
    tools: Sequence[ToolSpec] = (),
) -> Preview:
    """Project `question` over `turns` as a send would (`plan_compaction`), with the
    partial answer it continues and the tools it offers. Raises `ProjectionRefused` when
    the mandatory part (with the cached summary, if a send would carry it) does not fit."""
    if not isinstance(turns, (tuple, FrozenTurns)):
        turns = tuple(turns)
    settings = CompactionSettings(model, budget, options, target, continuation, tuple(tools))
    plan = plan_compaction(turns, question, settings, system_prompt=system_prompt,
                           pinned=pinned, costs=costs, cached=cached if compaction else None)
    if plan.refusal is not None:
        raise plan.refusal
    assert plan.plain is not None
    if not compaction or plan.covered == 0:
        return Preview(plan.plain)
    if plan.reuse is not None:
        return Preview(plan.reuse, (0, 0), plan.base, "cached", (plan.first, plan.covered))
    projection = project(turns, question, model=model, budget=budget,
                         system_prompt=system_prompt, options=options, pinned=pinned,
                         summary=plan.base_part(), costs=costs,
                         max_verbatim=len(turns) - plan.covered, continuation=continuation,
                         tools=settings.tools)
    first_sent = len(turns) - projection.sent_count
    span = (plan.first, max(first_sent, plan.covered))
    return Preview(projection, (plan.start, max(plan.start, first_sent)), plan.base, "to_make",
                   span)
