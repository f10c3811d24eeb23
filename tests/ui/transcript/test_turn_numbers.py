"""Turn numbers in the window and which turn a request acts on: a new version (regenerate,
continue after Keep) keeps its turn's number, Go to turn puts the turn asked for at the
top with the whole-log bar at its place (and opens again at once), and Regenerate or Edit
and resend on an older turn's menu are off, saying why."""

from __future__ import annotations

import re
import uuid

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication, QMenu

from loopback import Behaviour
from turnlog.core.model import ConversationSettings
from turnlog.ui.shell.window import MainWindow
from turnlog.ui.transcript.goto import GoToTurnDialog
from turnlog.ui.transcript.model import Role
from uihelpers import numbered
from version_clicks import click
from window_sending import keep_cut_answer, open_window, wait_done

pytest_plugins = ["uiwindow"]

PAIRS = [("My project code is ORCHID-17.", "Noted."), ("哪个代码？", "不知道 🙁")]


def headings(window: MainWindow) -> list[str]:
    model = window.transcript
    # What a screen reader says of each row (the painted heading reads Role.NUMBER).
    return [re.match(r"Turn \d+", str(model.index(r).data(Qt.ItemDataRole.DisplayRole)))[0]
            for r in range(model.rowCount())]


def test_regenerate_on_the_only_turn_keeps_it_turn_1(qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, PAIRS[:1])
    loopback.script(Behaviour.answer("Noted again."))
    qtbot.keyClick(window.view, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: window.transcript.index(0).data(Role.VERSION) == (2, 2),
                    timeout=5000)
    assert window.transcript.rowCount() == 1
    assert headings(window) == ["Turn 1"]
    assert window.transcript.index(0).data(Role.NUMBER) == 1
    assert window.transcript.index(0).data(Role.ANSWER) == "Noted again."


def test_continue_after_keep_keeps_the_kept_turn_s_number(qtbot, make_window, store,
                                                          loopback):
    window, cid = open_window(qtbot, make_window, store, PAIRS[:1])
    keep_cut_answer(qtbot, window, loopback, "Tell me more")
    assert headings(window)[1] == "Turn 2"
    loopback.script(Behaviour.answer(" second half."))
    click(qtbot, window, 1, "continue")  # → Continue in the kept turn's header
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: window.transcript.index(1).data(Role.VERSION) == (2, 2),
                    timeout=5000)
    assert window.transcript.rowCount() == 2
    assert headings(window) == ["Turn 1", "Turn 2"]
    assert [window.transcript.index(r).data(Role.NUMBER) for r in range(2)] == [1, 2]


def _menu_entries(qtbot, window: MainWindow, row: int) -> dict[str, tuple[bool, str]]:
    """Right-click the row: what the menu that opens offers (enabled, tooltip), read while
    it is on screen, then closed."""
    seen: dict[str, tuple[bool, str]] = {}

    def read() -> None:
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            QTimer.singleShot(20, read)
            return
        for action in menu.actions():
            seen[action.text()] = (action.isEnabled(), action.toolTip())
        regenerate = next(a for a in menu.actions() if a.text() == "Regenerate answer")
        menu.setActiveAction(regenerate)
        qtbot.keyClick(menu, Qt.Key.Key_Return)  # chosen anyway: nothing may happen
        if menu.isVisible():
            menu.close()

    view = window.view
    rect = view.visualRect(window.transcript.index(row))
    QTimer.singleShot(50, read)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    event_point = rect.center()
    QApplication.sendEvent(view.viewport(), QContextMenuEvent(
        QContextMenuEvent.Reason.Mouse, event_point, view.viewport().mapToGlobal(event_point)))
    return seen


def test_regenerate_from_an_older_turn_s_menu_is_off_and_says_why(qtbot, make_window, store,
                                                                   loopback):
    pairs = [(f"question {i}", f"answer {i}") for i in range(1, 5)]
    window, cid = open_window(qtbot, make_window, store, pairs)
    before = [(t.id, t.answer) for t in store.turns(cid)]
    entries = _menu_entries(qtbot, window, 1)
    enabled, tip = entries["Regenerate answer"]
    assert not enabled and "turn 4" in tip and "turn 2" in tip and "Fork from here" in tip
    enabled, tip = entries["Edit and resend…"]
    assert not enabled and "Fork from here" in tip
    assert entries["Fork from here"][0]
    qtbot.wait(300)
    assert not window.running and loopback.requests == []
    assert [(t.id, t.answer) for t in store.turns(cid)] == before
    # Closed, the menu leaves Ctrl+R for the newest turn as it was.
    assert window.versions.regenerate_action.isEnabled()
    # On the newest turn's menu they are on.
    entries = _menu_entries(qtbot, window, 3)
    assert entries["Regenerate answer"][0] and entries["Edit and resend…"][0]
    wait_done(qtbot, window)  # Return chose Regenerate there: a new version of turn 4
    qtbot.waitUntil(lambda: window.transcript.index(3).data(Role.VERSION) == (2, 2),
                    timeout=5000)
    assert [m["content"] for m in loopback.requests[-1].json()["messages"]][-1] == \
        "question 4"


LONG_ZH = "第{n}轮的问题：请解释这一段中文文字的意思，并且给出三个例子。\n" * 3
# An answer whose height is known only once its formulas are typeset (in the background).
MATHS = ("## The math {n}\n\nBacking off for $n$ tries waits $\\sum_{{k=0}}^{{n-1}} 2^k = 2^n - 1$ "
         "seconds in all.\n\n$$p(x) = \\frac{{1}}{{\\sigma\\sqrt{{2\\pi}}}} "
         "e^{{-\\frac{{(x-\\mu)^2}}{{2\\sigma^2}}}}$$\n\nAnd $E = mc^2$ and\n\n"
         "$$\\int_0^{{{n}}} x\\,dx = \\frac{{{n}^2}}{{2}}$$\n")


def seed_many(store, count: int, chinese: bool, maths: bool = False) -> int:  # noqa: ANN001
    """`count` turns written in one transaction (as `test_ui_open_long.seed_long`), in
    English or in Chinese of several lines a turn, or with answers full of formulas."""
    conversation = store.conversations.create(
        "long", model="loopback-model", settings=ConversationSettings(max_bytes=1_200))
    stamp = "2026-01-02T03:04:05.000006+00:00"

    def text(kind: str, n: int) -> str:
        if maths and kind == "a":
            return MATHS.format(n=n)
        if chinese:
            return LONG_ZH.format(n=n) + ("回答。" * 40 if kind == "a" else "")
        return f"{kind} {n}"

    rows = ((uuid.uuid4().hex, conversation.id, n, text("q", n), text("a", n),
             "loopback-model", "stop", stamp) for n in range(1, count + 1))
    with store.db.atomic():
        store.db.cursor().executemany(
            "INSERT INTO turns (id, conversation_id, ordinal, question, answer, model, "
            "finish_reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
        store.db.execute_sql("UPDATE conversations SET next_ordinal = ? WHERE id = ?",
                             (count + 1, conversation.id))
    return conversation.id


def go_to(qtbot, window: MainWindow, number: int) -> None:
    """Ctrl+G, the number typed, Return: as a person does it, with no click between."""
    qtbot.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_G,
                   Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: any(d.isVisible() for d in window.findChildren(GoToTurnDialog)),
                    timeout=3000)
    dialog = next(d for d in window.findChildren(GoToTurnDialog) if d.isVisible())
    qtbot.waitUntil(lambda: QApplication.focusWidget() is dialog.number, timeout=3000)
    qtbot.keyClicks(QApplication.focusWidget(), str(number))
    assert dialog.number.text() == str(number)  # the keys reached the dialog
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not dialog.isVisible(), timeout=3000)


def shown_at_top(qtbot, window: MainWindow, number: int, settle_ms: int = 100) -> None:
    """Turn `number` is the top row, its heading in view, and the whole-log bar's thumb
    at its place (the turns before it) — and still so `settle_ms` later."""
    view, model = window.view, window.transcript

    def placed() -> bool:
        row = model.row_of_ordinal(number)
        if row is None or model.index(row).data(Role.NUMBER) != number:
            return False
        top = view.visualRect(model.index(row)).top()
        above = view.visualRect(model.index(row - 1)).bottom() if row else -1
        return 0 <= top <= 2 * view.spacing() + 2 and above < 0

    qtbot.waitUntil(placed, timeout=5000)
    qtbot.wait(settle_ms)  # and it stays there once its neighbours are painted
    assert placed()
    assert view.currentIndex().data(Role.NUMBER) == number
    bar = view.history_bar
    assert abs(bar.value() - (number - 1)) <= 1, (bar.value(), bar.maximum())


@pytest.mark.parametrize("chinese, maths", [(False, False), (True, False), (False, True)],
                         ids=["english", "chinese", "maths"])
def test_go_to_turn_puts_it_at_the_top_and_opens_again_at_once(qtbot, make_window, store,
                                                               chinese, maths):
    seed_many(store, 2_000, chinese, maths)
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2_000, timeout=20_000)
    window.activateWindow()
    window.view.setFocus()
    qtbot.wait(200)
    settle = 3000 if maths else 100  # the formulas around it typeset meanwhile
    go_to(qtbot, window, 1234)
    shown_at_top(qtbot, window, 1234, settle)
    go_to(qtbot, window, 300)  # again at once: no click in between
    shown_at_top(qtbot, window, 300, settle)
    go_to(qtbot, window, 500)
    shown_at_top(qtbot, window, 500, settle)


def test_a_deleted_turn_leaves_a_gap_that_go_to_turn_names(qtbot, make_window, store,
                                                            turnlog_home):
    """Turn 2 regenerated (a second version), turn 3 deleted, then turn 4 asked: the
    window, `show`, `list` and the Markdown export say turns 1, 2 (version 2 of 2) and 4;
    Go to turn 3 says it was deleted, Go to turn 4 opens the newest."""
    from uihelpers import exported
    from version_turns import pending

    cid = store.conversations.create("gaps").id
    store.turns.commit(cid, pending("t1", "one", "1"))
    store.turns.commit(cid, pending("t2", "two", "2"))
    store.turns.commit(cid, pending("t2b", "two", "2 again", replaces="t2"))
    store.turns.commit(cid, pending("t3", "three", "3"))
    store.privacy.delete_turn("t3")
    store.turns.commit(cid, pending("t4", "four", "4"))
    window = make_window()
    qtbot.waitUntil(lambda: window.transcript.rowCount() == 3
                    and window.transcript.index(1).data(Role.VERSION) == (2, 2), timeout=5000)
    assert headings(window) == ["Turn 1", "Turn 2", "Turn 4"]
    dialog = GoToTurnDialog(window.view, window)
    dialog.show()
    assert dialog.number.placeholderText() == "1 to 4"
    dialog.number.setText("3")
    assert not dialog.go() and "Turn 3 was deleted" in dialog.message.text()
    dialog.number.setText("5")
    assert not dialog.go() and "numbered 1 to 4" in dialog.message.text()
    dialog.number.setText("2")
    assert dialog.go()
    assert window.view.currentIndex().data(Role.KEY) == "t2b"

    markdown = exported_markdown(turnlog_home, cid)
    assert [line.split(" · ")[0] for line in markdown.splitlines()
            if line.startswith("## Turn")] == ["## Turn 1", "## Turn 2", "## Turn 2",
                                               "## Turn 4"]
    assert "version 1 of 2 · *replaced*" in markdown
    assert '"ordinal": 3' in exported(turnlog_home, cid)  # the stored ordinals stay
    listed = run_cli(turnlog_home, "list")
    assert "     3 turns  gaps" in listed


def run_cli(home, *args: str) -> str:  # noqa: ANN001
    import os
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", "import sys; from turnlog.cli import main; sys.exit(main())",
         *args], env={**os.environ, "TURNLOG_HOME": str(home)}, capture_output=True,
        text=True, timeout=60, check=True)
    return done.stdout


def exported_markdown(home, cid: int) -> str:  # noqa: ANN001
    return run_cli(home, "export", str(cid), "--format", "markdown")


@pytest.mark.parametrize("count", [6, 300])
def test_go_to_a_turn_deleted_elsewhere_says_so_and_stays_put(qtbot, make_window, store,
                                                               count):
    """A turn deleted while the window was open (`turnlog-cli delete`, another window):
    Go to its number says it was deleted, keeps the dialog open and moves nothing."""
    window, cid = open_window(qtbot, make_window, store, numbered(count))
    gone = store.turns(cid)[count - 3]
    window.view.setCurrentIndex(window.transcript.index(window.transcript.rowCount() - 1))
    before = window.view.currentIndex().data(Role.ORDINAL)
    store.privacy.delete_turn(gone.id)  # the store this window reads, not through the window
    qtbot.keyClick(window.view, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: any(d.isVisible() for d in window.findChildren(GoToTurnDialog)),
                    timeout=3000)
    dialog = next(d for d in window.findChildren(GoToTurnDialog) if d.isVisible())
    qtbot.keyClicks(dialog.number, str(count - 2))
    qtbot.keyClick(dialog.number, Qt.Key.Key_Return)
    assert dialog.isVisible()
    assert f"Turn {count - 2:,} was deleted" in dialog.message.text()
    assert window.view.currentIndex().data(Role.ORDINAL) == before
    dialog.reject()
