"""The Side questions list shows each answer as it reads, not its Markdown: no `**`, no
code fences, in the real window after a real side question."""

from __future__ import annotations

import pytest
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


@pytest.mark.parametrize(("height", "font_scale"), [(600, 1.0), (536, 1.0), (536, 1.3)])
def test_at_1024x600_each_entry_shows_whole_lines_and_the_list_scrolls_to_every_one(
        qtbot, make_window, store, loopback, height, font_scale):
    """Long questions and answers on a small screen (536 px: what a 600-px screen leaves a
    window under a desktop's top bar and the window's title bar), in the usual font and a
    larger one (as Chinese lines are taller): an entry is its question and the start of its
    answer, one line each, cut with "…" where they are longer, never a line cut through
    the middle by the list's edge; two entries show at once, and the list scrolls to every
    entry."""
    from uihelpers import seed

    seed(store, "计划 plans", numbered(2))
    window = make_window(size=(1024, height))
    font = window.font()
    font.setPointSizeF(font.pointSizeF() * font_scale)
    window.setFont(font)
    qtbot.waitUntil(lambda: window.side.shown_for is not None, timeout=5000)
    window.side_dock.show()
    window.side_dock.raise_()
    questions = ["What did we decide about retries and the timeout for the deploy step, "
                 "and why was that the better choice for the team at the time? " * 2,
                 "我们关于重试的决定是什么？请用一句话回答，并说明超时时间设置为多少秒比较合适。"
                 * 2,
                 "A third question, also long enough to need more than one line " * 3]
    for question in questions:
        loopback.script(Behaviour.answer("**Walk server** here. " + "A long answer. " * 40))
        window.composer.set_draft(question)
        qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return,
                       Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
        wait_side(qtbot, window)
    panel = window.side.panel
    listing = panel.list
    assert listing.count() == 3
    qtbot.wait(100)
    line = listing.fontMetrics().lineSpacing()
    viewport = listing.viewport().rect()
    for row in range(listing.count()):
        listing.scrollToItem(listing.item(row))
        qtbot.wait(20)
        rect = listing.visualItemRect(listing.item(row))
        assert rect.height() < 3 * line, f"entry {row} runs to more than two lines"
        assert viewport.contains(rect), f"entry {row} is cut by the list's edge: {rect}"
        # two whole entries in view at once, never one and an empty half below it
        assert viewport.height() >= 2 * rect.height(), (viewport, rect)
