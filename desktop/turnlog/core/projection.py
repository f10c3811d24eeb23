"""Projection: what one request carries out of the log, measured on the exact body.

System prompt, pinned facts, a rolling summary (if any), the newest contiguous
whole turns that fit both budgets, then the current question. The mandatory
part is never cut: if it cannot fit, `ProjectionRefused` says by how much.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from .attachments import (
    Asked,
    Attachment,
    Question,
    has_images,
    image_urls,
    images_tokens,
    question_of,
    user_text,
)
from .body import (
    ASSISTANT,
    SYSTEM,
    USER,
    AnyMessage,
    Envelope,
    Message,
    RequestOptions,
    WireMessage,
    build_body,
    encode_json,
    message_bytes,
    tools_bytes,
)
from .budget import (
    ESTIMATE,
    Budget,
    default_output_reserve,
    reply_priming,
    safety_margin,
)
from .memory import (
    NO_MEMORY,
    NO_SELECTION,
    Cost,
    ItemKind,
    Memory,
    MemoryItem,
    MemorySelection,
    select,
    share_of,
)
from .model import (
    MIN_OUTPUT_RESERVE,
    FrozenTurns,
    Turn,
    ordinal_runs_of,
    ordinals_of,
    position_of,
)

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:  # a committed request's proof and the tool records: a send's, not a preview's
    from .budget import TokenCounter
    from .partial import Continuation
    from .proof import RequestProof, SentParts
    from .tools import ToolRound, ToolSpec

Pinned = Sequence[str] | Memory
"""The pinned facts a request carries, or the conversation's whole `Memory`."""


class Mark(enum.Enum):
    """How a turn took part in a request."""

    SENT = "sent"  # verbatim in the body
    SUMMARY = "summary"  # covered by the rolling summary
    NOT_SENT = "not_sent"  # left out


class PartKind(enum.Enum):
    ENVELOPE = "envelope"
    SYSTEM = "system"
    PREFERENCE = "preference"
    PINNED = "pinned"
    NOTE = "note"
    SUMMARY = "summary"
    TURN = "turn"
    SIDE = "side"  # an earlier side question and its answer (side requests only)
    QUESTION = "question"
    CONTINUATION = "continuation"  # the partial answer a request for the rest goes on from
    TOOLS = "tools"  # the definitions of the tools the request offers (mandatory)
    TOOL_EXCHANGE = "tool_exchange"  # this send's tool calls and results so far


@dataclass(frozen=True, slots=True)
class Part:
    """One piece of the body, in wire order. Part bytes sum to the body's length."""

    kind: PartKind
    bytes: int
    tokens: int
    ordinal: int | None = None


@dataclass(frozen=True, slots=True)
class TurnCost:
    bytes: int
    tokens: int


class CostIndex:
    """Each turn's exact contribution to a body (bytes with separators, tokens), computed once.

    Turns are immutable, so a cost keyed by turn id never goes stale; deleting a
    turn only leaves an unused entry (`forget` drops it).
    """

    def __init__(self, counter: TokenCounter = ESTIMATE) -> None:
        self.counter = counter
        self._costs: dict[str, TurnCost] = {}

    def cost(self, turn: Turn, *, images: bool = True) -> TurnCost:
        """The turn's cost with its attachments; with `images` off, its images named in
        its text instead (a model that takes none)."""
        key = turn.id if images or not has_images(turn.attachments) else f"{turn.id}#text"
        cost = self._costs.get(key)
        if cost is None:
            question = user_message(turn.question, turn.attachments, images=images)
            tokens = (user_tokens(self.counter, turn.question, turn.attachments, images=images)
                      + self.counter.message_tokens(ASSISTANT, turn.answer))
            size = message_bytes(question) + message_bytes(Message(ASSISTANT, turn.answer)) + 2
            for message in exchange_messages(turn.tools):  # whole, each with its comma
                size += message_bytes(message) + 1
                tokens += self.counter.message_tokens(message.role, message.content)
            cost = TurnCost(size, tokens)
            self._costs[key] = cost
        return cost

    def warm(self, turns: Iterable[Turn]) -> None:
        for turn in turns:
            self.cost(turn)

    def sharing(self, counter: TokenCounter) -> CostIndex:
        """An index over the same costs that counts what is missing with `counter`.

        `counter` must count exactly as this index's counter does (a view of it that
        answers only from what it already knows, or one that checks a cancel token):
        costs either index computes land in the one shared table.
        """
        view = CostIndex(counter)
        view._costs = self._costs
        return view

    def known(self, turn: Turn) -> bool:
        return turn.id in self._costs

    def forget(self, turn_ids: Iterable[str]) -> None:
        for turn_id in turn_ids:
            self._costs.pop(turn_id, None)
            self._costs.pop(f"{turn_id}#text", None)


def user_message(text: str, attachments: Sequence[Attachment], *,
                 images: bool = True) -> Message:
    """A question as the body carries it: its text with its files' blocks, its images as
    content parts (or, with `images` off, named in the text)."""
    return Message(USER, user_text(text, attachments, images=images),
                   image_urls(attachments, images=images))


def user_tokens(counter: TokenCounter, text: str, attachments: Sequence[Attachment], *,
                images: bool = True) -> int:
    """A question's input tokens: its text (with the files' text) counted as text, its
    images by OpenAI's tile rule."""
    return (counter.message_tokens(USER, user_text(text, attachments, images=images))
            + images_tokens(attachments, images=images))


@dataclass(frozen=True, slots=True)
class AttachmentCost:
    """What one attachment adds to the request: exact bytes, tokens (`estimated` for an
    image: the tile rule is OpenAI's, other servers count their own way)."""

    attachment: Attachment
    bytes: int
    tokens: int
    estimated: bool


def attachment_costs(question: Question, counter: TokenCounter = ESTIMATE, *,
                     images: bool = True) -> tuple[AttachmentCost, ...]:
    """Each attachment's share of the question message, in order: what the message
    grows by when it is added after the ones before it (they sum to the message's
    bytes and tokens less the bare question's)."""
    out: list[AttachmentCost] = []
    before = user_message(question.text, (), images=images)
    before_tokens = user_tokens(counter, question.text, (), images=images)
    for count, attachment in enumerate(question.attachments, start=1):
        upto = question.attachments[:count]
        message = user_message(question.text, upto, images=images)
        tokens = user_tokens(counter, question.text, upto, images=images)
        image = attachment.kind.value == "image" and images
        out.append(AttachmentCost(attachment, message_bytes(message) - message_bytes(before),
                                  tokens - before_tokens, image or not counter.exact))
        before, before_tokens = message, tokens
    return tuple(out)


def turn_messages(turn: Turn, *, images: bool = True) -> list[AnyMessage]:
    """A turn in wire order: its question with its files (images as image parts unless
    `images` is off), its tool exchange whole (every call with its result), its answer.
    The one place a turn becomes messages."""
    out: list[AnyMessage] = [user_message(turn.question, turn.attachments, images=images)]
    out.extend(exchange_messages(turn.tools))
    out.append(Message(ASSISTANT, turn.answer))
    return out


def exchange_messages(rounds: Sequence[ToolRound]) -> list[AnyMessage]:
    return [WireMessage(str(m["role"]), m) for r in rounds for m in r.wire_messages()]


@dataclass(frozen=True, slots=True)
class SummaryPart:
    """A rolling summary standing in for the turns at indexes `first`..`covered_count`-1.

    `covered_count` is where the verbatim turns may start; the `first` oldest turns (0
    unless a backlog was too long to fold within the bounds) are left out.
    """

    content: str
    covered_count: int
    summary_id: int | None = None
    first: int = 0


class RefusalReason(enum.Enum):
    BYTES = "bytes"
    TOKENS = "tokens"


class ProjectionRefused(Exception):
    """The mandatory part (system prompt, pinned facts, summary, question) does not fit."""

    def __init__(
        self,
        *,
        reason: RefusalReason,
        mandatory_bytes: int,
        max_bytes: int,
        mandatory_tokens: int,
        token_budget: int,
        tokens_exact: bool,
        includes_summary: bool,
        includes_system: bool = True,
        includes_pinned: bool = False,
        includes_partial: bool = False,
        fix: tuple[str, int] | None = None,
        tools_bytes: int = 0,
        tools_tokens: int = 0,
    ) -> None:
        self.reason = reason
        self.mandatory_bytes = mandatory_bytes
        self.max_bytes = max_bytes
        self.mandatory_tokens = mandatory_tokens
        self.token_budget = token_budget
        self.tokens_exact = tokens_exact
        self.includes_summary = includes_summary
        self.includes_system = includes_system
        self.includes_pinned = includes_pinned
        self.includes_partial = includes_partial  # a continuation's answer so far
        self.tools_bytes = tools_bytes  # the tool list's share of the mandatory part
        self.tools_tokens = tools_tokens
        # The one setting that would let it fit, with its value (tokens refusals only):
        # (FIX_OUTPUT_RESERVE, the reserve that leaves room) or (FIX_CONTEXT_WINDOW, the
        # smallest window that holds it with the reserve as it is).
        self.fix = fix
        super().__init__(self.describe())

    @property
    def excess_bytes(self) -> int:
        return max(0, self.mandatory_bytes - self.max_bytes)

    @property
    def excess_tokens(self) -> int:
        return max(0, self.mandatory_tokens - self.token_budget)

    def describe(self) -> str:
        names = [
            name
            for name, present in (
                ("system prompt", self.includes_system),
                ("pinned facts", self.includes_pinned),
                ("summary", self.includes_summary),
                ("answer so far", self.includes_partial),
                ("tool list", bool(self.tools_bytes)),
            )
            if present
        ]
        what = ("The " + ", ".join(names) + " and question") if names else "The question"
        take = "take" if names else "takes"  # the verb agrees with one thing or several
        if self.tools_bytes and self.reason is RefusalReason.BYTES:
            what += f" (the tool list alone {self.tools_bytes:,} bytes)"
        elif self.tools_bytes:
            what += f" (the tool list alone about {self.tools_tokens:,} tokens)"
        if self.reason is RefusalReason.BYTES:
            return (
                f"{what} {take} {self.mandatory_bytes:,} bytes, but the request limit is "
                f"{self.max_bytes:,} bytes: shorten the question by at least "
                f"{self.excess_bytes:,} bytes or raise the byte limit"
                + (", or switch tools off" if self.tools_bytes else "") + ". Nothing was sent."
            )
        kind = "exactly" if self.tokens_exact else "an estimated"
        if self.fix is not None and self.fix[0] == FIX_OUTPUT_RESERVE:
            instead = f"set the output reserve to {self.fix[1]:,} tokens"
        elif self.fix is not None:
            instead = f"set the context window to at least {self.fix[1]:,} tokens"
        else:
            instead = "use a larger context window"
        return (
            f"{what} {take} {kind} {self.mandatory_tokens:,} tokens, but the input budget is "
            f"{self.token_budget:,} tokens: shorten the question by at least "
            f"{self.excess_tokens:,} tokens or {instead}. Nothing was sent."
        )

    def to_json(self) -> dict[str, object]:
        return {
            "refused": True,
            "reason": self.reason.value,
            "mandatory_bytes": self.mandatory_bytes,
            "max_bytes": self.max_bytes,
            "mandatory_tokens": self.mandatory_tokens,
            "token_budget": self.token_budget,
            "tokens_exact": self.tokens_exact,
            "fix": {"setting": self.fix[0], "value": self.fix[1]} if self.fix else None,
            "tools_bytes": self.tools_bytes,
            "message": self.describe(),
        }


FIX_OUTPUT_RESERVE = "output reserve"
FIX_CONTEXT_WINDOW = "context window"


def token_fix(budget: Budget, mandatory_tokens: int) -> tuple[str, int]:
    """The one setting that lets `mandatory_tokens` of input fit `budget`: a smaller output
    reserve when one of at least 256 tokens leaves room, else the smallest larger window
    (whose default reserve, when that is the one in use, grows with it)."""
    reserve = budget.context_window - budget.safety_margin - mandatory_tokens
    if MIN_OUTPUT_RESERVE <= reserve < budget.output_reserve:
        return FIX_OUTPUT_RESERVE, reserve

    def room(window: int) -> int:
        kept = default_output_reserve(window) if budget.reserve_sized else budget.output_reserve
        return window - kept - safety_margin(window)

    low, high = budget.context_window, max(budget.context_window * 2, 1)
    while room(high) < mandatory_tokens:  # room grows with the window
        low, high = high, high * 2
    while low < high:  # the smallest window with room enough
        mid = (low + high) // 2
        if room(mid) >= mandatory_tokens:
            high = mid
        else:
            low = mid + 1
    return FIX_CONTEXT_WINDOW, high


@dataclass(frozen=True, slots=True)
class Projection:
    """One request's view of the log. `body` is the exact bytes the provider sends."""

    body: bytes
    messages: tuple[AnyMessage, ...]
    model: str
    budget: Budget
    input_tokens: int
    tokens_exact: bool
    parts: tuple[Part, ...]
    mandatory_bytes: int
    mandatory_tokens: int
    summary: SummaryPart | None
    _turns: Sequence[Turn] = field(repr=False)
    _first_sent: int = field(repr=False)
    memory: MemorySelection = NO_SELECTION  # the pins' sizes, optional items kept / left out
    # The question's files (what each adds: `attachment_costs`), and whether images go as
    # image parts (a model that takes none has them named in the text).
    question_files: tuple[Attachment, ...] = ()
    images: bool = True
    options: RequestOptions = field(default_factory=RequestOptions, repr=False)
    tools: tuple[dict[str, object], ...] = ()  # the `tools` field, as sent

    @property
    def body_bytes(self) -> int:
        return len(self.body)

    @property
    def sent(self) -> tuple[int, ...]:
        """Ordinals sent verbatim, oldest first."""
        return ordinals_of(self._turns, self._first_sent, len(self._turns))

    @property
    def summarized(self) -> tuple[int, ...]:
        if self.summary is None:
            return ()
        return ordinals_of(self._turns, self.summary.first, self.summary.covered_count)

    @property
    def left_out(self) -> tuple[int, ...]:
        if self.summary is None:
            return ordinals_of(self._turns, 0, self._first_sent)
        return (ordinals_of(self._turns, 0, self.summary.first)
                + ordinals_of(self._turns, self.summary.covered_count, self._first_sent))

    def runs(self, which: str) -> list[tuple[int, int]]:
        """The ordinals of `which` ("sent", "summarized", "before summary": older than the
        summary's turns, or "left out") as inclusive runs, worked out from the ends of each
        span where a paged log knows them: what a window names on every key press without
        listing 100,000 ordinals."""
        turns, first_sent, summary = self._turns, self._first_sent, self.summary
        spans = {
            "sent": [(first_sent, len(turns))],
            "summarized": [(summary.first, summary.covered_count)] if summary else [],
            "before summary": [(0, summary.first)] if summary else [],
            "left out": ([(0, summary.first), (summary.covered_count, first_sent)]
                         if summary else [(0, first_sent)]),
        }[which]
        runs: list[tuple[int, int]] = []
        for start, stop in spans:
            for run in ordinal_runs_of(turns, start, stop):
                if runs and run[0] == runs[-1][1] + 1:
                    runs[-1] = (runs[-1][0], run[1])
                else:
                    runs.append(run)
        return runs

    @property
    def turn_count(self) -> int:
        """How many turns the log given to `project` holds."""
        return len(self._turns)

    @property
    def sent_turn_ids(self) -> tuple[str, ...]:
        return tuple(t.id for t in self._turns[self._first_sent :])

    @property
    def sent_count(self) -> int:
        return len(self._turns) - self._first_sent

    def mark(self, index: int) -> Mark:
        """The mark of the turn at `index` (0-based position in the log given to `project`)."""
        if index >= self._first_sent:
            return Mark.SENT
        if self.summary is not None and self.summary.first <= index < self.summary.covered_count:
            return Mark.SUMMARY
        return Mark.NOT_SENT

    def same_marks(self, other: Projection) -> bool:
        """Whether `other` marks every turn as this one does, known without visiting them:
        the same log, the same summarized prefix, the same first verbatim turn."""
        span = (self.summary.first, self.summary.covered_count) if self.summary else None
        other_span = (other.summary.first, other.summary.covered_count) if other.summary \
            else None
        return (self._turns is other._turns and self._first_sent == other._first_sent
                and span == other_span)

    def same_log(self, turns: Sequence[Turn]) -> bool:
        """Whether `turns` is the very log given to `project` (indexes then agree)."""
        return turns is self._turns

    def mark_of_ordinal(self, ordinal: int) -> Mark | None:
        """The mark of the turn numbered `ordinal`, None if the log given to `project` has
        no such turn. O(log n): ordinals grow along the log."""
        index = position_of(self._turns, ordinal)
        return None if index is None else self.mark(index)

    def turn_of_ordinal(self, ordinal: int) -> Turn | None:
        """The turn numbered `ordinal` of the log given to `project`, None if it has none."""
        index = position_of(self._turns, ordinal)
        return None if index is None else self._turns[index]

    def marks_by_ordinal(self) -> dict[int, Mark]:
        return {t.ordinal: self.mark(i) for i, t in enumerate(self._turns)}


PINNED_HEADER = "Pinned facts (always true in this conversation):"


def _prefix_messages(
    system_prompt: str, pinned: Sequence[str], summary: SummaryPart | None,
    kept: Sequence[MemoryItem] = (),
) -> list[tuple[PartKind, Message]]:
    """Wire order: system prompt, preferences kept, pinned facts, notes kept, summary."""
    out: list[tuple[PartKind, Message]] = []
    if system_prompt:
        out.append((PartKind.SYSTEM, Message(SYSTEM, system_prompt)))
    out.extend((PartKind.PREFERENCE, Message(SYSTEM, item.content)) for item in kept
               if item.kind is ItemKind.PREFERENCE)
    if pinned:
        # Each fact adds exactly its "\n- fact" to the message (see `pin_cost`).
        text = PINNED_HEADER + "".join(f"\n- {fact}" for fact in pinned)
        out.append((PartKind.PINNED, Message(SYSTEM, text)))
    out.extend((PartKind.NOTE, Message(SYSTEM, item.content)) for item in kept
               if item.kind is ItemKind.NOTE)
    if summary is not None:
        out.append((PartKind.SUMMARY, Message(SYSTEM, summary.content)))
    return out


def _mandatory_parts(
    model: str,
    options: RequestOptions,
    prefix: list[tuple[PartKind, Message]],
    question: Message,
    counter: TokenCounter,
    continuation: Continuation | None = None,
    image_tokens: int = 0,
    tools: Sequence[dict[str, object]] = (),
) -> tuple[list[Part], list[Part]]:
    """The parts every request carries: envelope, tool list and prefix messages, then the
    closing ones: the question (its images' `image_tokens` with it), and the partial
    answer a continuation goes on from."""
    first_role = prefix[0][1].role if prefix else USER
    parts: list[Part] = [Part(PartKind.ENVELOPE, Envelope(model, options).bytes,
                              reply_priming(counter, first_role))]
    if tools:
        parts.append(Part(PartKind.TOOLS, tools_bytes(tools),
                          counter.message_tokens(SYSTEM, encode_json(list(tools)))))
    for kind, message in prefix:
        # Each prefix message is followed by a comma: the question always comes after it.
        parts.append(
            Part(kind, message_bytes(message) + 1, counter.message_tokens(message.role,
                                                                            message.content))
        )
    tail = continuation.messages() if continuation is not None else ()
    closing = [Part(
        PartKind.QUESTION, message_bytes(question) + (1 if tail else 0),
        counter.message_tokens(USER, question.content) + image_tokens,
    )]
    if tail:  # the messages after the question, the commas between them
        closing.append(Part(
            PartKind.CONTINUATION, sum(message_bytes(m) for m in tail) + len(tail) - 1,
            sum(counter.message_tokens(m.role, m.content) for m in tail),
        ))
    return parts, closing


def pin_cost(fact: str, counter: TokenCounter) -> Cost:
    """What one pinned fact adds to the pinned-facts message: its exact bytes, and the
    tokens of its line."""
    line = f"\n- {fact}"
    escaped = message_bytes(Message(SYSTEM, line)) - message_bytes(Message(SYSTEM, ""))
    tokens = counter.message_tokens(SYSTEM, line) - counter.message_tokens(SYSTEM, "")
    return Cost(escaped, max(0, tokens))


def item_cost(item: MemoryItem, counter: TokenCounter) -> Cost:
    """An optional item's exact contribution: its own message with the comma after it."""
    message = Message(SYSTEM, item.content)
    return Cost(message_bytes(message) + 1, counter.message_tokens(SYSTEM, item.content))


def _choose_memory(
    memory: Memory, budget: Budget, counter: TokenCounter, used: Cost, first_role: str | None,
) -> MemorySelection:
    """The optional items kept within the memory share, never more than the room the
    mandatory part leaves (so they never cause a refusal)."""
    pins = tuple((pin, pin_cost(pin.text, counter)) for pin in memory.pins)
    # With nothing before them, kept items become the first message: the reply priming
    # may then differ, and the limit keeps room for it.
    priming = 0 if first_role == SYSTEM else max(
        0, reply_priming(counter, SYSTEM) - reply_priming(counter, first_role or USER))
    limit = Cost(
        max(0, min(share_of(budget.max_bytes, memory.share), budget.max_bytes - used.bytes)),
        max(0, min(share_of(budget.input_tokens, memory.share),
                   budget.input_tokens - used.tokens - priming)),
    )
    if not memory.optional:
        return MemorySelection(limit, pins=pins)
    costs = [item_cost(item, counter) for item in memory.optional]
    chosen = select(memory.optional, costs, limit)
    return MemorySelection(chosen.limit, chosen.choices, chosen.approximate, pins)


def _first_sent(
    turns: Sequence[Turn], costs: CostIndex, floor: int, free_bytes: int, free_tokens: int,
    images: bool = True,
) -> int:
    """Index of the oldest turn kept: newest whole turns (with their attachments),
    contiguous, while both fit."""
    first = len(turns)
    while first > floor:
        cost = costs.cost(turns[first - 1], images=images)
        if cost.bytes > free_bytes or cost.tokens > free_tokens:
            break
        free_bytes -= cost.bytes
        free_tokens -= cost.tokens
        first -= 1
    return first


def _asked(asked: Question, images: bool) -> tuple[Message, int]:
    """The question's message, and the tokens of its images (the tile rule's)."""
    return (user_message(asked.text, asked.attachments, images=images),
            images_tokens(asked.attachments, images=images))


def _add_verbatim(turns: Sequence[Turn], costs: CostIndex, images: bool, parts: list[Part],
                  messages: list[AnyMessage]) -> int:
    """Add the turns sent verbatim (each with its attachments and its tool exchange) to
    `parts` and `messages`; returns the tokens of their images (counted by the tile rule:
    an estimate)."""
    image_tokens = 0
    for turn in turns:
        cost = costs.cost(turn, images=images)
        parts.append(Part(PartKind.TURN, cost.bytes, cost.tokens, turn.ordinal))
        messages.extend(turn_messages(turn, images=images))
        image_tokens += images_tokens(turn.attachments, images=images)
    return image_tokens
def _refuse_unless_fits(budget: Budget, mandatory: Sequence[Part], exact: bool,
                        summary: bool, system: bool, pinned: bool, partial: bool) -> None:
    """Refuse, don't truncate: raise `ProjectionRefused` when the mandatory part alone
    does not fit either budget."""
    mandatory_bytes = sum(p.bytes for p in mandatory)
    mandatory_tokens = sum(p.tokens for p in mandatory)
    refusal = RefusalReason.BYTES if mandatory_bytes > budget.max_bytes else \
        RefusalReason.TOKENS if mandatory_tokens > budget.input_tokens else None
    if refusal is None:
        return
    tool_part = next((p for p in mandatory if p.kind is PartKind.TOOLS), None)
    raise ProjectionRefused(
        reason=refusal, mandatory_bytes=mandatory_bytes, max_bytes=budget.max_bytes,
        mandatory_tokens=mandatory_tokens, token_budget=budget.input_tokens,
        tokens_exact=exact, includes_summary=summary, includes_system=system,
        includes_pinned=pinned, includes_partial=partial,
        fix=None if refusal is RefusalReason.BYTES else token_fix(budget, mandatory_tokens),
        tools_bytes=tool_part.bytes if tool_part else 0,
        tools_tokens=tool_part.tokens if tool_part else 0)


def project(
    turns: Sequence[Turn],
    question: Asked,
    *,
    model: str,
    budget: Budget,
    system_prompt: str = "",
    options: RequestOptions | None = None,
    pinned: Pinned = (),
    summary: SummaryPart | None = None,
    costs: CostIndex | None = None,
    max_verbatim: int | None = None,
    continuation: Continuation | None = None,
    tools: Sequence[ToolSpec] = (),
) -> Projection:
    """Project the log into one request.

    Keeps the newest contiguous suffix of whole turns (after any summarized
    prefix) that fits both budgets. Work is proportional to the turns kept,
    not to the log: each turn's cost is computed once and cached in `costs`.
    `max_verbatim` caps the turns kept (overflow recovery drops one more).
    `pinned` is the pinned facts, or the conversation's `Memory`: its pins are mandatory,
    its optional items take what the knapsack keeps within the memory share.
    With `continuation`, the request asks for the rest of a partial answer to `question`:
    that answer (mandatory, like the question) follows it. A question's attachments are
    mandatory with it; a turn's go with the turn, or not at all. With `tools`, the body
    offers them (`tools`), and their definitions are mandatory too. Raises
    `ProjectionRefused` when the mandatory part alone does not fit.
    """
    if not isinstance(turns, (tuple, FrozenTurns)):
        turns = tuple(turns)  # the projection keeps a view; a caller's list may change later
    options = options or RequestOptions()
    costs = costs or CostIndex()
    counter = costs.counter
    covered = summary.covered_count if summary else 0
    if not 0 <= covered <= len(turns) or (summary and not 0 <= summary.first <= covered):
        raise ValueError(f"summary covers {covered} turns but the log has {len(turns)}")

    memory = pinned if isinstance(pinned, Memory) else NO_MEMORY
    facts = [pin.text for pin in memory.pins] if isinstance(pinned, Memory) else list(pinned)
    prefix = _prefix_messages(system_prompt, facts, summary)
    asked = question_of(question)
    question_message, image_tokens = _asked(asked, options.images)
    offered = tuple(spec.to_json() for spec in tools)
    parts, closing = _mandatory_parts(model, options, prefix, question_message, counter,
                                      continuation, image_tokens, offered)
    mandatory_bytes = sum(p.bytes for p in parts + closing)
    mandatory_tokens = sum(p.tokens for p in parts + closing)

    _refuse_unless_fits(budget, parts + closing, counter.exact, summary is not None,
                        bool(system_prompt), bool(facts), continuation is not None)
    selection = _choose_memory(memory, budget, counter, Cost(mandatory_bytes, mandatory_tokens),
                               prefix[0][1].role if prefix else None)
    if selection.kept:  # wire order puts kept items among the prefix messages
        prefix = _prefix_messages(system_prompt, facts, summary, selection.kept)
        parts, closing = _mandatory_parts(model, options, prefix, question_message, counter,
                                          continuation, image_tokens, offered)
    used_bytes = sum(p.bytes for p in parts + closing)
    used_tokens = sum(p.tokens for p in parts + closing)
    floor = covered if max_verbatim is None else max(covered, len(turns) - max_verbatim)
    first = _first_sent(turns, costs, floor, budget.max_bytes - used_bytes,
                        budget.input_tokens - used_tokens, options.images)
    messages: list[AnyMessage] = [m for _, m in prefix]
    image_tokens += _add_verbatim(turns[first:], costs, options.images, parts, messages)
    messages += [question_message, *(continuation.messages() if continuation else ())]
    parts.extend(closing)

    return Projection(  # images: the tile rule's estimate, never exact
        body=build_body(model, messages, options, offered), messages=tuple(messages),
        model=model, budget=budget, input_tokens=sum(p.tokens for p in parts),
        tokens_exact=counter.exact and not image_tokens,
        parts=tuple(parts), mandatory_bytes=mandatory_bytes, mandatory_tokens=mandatory_tokens,
        summary=summary, _turns=turns, _first_sent=first, memory=selection,
        question_files=asked.attachments, images=options.images,
        options=options, tools=offered,
    )


def with_exchange(projection: Projection, rounds: Sequence[ToolRound],
                  counter: TokenCounter) -> Projection:
    """The projection's request (as `project` made it) again with this send's tool
    exchange after the question:
    the same turns (re-planning after a tool ran would change what the model saw), so the
    caller checks the result against the budget and fails by name when it does not fit."""
    if not rounds:
        return projection
    added = exchange_messages(rounds)
    messages = (*projection.messages, *added)
    body = build_body(projection.model, messages, projection.options, projection.tools)
    part = Part(PartKind.TOOL_EXCHANGE, len(body) - projection.body_bytes,
                sum(counter.message_tokens(m.role, m.content) for m in added))
    parts = (*projection.parts, part)
    return replace(projection, body=body, messages=messages, parts=parts,
                   input_tokens=projection.input_tokens + part.tokens)


def sent_body(parts: SentParts) -> bytes:
    """The frozen builder of body format 1 (`core.proof.BODY_FORMAT`): a past request's
    body from the parts its record names, in the wire order `project` put them in. A
    change to what `project` puts in a body bumps the format and keeps this one as it is."""
    kept = tuple(MemoryItem("", ItemKind(kind), text) for kind, text in parts.kept)
    summary = SummaryPart(parts.summary, 0) if parts.summary is not None else None
    messages: list[AnyMessage] = [
        m for _, m in _prefix_messages(parts.system_prompt, parts.pins, summary, kept)]
    images = parts.options.images
    for turn in parts.turns:
        messages.extend(turn_messages(turn, images=images))
    messages.append(user_message(parts.question.text, parts.question.attachments,
                                 images=images))
    if parts.continuation is not None:
        messages.extend(parts.continuation.messages())
    messages.extend(exchange_messages(parts.rounds))
    return build_body(parts.model, messages, parts.options, parts.tools)


def proof_of(projection: Projection, system_prompt: str, pinned: Pinned,
             sha256: Sequence[str], continued: int | None = None,
             prefill: bool = False) -> RequestProof:
    """A committed request's references (`core.proof`): what `sent_body` rebuilds
    `projection`'s body from, with the hashes of the bodies sent (`sha256`, one per tool
    round)."""
    from .proof import PIN_TEXT, SYSTEM_TEXT, Remembered, RequestProof

    ids = projection.sent_turn_ids
    sent = projection.runs("sent")
    texts: list[Remembered] = []
    if system_prompt:
        texts.append(Remembered(SYSTEM_TEXT, "", system_prompt))
    texts += [Remembered(item.kind.value, item.id, item.text) for item in projection.memory.kept]
    if isinstance(pinned, Memory):
        texts += [Remembered(PIN_TEXT, pin.id, pin.text) for pin in pinned.pins]
    else:
        texts += [Remembered(PIN_TEXT, "", fact) for fact in pinned]
    return RequestProof(
        sha256=tuple(sha256), run_first=ids[0] if ids else None,
        run_last=ids[-1] if ids else None,
        run_first_ordinal=sent[0][0] if sent else None,
        run_last_ordinal=sent[-1][1] if sent else None, run_count=len(ids),
        texts=tuple(texts), options=projection.options, tools=projection.tools,
        continued=continued, prefill=prefill)
