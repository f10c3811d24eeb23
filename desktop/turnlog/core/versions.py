"""Versions of a turn, from appended supersede records.

Regenerate and edit-and-resend append a new turn and a record "turn A was replaced by
turn B"; making an older version active again appends "B was replaced by A". No turn is
ever changed: a turn's state is the newest record that names it (replaced: superseded;
replacing: active; none: active). The turns linked by records form one position of the
conversation (a version group); the *active line* is every turn that is not superseded,
in ordinal order, and it is all that projection and compaction ever see.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .model import Turn


@dataclass(frozen=True, slots=True)
class Supersede:
    """One appended record: `turn_id` was replaced by `by_turn_id`, at `created_at`
    (ISO text, kept as stored)."""

    turn_id: str
    by_turn_id: str
    created_at: str = ""


@dataclass(frozen=True, slots=True)
class ForkOrigin:
    """Where a fork came from: turns before `at_ordinal` of conversation `source_id`
    (None, with no title, once that conversation was deleted); `at_number` is that turn's
    number as the source shows it (`core.numbers`; the ordinal when it cannot be read)."""

    at_ordinal: int
    source_id: int | None = None
    source_title: str | None = None
    at_number: int | None = None
    # Made by sync: the name of the machine whose turn, added at the same time as one here
    # after the same turn, this fork holds (None: a fork the user made).
    continued_on: str | None = None

    @property
    def number(self) -> int:
        return self.at_ordinal if self.at_number is None else self.at_number

    def describe(self) -> str:
        if self.continued_on is not None:
            source = "a deleted conversation" if self.source_id is None else \
                f"“{self.source_title}”"
            return f"continued on {self.continued_on}, from {source}, turn {self.number}"
        if self.source_id is None:
            return f"forked from a deleted conversation, turn {self.number}"
        return f"forked from “{self.source_title}”, turn {self.number}"


class Versions:
    """What a conversation's supersede records say: which turns are superseded and which
    turns are versions of one another (ordered by ordinal, oldest first)."""

    def __init__(self, records: Iterable[Supersede], ordinals: Mapping[str, int]) -> None:
        self.records = tuple(records)
        state: dict[str, bool] = {}
        replaced_by: dict[str, str] = {}
        parent: dict[str, str] = {}

        def root(turn_id: str) -> str:
            while parent.get(turn_id, turn_id) != turn_id:
                turn_id = parent[turn_id]
            return turn_id

        for record in self.records:
            state[record.turn_id] = True
            state[record.by_turn_id] = False
            replaced_by[record.turn_id] = record.by_turn_id
            a, b = root(record.turn_id), root(record.by_turn_id)
            if a != b:
                parent[a] = b
        known = [t for t in state if t in ordinals]  # a deleted turn is no version
        self.ordinals = {t: ordinals[t] for t in known}
        self.superseded = frozenset(t for t in known if state[t])
        self.replaced_by = {t: replaced_by[t] for t in self.superseded}
        groups: dict[str, list[str]] = {}
        for turn_id in known:
            groups.setdefault(root(turn_id), []).append(turn_id)
        self._group: dict[str, tuple[str, ...]] = {}
        for members in groups.values():
            ordered = tuple(sorted(members, key=lambda t: ordinals[t]))
            for turn_id in ordered:
                self._group[turn_id] = ordered

    def __bool__(self) -> bool:
        return bool(self._group)

    def group(self, turn_id: str) -> tuple[str, ...]:
        """Every version of the position `turn_id` holds, oldest first (itself alone if it
        has no other version)."""
        return self._group.get(turn_id, (turn_id,))

    def active_of(self, turn_id: str) -> str:
        """The active version of the position `turn_id` holds."""
        for member in self.group(turn_id):
            if member not in self.superseded:
                return member
        return turn_id  # every version superseded cannot happen; show the turn itself

    def is_superseded(self, turn_id: str) -> bool:
        return turn_id in self.superseded

    def groups(self) -> list[tuple[str, ...]]:
        """The positions that have more than one version."""
        seen: dict[tuple[str, ...], None] = {}
        for members in self._group.values():
            if len(members) > 1:
                seen[members] = None
        return list(seen)


def active_line(turns: Sequence[Turn], versions: Versions) -> tuple[Turn, ...]:
    """The turns that are not superseded, in their order."""
    return tuple(t for t in turns if t.id not in versions.superseded)


def restore_order(replaced_by: Mapping[str, str]) -> list[tuple[str, str]]:
    """Supersede records that give back a state written as "A was replaced by B" pairs
    (an export's `superseded_by`): a pair whose replacing turn is itself superseded comes
    first, so replaying them in order leaves exactly the given turns superseded."""
    def depth(turn_id: str) -> int:
        steps = 0
        seen = {turn_id}
        while turn_id in replaced_by:
            turn_id = replaced_by[turn_id]
            if turn_id in seen:  # a loop cannot be made by appending; refuse to spin
                raise ValueError("superseded_by links form a loop")
            seen.add(turn_id)
            steps += 1
        return steps

    return sorted(replaced_by.items(), key=lambda pair: -depth(pair[0]))
