"""The Side questions list shows each answer as it reads, not its Markdown: no `**`, no
code fences, in the real window after a real side question."""

from __future__ import annotations

from PySide6.QtCore import Qt

from loopback import Behaviour
from side_window import open_window, wait_side
from uihelpers import numbered

pytest_plugins = ["uiwindow"]

ANSWER = ("**Walk server** first, then:\n\n```python\nprint('walk')\n```\n\n"
          "- one *step*\n- `two`\n")


def test_the_list_shows_the_answer_as_it_reads(qtbot, make_window, store, loopback):
    window, _cid = open_window(qtbot, make_window, store, numbered(2))
    loopback.script(Behaviour.answer(ANSWER))
    window.composer.set_draft("Which server first?")
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    wait_side(qtbot, window)
    panel = window.side.panel
    assert panel.list.count() == 1
    entry = panel.list.item(0).text()
    question, answer = entry.split("\n", 1)
    assert question == "Which server first?"
    assert answer.startswith("→ Walk server first, then:")
    assert "print('walk')" in answer and "one step" in answer and "two" in answer
    for mark in ("**", "```", "`", "*step*", "- one"):
        assert mark not in answer, (mark, answer)
