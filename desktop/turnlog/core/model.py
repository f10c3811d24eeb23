"""Immutable records of the log: turns, conversations and their settings."""

from __future__ import annotations

import abc
import bisect
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:  # a turn's files and tool exchange: their modules load with the first one read
    from typing import Any

    from .attachments import Attachment
    from .tools import ToolRound


@dataclass(frozen=True, slots=True)
class Usage:
    """Token usage as the server reported it. `None` fields mean the server did not say."""

    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    total_tokens: int | None = None
    # Of the completion tokens, those a reasoning model spent thinking (OpenAI and
    # DeepSeek: `completion_tokens_details.reasoning_tokens`).
    reasoning_tokens: int | None = None
    # Of the prompt tokens, those the server read from its cache (OpenAI, OpenRouter:
    # `prompt_tokens_details.cached_tokens`), priced apart.
    cached_tokens: int | None = None

    @property
    def known(self) -> bool:
        return any(v is not None for v in (self.prompt_tokens, self.completion_tokens,
                                           self.total_tokens, self.reasoning_tokens,
                                           self.cached_tokens))

    def to_json(self) -> dict[str, int] | None:
        if not self.known:
            return None
        out: dict[str, int] = {}
        if self.prompt_tokens is not None:
            out["prompt_tokens"] = self.prompt_tokens
        if self.completion_tokens is not None:
            out["completion_tokens"] = self.completion_tokens
        if self.total_tokens is not None:
            out["total_tokens"] = self.total_tokens
        if self.reasoning_tokens is not None:
            out["reasoning_tokens"] = self.reasoning_tokens
        if self.cached_tokens is not None:
            out["cached_tokens"] = self.cached_tokens
        return out

    @classmethod
    def from_json(cls, data: Any) -> Usage:
        if not isinstance(data, dict):
            return UNKNOWN_USAGE

        def num(key: str, source: Any = data) -> int | None:
            value = source.get(key) if isinstance(source, dict) else None
            return value if isinstance(value, int) and not isinstance(value, bool) else None

        reasoning = num("reasoning_tokens")
        if reasoning is None:
            reasoning = num("reasoning_tokens", data.get("completion_tokens_details"))
        cached = num("cached_tokens")
        if cached is None:
            cached = num("cached_tokens", data.get("prompt_tokens_details"))
        return cls(num("prompt_tokens"), num("completion_tokens"), num("total_tokens"),
                   reasoning, cached)


UNKNOWN_USAGE = Usage()


@dataclass(frozen=True, slots=True)
class Turn:
    """One confirmed question/answer pair. Never split, never edited."""

    id: str
    ordinal: int
    question: str
    answer: str
    model: str
    finish_reason: str
    created_at: datetime
    usage: Usage = UNKNOWN_USAGE
    # What a reasoning model streamed before its answer (`reasoning_content`): kept with
    # the turn, deleted with it, never sent back in a later request.
    reasoning: str = ""
    # Why the answer is incomplete (`core.partial`: "stopped", "cut", "length",
    # "no_finish_reason"), for a turn the user chose to keep; None for a complete one.
    incomplete: str | None = None
    # The question's files and images, in the order they were attached.
    attachments: tuple[Attachment, ...] = ()
    # The tool exchange that led to the answer (`core.tools`): whole, with the turn.
    tools: tuple[ToolRound, ...] = ()


class FrozenTurns(Sequence[Turn], abc.ABC):
    """A log, oldest first, that never changes once made but may be read on demand (the
    store's paged log): `project` keeps it as it is, as it keeps a tuple, instead of
    copying every turn. It can say where a turn is and which ordinals a stretch of it
    holds without reading those turns."""

    def position_of(self, ordinal: int) -> int | None:
        """The index of turn `ordinal`, None if this log has no such turn."""
        return _bisect_ordinal(self, ordinal)

    def ordinals(self, start: int, stop: int) -> tuple[int, ...]:
        """The ordinals of the turns at indexes start..stop-1."""
        return tuple(turn.ordinal for turn in self[start:stop])

    def ordinal_runs(self, start: int, stop: int) -> list[tuple[int, int]]:
        """The ordinals at indexes start..stop-1 as inclusive runs."""
        return ordinal_runs(self.ordinals(start, stop))

    def ids(self, start: int, stop: int) -> tuple[str, ...]:
        """The ids of the turns at indexes start..stop-1."""
        return tuple(turn.id for turn in self[start:stop])

    def without_last(self) -> Sequence[Turn]:
        """This log less its newest turn (what a new version of that turn is asked
        after)."""
        return tuple(self[:-1])


def without_last(turns: Sequence[Turn]) -> Sequence[Turn]:
    """`turns` less the newest one, without reading a paged log."""
    if isinstance(turns, FrozenTurns):
        return turns.without_last()
    return tuple(turns[:-1])


def position_of(turns: Sequence[Turn], ordinal: int) -> int | None:
    """The index of turn `ordinal` in a log (ordinals grow along it), None if absent."""
    if isinstance(turns, FrozenTurns):
        return turns.position_of(ordinal)
    return _bisect_ordinal(turns, ordinal)


def ordinals_of(turns: Sequence[Turn], start: int, stop: int) -> tuple[int, ...]:
    """The ordinals of `turns[start:stop]`, without reading the turns of a paged log."""
    if isinstance(turns, FrozenTurns):
        return turns.ordinals(*slice(start, stop).indices(len(turns))[:2])
    return tuple(turn.ordinal for turn in turns[start:stop])


def ordinal_runs_of(turns: Sequence[Turn], start: int, stop: int) -> list[tuple[int, int]]:
    """The ordinals of `turns[start:stop]` as inclusive runs; a paged log answers from the
    ends of the span when nothing was deleted between them."""
    start, stop = slice(start, stop).indices(len(turns))[:2]
    if isinstance(turns, FrozenTurns):
        return turns.ordinal_runs(start, stop)
    return ordinal_runs([turn.ordinal for turn in turns[start:stop]])


def ordinal_runs(ordinals: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted ordinals as inclusive runs (1,2,3,5 → (1,3),(5,5))."""
    runs: list[tuple[int, int]] = []
    for ordinal in ordinals:
        if runs and ordinal == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], ordinal)
        else:
            runs.append((ordinal, ordinal))
    return runs


def _bisect_ordinal(turns: Sequence[Turn], ordinal: int) -> int | None:
    index = bisect.bisect_left(turns, ordinal, key=_ordinal)
    if index == len(turns) or turns[index].ordinal != ordinal:
        return None
    return index


def _ordinal(turn: Turn) -> int:
    return turn.ordinal


DEFAULT_MAX_BYTES = 16_000
DEFAULT_OUTPUT_RESERVE = 8_192
MIN_OUTPUT_RESERVE = 256
MAX_OUTPUT_RESERVE = 32_768
UNKNOWN_CONTEXT_WINDOW = 200_000
DEFAULT_COMPACTION_TARGET = 50  # percent of each budget the verbatim turns keep after compacting
MIN_COMPACTION_TARGET = 25
MAX_COMPACTION_TARGET = 80


@dataclass(frozen=True, slots=True)
class ConversationSettings:
    """Per-conversation budget and request options.

    `context_window` of `None` means the model's window is unknown; the token
    budget then assumes `UNKNOWN_CONTEXT_WINDOW`. `compaction_target`: after a
    compaction, the verbatim turns take at most this percentage of each budget (25–80).
    `output_reserve` is also the request's `max_tokens` (max output tokens), unless
    `send_max_tokens` is off ("server default": the field is left out of the body while
    the budget still keeps the reserve for the answer). `temperature` and `top_p` of
    `None` are left out of the body too. `reserve_set`: the output reserve was set by you
    (typed, 8,192 included), so it is kept as set; the default one is sized to the window.
    """

    max_bytes: int = DEFAULT_MAX_BYTES
    context_window: int | None = None
    output_reserve: int = DEFAULT_OUTPUT_RESERVE
    compaction: bool = True
    temperature: float | None = None
    stream: bool = True
    compaction_target: int = DEFAULT_COMPACTION_TARGET
    memory_share: int = 10  # percent of each budget preferences and notes may take (0–30)
    preferences: bool = True  # whether this conversation uses the global preferences
    top_p: float | None = None
    send_max_tokens: bool = True
    side_output_reserve: int = DEFAULT_OUTPUT_RESERVE  # side questions' own (256–32,768)
    # The tool servers switched on here (their ids), and the tools the person always
    # allows here without asking (as offered to the model).
    tool_servers: tuple[str, ...] = ()
    always_allowed: tuple[str, ...] = ()
    reserve_set: bool = False

    @property
    def reserve_is_default(self) -> bool:
        """The output reserve is the default one (8,192, never set by you): it is sized to
        the window in effect."""
        return self.output_reserve == DEFAULT_OUTPUT_RESERVE and not self.reserve_set

    @property
    def compaction_share(self) -> float:
        """`compaction_target` as a share, held within 25–80 %."""
        target = min(max(self.compaction_target, MIN_COMPACTION_TARGET), MAX_COMPACTION_TARGET)
        return target / 100

    def to_json(self) -> dict[str, Any]:
        return {
            "max_bytes": self.max_bytes,
            "context_window": self.context_window,
            "output_reserve": self.output_reserve,
            "compaction": self.compaction,
            "temperature": self.temperature,
            "stream": self.stream,
            "compaction_target": self.compaction_target,
            "memory_share": self.memory_share,
            "preferences": self.preferences,
            "top_p": self.top_p,
            "send_max_tokens": self.send_max_tokens,
            "side_output_reserve": self.side_output_reserve,
            "tool_servers": list(self.tool_servers),
            "always_allowed": list(self.always_allowed),
            "reserve_set": self.reserve_set,
        }

    @classmethod
    def from_json(cls, data: Any) -> ConversationSettings:
        if not isinstance(data, dict):
            return cls()
        defaults = cls()
        known = {k: data[k] for k in defaults.to_json() if k in data}
        for name in ("temperature", "top_p"):  # a hand-edited value never reaches a body
            if not _is_number(known.get(name)):
                known.pop(name, None)
        for name in ("send_max_tokens", "reserve_set"):
            if not isinstance(known.get(name, True), bool):
                known.pop(name)
        for name in ("tool_servers", "always_allowed"):
            names = known.get(name, [])
            known[name] = tuple(n for n in names if isinstance(n, str)) \
                if isinstance(names, list) else ()
        fields = {**defaults.to_json(), **known}
        for name in ("tool_servers", "always_allowed"):
            fields[name] = tuple(fields[name])
        return cls(**fields)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and \
        value == value and value not in (float("inf"), float("-inf"))


@dataclass(frozen=True, slots=True)
class Conversation:
    id: int
    title: str
    system_prompt: str = ""
    model: str = ""
    settings: ConversationSettings = field(default_factory=ConversationSettings)
    created_at: datetime | None = None
    updated_at: datetime | None = None
    # Where the title came from: "user", "question" or "model" (see `core.titles`).
    title_source: str = "user"
    # A conversation imported from elsewhere: where from ("chatgpt") and the model it had
    # there. Provenance only: `model` (empty: the profile's) is what a request names.
    source: str = ""
    source_model: str = ""
    # The sidebar folder it is in (None: none), and whether it is starred to the top.
    folder_id: int | None = None
    starred: bool = False


@dataclass(frozen=True, slots=True)
class Folder:
    """A user-named group of conversations in the sidebar (flat: no folder in a folder);
    `conversations`: how many it holds."""

    id: int
    name: str
    conversations: int = 0
