"""Side questions in the window against the loopback server: the side panel, its stages,
cancel, failures keeping the side draft inline, "Keep as a turn", the side inspector, and
the transcript and log left as they were."""

from __future__ import annotations

import json
import time

import pytest
from PySide6.QtCore import Qt

from loopback import Behaviour
from side_window import open_window, wait_side
from uihelpers import exported, numbered

pytest_plugins = ["uiwindow"]

SIDE = "翻译一下上面的回答 — what did we decide?"


def turns_exported(home, cid: int) -> list[str]:
    """The export's header and turn lines (side questions are exported after them)."""
    return [line for line in exported(home, cid).splitlines()
            if not line.startswith('{"side_question"')]


def test_ctrl_shift_enter_asks_aside_and_the_conversation_stays_as_it_was(
        qtbot, make_window, store, loopback, turnlog_home):
    window, cid = open_window(qtbot, make_window, store, numbered(3))
    before = turns_exported(turnlog_home, cid)
    requests_before = store.records.of(cid)
    rows_before = window.transcript.rowCount()
    loopback.script(Behaviour.slow("我们决定 **周五** 见面。", delay_s=0.05, chunks=5,
                                   usage={"prompt_tokens": 80, "completion_tokens": 7,
                                          "total_tokens": 87}))
    stages = []
    window.side.session.stage_entered.connect(lambda stage, words: stages.append(words))
    window.composer.set_draft(SIDE)
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.side.session.running and not window.running
    assert window.composer.text() == ""
    assert window.side_dock.isVisible()
    wait_side(qtbot, window)
    assert stages[0] == "Preparing" and "Organizing turns" in stages and "Answering" in stages
    panel = window.side.panel
    assert "周五" in panel.answer.toPlainText()
    assert panel.list.count() == 1 and SIDE in panel.list.item(0).text()
    assert "87 total" in panel.usage.text()
    # Nothing of the conversation changed: rows, log, request records.
    assert window.transcript.rowCount() == rows_before
    assert turns_exported(turnlog_home, cid) == before
    assert store.records.of(cid) == requests_before
    # The side inspector shows the exact body that went on the wire, labelled.
    inspector = panel.inspector
    assert "side question" in inspector.heading.text()
    assert "side question" in inspector.endpoint.text()
    shown = inspector.state.projection
    assert shown.body == loopback.requests[-1].body
    assert json.loads(shown.body)["messages"][-1]["content"] == SIDE
    names = [inspector.parts.item(r, 0).text() for r in range(inspector.parts.rowCount())]
    assert names[-2:] == ["current question", "total = the body"]
    assert window.inspector.state is None or window.inspector.state.projection is None \
        or window.inspector.state.projection.body != shown.body


def test_a_second_side_question_carries_the_first(qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(2))
    loopback.script(Behaviour.answer("Friday."), Behaviour.answer("Yes, 10:00."))
    panel = window.side.panel
    panel.edit.setPlainText("When?")
    qtbot.mouseClick(panel.ask_button, Qt.MouseButton.LeftButton)
    wait_side(qtbot, window)
    panel.edit.setPlainText("Sure?")
    qtbot.keyClick(panel.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    wait_side(qtbot, window)
    contents = [m["content"] for m in loopback.requests[-1].json()["messages"]]
    assert contents[-3:] == ["When?", "Friday.", "Sure?"]
    names = [panel.inspector.parts.item(r, 0).text()
             for r in range(panel.inspector.parts.rowCount())]
    assert "earlier side question (question + answer)" in names
    assert panel.list.count() == 2


@pytest.mark.parametrize(("behaviour", "words"), [
    (Behaviour.rate_limited("7"), "Rate limited"),
    (Behaviour.length(), "output limit"),
    (Behaviour.server_error(), "500"),
])
def test_failures_keep_the_side_draft_and_say_why_inline(qtbot, make_window, store, loopback,
                                                         turnlog_home, behaviour, words):
    window, cid = open_window(qtbot, make_window, store, numbered(2))
    before = turns_exported(turnlog_home, cid)
    loopback.script(behaviour)
    panel = window.side.panel
    panel.edit.setPlainText(SIDE)
    window.side.ask()
    wait_side(qtbot, window)
    assert panel.edit.toPlainText() == SIDE
    assert panel.problem.isVisible()
    assert words.lower() in panel.problem.text().lower()
    assert not window.banner.isVisible()  # inline in the panel, never over the composer
    assert panel.list.count() == 0
    assert turns_exported(turnlog_home, cid) == before


def test_stop_cancels_a_side_question_promptly(qtbot, make_window, store, loopback):
    window, _ = open_window(qtbot, make_window, store, numbered(2))
    loopback.script(Behaviour.hang(after_chunks=1, text="Thinking"))
    panel = window.side.panel
    panel.edit.setPlainText(SIDE)
    window.side.ask()
    qtbot.waitUntil(lambda: window.side._streamed != "", timeout=5000)
    assert window.side._streamed in panel.answer.toPlainText()
    assert panel.stop_button.isEnabled() and panel.stage.isVisible()
    started = time.monotonic()
    qtbot.keyClick(panel.edit, Qt.Key.Key_Escape)
    wait_side(qtbot, window, timeout=2000)
    elapsed = time.monotonic() - started
    print(f"side stop took {elapsed * 1000:.0f} ms")
    assert elapsed < 1.0  # 200 ms on an idle machine; slack for a loaded one
    assert panel.edit.toPlainText() == SIDE
    assert "Stopped" in panel.problem.text()
    assert panel.list.count() == 0


def test_keep_as_a_turn_appends_the_side_answer(qtbot, make_window, store, loopback,
                                                turnlog_home):
    window, cid = open_window(qtbot, make_window, store, numbered(2))
    loopback.script(Behaviour.answer("香山，周五。"))
    panel = window.side.panel
    panel.edit.setPlainText("去哪里？")
    window.side.ask()
    wait_side(qtbot, window)
    assert panel.keep_button.isEnabled()
    qtbot.mouseClick(panel.keep_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 3, timeout=5000)
    lines = [json.loads(line) for line in exported(turnlog_home, cid).splitlines()]
    turns = [line for line in lines[1:] if "question" in line]
    assert (turns[-1]["question"], turns[-1]["answer"]) == ("去哪里？", "香山，周五。")
    assert panel.list.count() == 1  # the side question stays listed


def test_deleting_the_conversation_clears_the_panel(qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(2))
    loopback.script(Behaviour.answer("ok"))
    window.side.panel.edit.setPlainText("btw?")
    window.side.ask()
    wait_side(qtbot, window)
    window.confirm = lambda confirmation: type("D", (), {"accepted": True, "option": False})()
    window.history.delete_now(window.conversation)
    assert window.side.panel.list.count() == 0  # at once: nothing of it stays on show
    qtbot.waitUntil(lambda: store.conversations() == [], timeout=5000)
    assert store.side.of(cid) == []
    assert window.side.panel.answer.toPlainText() == ""


def test_a_failed_side_request_counts_in_the_panels_usage_total(qtbot, make_window, store,
                                                                loopback, turnlog_home):
    window, cid = open_window(qtbot, make_window, store, numbered(2))
    requests_before = store.records.of(cid)
    loopback.script(Behaviour.length(usage={"prompt_tokens": 50, "completion_tokens": 900,
                                            "total_tokens": 950}),
                    Behaviour.answer("Friday.", usage={"prompt_tokens": 40,
                                                       "completion_tokens": 5,
                                                       "total_tokens": 45}))
    panel = window.side.panel
    panel.edit.setPlainText(SIDE)
    window.side.ask()
    wait_side(qtbot, window)
    assert panel.problem.isVisible() and panel.list.count() == 0
    assert "950 total" in panel.usage.text()
    assert "1 failed side request included" in panel.usage.text()
    window.side.ask()  # the draft came back; this time it is answered
    wait_side(qtbot, window)
    assert panel.list.count() == 1
    assert "995 total" in panel.usage.text() and "1 failed side request" in panel.usage.text()
    assert store.records.of(cid) == requests_before
    # Shown again when the panel reads the conversation back from the store.
    panel.usage.setText("")
    window.side.reload(cid)
    qtbot.waitUntil(lambda: "995 total" in panel.usage.text(), timeout=5000)
    (attempt,) = store.side.attempts(cid)
    assert attempt.outcome == "length" and attempt.usage.total_tokens == 950
