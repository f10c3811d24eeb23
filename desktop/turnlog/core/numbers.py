"""A turn's number: the one rule every surface shows (the transcript, Go to turn, search
hits, the CLI, exports).

Inside the store every turn, every version of it included, has its own ordinal, never
reused. What a person sees is the *position*: a turn is numbered when it is first
committed, and a new version of it (regenerate, edit and resend, continue after Keep)
keeps that number. So a position's number is the ordinal that opened it less the
ordinals that newer versions of earlier positions took. An ordinal no turn holds any more
was a privacy delete: it keeps its number, and the numbers after it stay where they were
(a gap that Go to turn names). Counts ("3 turns") count the turns in use, not versions.

What the store no longer holds cannot be told apart: a deleted *version* of a turn also
leaves a gap after it, as a deleted turn does.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence

from .versions import Versions


class TurnNumbers:
    """The numbers of one conversation's turns, from its version groups (the ordinals of
    each group's members, oldest first). Answers in O(log v) for v versions."""

    def __init__(self, groups: Iterable[Sequence[int]] = ()) -> None:
        opened: dict[int, int] = {}
        later: list[int] = []
        for group in groups:
            ordinals = sorted(group)
            for ordinal in ordinals:
                opened[ordinal] = ordinals[0]
            later.extend(ordinals[1:])
        self._opened = opened
        self._later = sorted(later)

    @classmethod
    def of(cls, versions: Versions) -> TurnNumbers:
        """The numbers a conversation's supersede records give its turns."""
        return cls(tuple(versions.ordinals[t] for t in group) for group in versions.groups())

    @property
    def versions(self) -> int:
        """How many ordinals newer versions took (the turns that opened no position)."""
        return len(self._later)

    def number(self, ordinal: int) -> int:
        """The number of the turn stored at `ordinal` (any of its versions)."""
        opened = self._opened.get(ordinal, ordinal)
        return opened - bisect.bisect_left(self._later, opened)

    def runs(self, runs: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
        """Inclusive runs of stored ordinals as the runs of numbers the history shows (the
        ordinals newer versions took inside a run fold into their turns' numbers; runs that
        come to touch are one)."""
        shown: list[tuple[int, int]] = []
        for first, last in runs:
            low, high = self.number(first), self.number(last)
            if shown and low <= shown[-1][1] + 1:
                shown[-1] = (shown[-1][0], max(high, shown[-1][1]))
            else:
                shown.append((low, high))
        return tuple(shown)

    def next_number(self, next_ordinal: int) -> int:
        """The number the next new turn gets, stored at `next_ordinal`."""
        return next_ordinal - bisect.bisect_left(self._later, next_ordinal)

    def opening(self, number: int) -> int:
        """The ordinal that opened position `number` (no turn holds it after a privacy
        delete of that turn)."""
        ordinal = number
        for taken in self._later:  # each version below shifts the position one ordinal on
            if taken > ordinal:
                break
            ordinal += 1
        return ordinal


def in_use(turns: int, versions: Versions) -> int:
    """How many turns a conversation of `turns` stored turns has in use (its versions
    counted once)."""
    return turns - len(versions.superseded)


def ordinal_in_use(versions: Versions, number: int) -> int:
    """The stored ordinal of turn `number`'s version in use (the ordinal that opened its
    position when it has no other version; no turn holds it after a privacy delete)."""
    opening = TurnNumbers.of(versions).opening(number)
    turn_id = next((t for t, o in versions.ordinals.items() if o == opening), None)
    return opening if turn_id is None else versions.ordinals[versions.active_of(turn_id)]
