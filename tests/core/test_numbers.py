"""A turn's number (`core.numbers`) against a plain reference that numbers positions as
they are made: a new question opens the next number, a new version keeps its position's
number, a privacy delete leaves its number unused, and nothing else moves a number."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from turnlog.core.numbers import TurnNumbers, in_use
from turnlog.core.versions import Supersede, Versions

OPS = st.lists(st.sampled_from(["ask", "ask", "regenerate", "switch", "delete"]),
               max_size=60)


class Reference:
    """The log as a person sees it: positions numbered 1, 2, 3 … when first committed."""

    def __init__(self) -> None:
        self.next_ordinal = 1
        self.next_number = 1
        self.positions: list[dict] = []  # {"number", "ordinals", "active"}
        self.records: list[Supersede] = []

    def ask(self) -> None:
        ordinal = self._take()
        self.positions.append({"number": self.next_number, "ordinals": [ordinal],
                               "active": ordinal})
        self.next_number += 1

    def regenerate(self) -> None:
        if not self.positions:
            return
        last = self.positions[-1]
        ordinal = self._take()
        self.records.append(Supersede(str(last["active"]), str(ordinal)))
        last["ordinals"].append(ordinal)
        last["active"] = ordinal

    def switch(self) -> None:
        if self.positions and len(self.positions[-1]["ordinals"]) > 1:
            last = self.positions[-1]
            older = last["ordinals"][0] if last["active"] != last["ordinals"][0] \
                else last["ordinals"][-1]
            self.records.append(Supersede(str(last["active"]), str(older)))
            last["active"] = older

    def delete(self) -> None:
        # A privacy delete of a turn that has no other version (see the module's note).
        single = [p for p in self.positions if len(p["ordinals"]) == 1]
        if single:
            self.positions.remove(single[len(single) // 2])

    def _take(self) -> int:
        self.next_ordinal += 1
        return self.next_ordinal - 1

    def versions(self) -> Versions:
        ordinals = {str(o): o for p in self.positions for o in p["ordinals"]}
        return Versions(self.records, ordinals)


@settings(max_examples=300, deadline=None)
@given(OPS)
def test_numbers_match_the_positions_as_they_were_made(ops):
    log = Reference()
    for op in ops:
        getattr(log, op)()
    versions = log.versions()
    numbers = TurnNumbers.of(versions)
    for position in log.positions:
        for ordinal in position["ordinals"]:
            assert numbers.number(ordinal) == position["number"]
        assert numbers.opening(position["number"]) == position["ordinals"][0]
    assert numbers.next_number(log.next_ordinal) == log.next_number
    shown = {p["number"] for p in log.positions}
    stored = {o for p in log.positions for o in p["ordinals"]}
    for number in range(1, log.next_number):
        # A number no position holds is a deleted turn's: no turn holds its ordinal.
        assert (numbers.opening(number) in stored) == (number in shown)
    stored_count = sum(len(p["ordinals"]) for p in log.positions)
    assert in_use(stored_count, versions) == len(log.positions)


def test_continue_after_keep_and_regenerate_keep_the_number():
    # Turn 1, turn 2 kept incomplete, continued (a version of turn 2), then turn 3.
    versions = Versions([Supersede("b", "c")], {"a": 1, "b": 2, "c": 3, "d": 4})
    numbers = TurnNumbers.of(versions)
    assert [numbers.number(o) for o in (1, 2, 3, 4)] == [1, 2, 2, 3]
    assert numbers.opening(3) == 4
    assert numbers.next_number(5) == 4


def test_runs_of_ordinals_read_as_runs_of_numbers():
    # Turn 3 has versions at ordinals 3, 4 and 5; turn 4 is stored at ordinal 6.
    numbers = TurnNumbers([(3, 4, 5)])
    assert numbers.runs([(1, 3), (5, 8)]) == ((1, 6),)  # its versions join the runs
    assert numbers.runs([(1, 2), (7, 9)]) == ((1, 2), (5, 7))
    assert numbers.runs([]) == ()
