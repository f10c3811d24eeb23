"""The inspector names turns by the numbers their headers show: after a regenerate (a new
version keeps its turn's number, though it is stored under an ordinal of its own), the
parts of the next request and the turn an answer was saved as read as in the history."""

from __future__ import annotations

from loopback import Behaviour
from uihelpers import numbered
from window_sending import open_window, type_draft, wait_done

pytest_plugins = ["uiwindow"]


def part_names(window) -> list[str]:
    table = window.inspector.parts
    return [table.item(row, 0).text() for row in range(table.rowCount())]


def test_turn_numbers_in_the_inspector_follow_the_headers_after_a_regenerate(
        qtbot, make_window, store, loopback):
    window, _cid = open_window(qtbot, make_window, store, numbered(2))
    loopback.script(Behaviour.answer("A second version of answer 2."))
    window.versions.regenerate()
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: len(window.transcript.versions.superseded) == 1, timeout=5000)
    loopback.script(Behaviour.answer("The third answer."))
    type_draft(window, "A third question", 3)
    window.send()
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 3, timeout=5000)
    number = window.transcript.number_of(window.transcript.turns[-1])
    assert number == 3  # as its header writes it
    qtbot.waitUntil(lambda: "answered and saved as turn 3"
                    in window.inspector.outcome_value.text(), timeout=5000)
    type_draft(window, "A fourth question", 3)
    qtbot.waitUntil(lambda: "turn 3 (question + answer)" in part_names(window),
                    timeout=5000)
    names = [name for name in part_names(window) if name.startswith("turn ")]
    assert names == ["turn 1 (question + answer)", "turn 2 (question + answer)",
                     "turn 3 (question + answer)"], names
