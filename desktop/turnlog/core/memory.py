"""Memory layers: pinned facts (mandatory), preferences and notes (optional).

Pinned facts reach every request word for word. Preferences (global, confirmed by the
user) and notes (per conversation) compete for the *memory share* of the input budget:
the subset with the highest total priority that fits both the byte and the token limit
of the share is kept, whole items only, chosen by an exact 0/1 knapsack
(`choose_exact`); beyond the bounds of exact work a greedy pass chooses and the
selection says it is approximate.

Ties go deterministically: the higher total priority, then fewer bytes, then the set
holding the oldest item the other lacks (items are numbered oldest first).
"""

from __future__ import annotations

import bisect
import enum
from collections.abc import Sequence
from dataclasses import dataclass, field

DEFAULT_MEMORY_SHARE = 10  # percent of each budget the optional items may take
MAX_MEMORY_SHARE = 30
MIN_PRIORITY = 1
MAX_PRIORITY = 5
DEFAULT_PRIORITY = 3
MAX_MEMORY_TEXT = 16_384  # characters of one pin, note or preference
MAX_EXACT_ITEMS = 64  # more optional items than this are chosen greedily
MAX_EXACT_STATES = 200_000  # partial selections an exact choice may examine

PREFERENCE_LABEL = "Preference the user confirmed (all conversations): "
NOTE_LABEL = "Note for this conversation: "


class ItemKind(enum.Enum):
    PREFERENCE = "preference"
    NOTE = "note"


@dataclass(frozen=True, slots=True)
class PinnedFact:
    """A fact that must reach every request of its conversation (one line of the
    pinned-facts message)."""

    id: str
    text: str


@dataclass(frozen=True, slots=True)
class MemoryItem:
    """An optional item: a preference or a note, with its priority (1–5).

    Items are given oldest first: their position is the age the tie rule uses.
    """

    id: str
    kind: ItemKind
    text: str
    priority: int = DEFAULT_PRIORITY

    @property
    def content(self) -> str:
        label = PREFERENCE_LABEL if self.kind is ItemKind.PREFERENCE else NOTE_LABEL
        return label + self.text


@dataclass(frozen=True, slots=True)
class Memory:
    """What a conversation's requests carry besides the log: pinned facts, and the
    optional items with the share of each budget they may take (0–30 %)."""

    pins: tuple[PinnedFact, ...] = ()
    optional: tuple[MemoryItem, ...] = ()
    share_percent: int = DEFAULT_MEMORY_SHARE

    @property
    def share(self) -> int:
        return min(max(self.share_percent, 0), MAX_MEMORY_SHARE)


NO_MEMORY = Memory()


@dataclass(frozen=True, slots=True)
class Cost:
    bytes: int
    tokens: int


class Reason(enum.Enum):
    KEPT = "kept"
    TOO_LARGE = "larger than the memory share"
    NO_ROOM = "no room: items of higher total priority fill the share"


@dataclass(frozen=True, slots=True)
class ItemChoice:
    """One optional item as a request saw it: its exact cost, kept or left out and why."""

    item: MemoryItem
    cost: Cost
    reason: Reason

    @property
    def kept(self) -> bool:
        return self.reason is Reason.KEPT


@dataclass(frozen=True, slots=True)
class MemorySelection:
    """The choice of optional items for one request, within `limit`."""

    limit: Cost = Cost(0, 0)
    choices: tuple[ItemChoice, ...] = ()
    approximate: bool = False
    pins: tuple[tuple[PinnedFact, Cost], ...] = field(default=())

    @property
    def kept(self) -> tuple[MemoryItem, ...]:
        return tuple(c.item for c in self.choices if c.kept)

    def kept_of(self, kind: ItemKind) -> tuple[MemoryItem, ...]:
        return tuple(c.item for c in self.choices if c.kept and c.item.kind is kind)


NO_SELECTION = MemorySelection()


# A partial selection: (-total priority, bytes, -age, tokens, mask). Sorting these tuples
# puts the best first by the tie rule: age has bit n-1-i for item i, so the set holding
# the oldest item the other lacks has the larger age.
_State = tuple[int, int, int, int, int]


def _pareto(states: list[_State]) -> list[_State]:
    """Drop every state another one beats whatever is added later: no lower priority,
    no more bytes, no more tokens, and ahead by the tie rule. Kept states form a staircase
    (bytes up, tokens down) searched by bisection."""
    states.sort()
    kept: list[_State] = []
    stair_bytes: list[int] = []
    stair_tokens: list[int] = []
    for state in states:
        used_bytes, tokens = state[1], state[3]
        at = bisect.bisect_right(stair_bytes, used_bytes)
        if at and stair_tokens[at - 1] <= tokens:
            continue  # an earlier state (priority ≥) fits wherever this one does
        kept.append(state)
        end = at
        while end < len(stair_bytes) and stair_tokens[end] >= tokens:
            end += 1
        stair_bytes[at:end] = [used_bytes]
        stair_tokens[at:end] = [tokens]
    return kept


def choose_exact(
    priorities: Sequence[int], costs: Sequence[Cost], limit: Cost,
    max_states: int = MAX_EXACT_STATES,
) -> int | None:
    """The best subset (a bit mask over the items, oldest first) within both limits, or
    None when the exact search would examine more than `max_states` partial subsets.

    A dynamic programme over the items, oldest first, keeping only the partial subsets
    no other one beats: one that has no lower priority, no more bytes and no more tokens,
    and is ahead by the tie rule, stays ahead after any later items join both. Tokens are
    left out of the comparison when all items together fit the token limit, and a
    partial subset that cannot reach the priority the greedy pass already has is dropped.
    """
    count = len(priorities)
    tokens_bind = sum(c.tokens for c in costs) > limit.tokens
    floor = sum(p for i, p in enumerate(priorities)
                if choose_greedy(priorities, costs, limit) >> i & 1)
    left = [sum(priorities[i:]) for i in range(count + 1)]
    states: list[_State] = [(0, 0, 0, 0, 0)]
    examined = 1
    for index, (priority, cost) in enumerate(zip(priorities, costs, strict=True)):
        age, bit = 1 << (count - 1 - index), 1 << index
        add_tokens = cost.tokens if tokens_bind else 0
        grown = [
            (p - priority, b + cost.bytes, a - age, t + add_tokens, m | bit)
            for p, b, a, t, m in states
            if b + cost.bytes <= limit.bytes and t + cost.tokens <= limit.tokens
        ]
        examined += len(grown)
        if examined > max_states:
            return None
        reach = left[index + 1]
        states = _pareto([s for s in states + grown if -s[0] + reach >= floor])
    return states[0][4]


def choose_greedy(priorities: Sequence[int], costs: Sequence[Cost], limit: Cost) -> int:
    """Highest priority first, then fewer bytes, then the older: each item that still fits."""
    order = sorted(range(len(priorities)), key=lambda i: (-priorities[i], costs[i].bytes, i))
    mask, used_bytes, used_tokens = 0, 0, 0
    for i in order:
        if used_bytes + costs[i].bytes <= limit.bytes and \
                used_tokens + costs[i].tokens <= limit.tokens:
            mask |= 1 << i
            used_bytes += costs[i].bytes
            used_tokens += costs[i].tokens
    return mask


def select(items: Sequence[MemoryItem], costs: Sequence[Cost], limit: Cost) -> MemorySelection:
    """Choose the optional items to send: exact while the work is bounded, else greedy."""
    priorities = [min(max(i.priority, MIN_PRIORITY), MAX_PRIORITY) for i in items]
    mask = choose_exact(priorities, costs, limit) if len(items) <= MAX_EXACT_ITEMS else None
    approximate = mask is None
    if mask is None:
        mask = choose_greedy(priorities, costs, limit)
    choices = []
    for index, (item, cost) in enumerate(zip(items, costs, strict=True)):
        if mask >> index & 1:
            reason = Reason.KEPT
        elif cost.bytes > limit.bytes or cost.tokens > limit.tokens:
            reason = Reason.TOO_LARGE
        else:
            reason = Reason.NO_ROOM
        choices.append(ItemChoice(item, cost, reason))
    return MemorySelection(limit, tuple(choices), approximate)


def share_of(total: int, percent: int) -> int:
    """`percent` of a budget, rounded down (never below 0)."""
    return max(0, total) * percent // 100


@dataclass(frozen=True, slots=True)
class StoredPin:
    """A pinned fact as kept: where it came from (`sources`, turn ids; empty = typed)."""

    id: int
    conversation_id: int
    text: str
    kind: str = ""
    sources: tuple[str, ...] = ()
    created_at: str = ""

    @property
    def typed(self) -> bool:
        return not self.sources


@dataclass(frozen=True, slots=True)
class StoredNote:
    id: int
    conversation_id: int
    text: str
    priority: int = DEFAULT_PRIORITY
    created_at: str = ""


@dataclass(frozen=True, slots=True)
class StoredPreference:
    id: int
    text: str
    priority: int = DEFAULT_PRIORITY
    created_at: str = ""


def conversation_memory(
    pins: Sequence[StoredPin], notes: Sequence[StoredNote],
    preferences: Sequence[StoredPreference], *, share_percent: int = DEFAULT_MEMORY_SHARE,
) -> Memory:
    """A conversation's `Memory`: its pins in the order they were made, and its notes and
    the preferences it uses as optional items, oldest first (the age ties go by)."""
    optional = sorted(
        [(p.created_at, 0, p.id, MemoryItem(str(p.id), ItemKind.PREFERENCE, p.text, p.priority))
         for p in preferences]
        + [(n.created_at, 1, n.id, MemoryItem(str(n.id), ItemKind.NOTE, n.text, n.priority))
           for n in notes],
        key=lambda entry: entry[:3],
    )
    return Memory(
        pins=tuple(PinnedFact(str(p.id), p.text) for p in pins),
        optional=tuple(entry[3] for entry in optional),
        share_percent=share_percent,
    )


def check_priority(priority: int) -> int:
    """A priority from the user: 1–5, or ValueError naming the range."""
    if not MIN_PRIORITY <= priority <= MAX_PRIORITY:
        raise ValueError(f"A priority is {MIN_PRIORITY}–{MAX_PRIORITY}, not {priority}.")
    return priority


def check_share(percent: int) -> int:
    """A memory share from the user: 0–30 %, or ValueError naming the range."""
    if not 0 <= percent <= MAX_MEMORY_SHARE:
        raise ValueError(f"The memory share is 0–{MAX_MEMORY_SHARE} %, not {percent} %.")
    return percent
