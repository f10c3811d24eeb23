"""Versions in the window against the loopback server: regenerate (button and Ctrl+R), the
version switcher and its marks, use this version, edit and resend with Esc, fork."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt

from loopback import Behaviour
from turnlog.providers import CUSTOM, OLLAMA
from turnlog.ui.shell.window import MainWindow
from turnlog.ui.transcript.marks import RowMark
from turnlog.ui.transcript.model import Role
from version_clicks import click, control_point, last_row
from window_sending import open_window, wait_done

pytest_plugins = ["uiwindow"]

PAIRS = [("My project code is ORCHID-17.", "Noted."), ("哪个代码？", "不知道 🙁")]


def menu_action(window: MainWindow, menu: str, text: str):
    for top in window.menuBar().actions():
        if top.text() == menu:
            return next(a for a in top.menu().actions() if a.text() == text)
    raise AssertionError(f"no {menu} menu")


def versions_shown(qtbot, window: MainWindow, row: int, expected) -> None:
    qtbot.waitUntil(lambda: window.transcript.index(row).data(Role.VERSION) == expected,
                    timeout=5000)


def test_regenerate_switch_and_use_a_version(qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, PAIRS)
    window.composer.set_draft("half-typed 草稿", 4)
    loopback.script(Behaviour.answer("ORCHID-17 ✅"))
    click(qtbot, window, 1, "regenerate")
    assert window.running
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: window.transcript.rowCount() == 2, timeout=5000)
    versions_shown(qtbot, window, 1, (2, 2))
    assert window.composer.text() == "half-typed 草稿"  # the composer was not touched
    sent = [m["content"] for m in loopback.requests[-1].json()["messages"]]
    assert sent == ["My project code is ORCHID-17.", "Noted.", "哪个代码？"]
    assert [t.answer for t in store.turns(cid)] == ["Noted.", "ORCHID-17 ✅"]
    row = window.transcript.index(1)
    assert row.data(Role.ANSWER) == "ORCHID-17 ✅" and row.data(Role.MARK) is RowMark.ASKED
    assert window.shown.record.turn_id == store.turns(cid)[1].id  # the version sent
    # The inspector shows the body that was sent: the turn before it and the question again.
    parts = window.inspector.parts
    labels = [parts.item(r, 0).text() for r in range(parts.rowCount())]
    assert "turn 1 (question + answer)" in labels and not any("turn 2" in x for x in labels)
    assert "不知道" not in window.inspector.body.toPlainText()
    # ◀ shows the older version, marked replaced (its own hover text), never sent.
    click(qtbot, window, 1, "older")
    row = window.transcript.index(1)
    assert row.data(Role.VERSION) == (1, 2) and row.data(Role.ANSWER) == "不知道 🙁"
    assert row.data(Role.MARK) is RowMark.REPLACED
    assert "never sent" in row.data(Qt.ItemDataRole.ToolTipRole)
    click(qtbot, window, 1, "use")
    qtbot.waitUntil(lambda: [t.answer for t in window.transcript.turns] == [
        "Noted.", "不知道 🙁"], timeout=5000)
    assert [t.answer for t in store.turns(cid)] == ["Noted.", "不知道 🙁"]
    versions_shown(qtbot, window, 1, (1, 2))
    assert window.transcript.index(1).data(Role.MARK) is not RowMark.REPLACED
    assert len(store.turns.all(cid)) == 3


def test_regenerate_asks_for_a_new_sample_with_the_seed_the_inspector_showed(
        qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, PAIRS, preset=OLLAMA)
    shown: list[int] = []  # the seed in the inspector's body while each request is in flight

    def in_flight(state) -> None:
        if state.kind == "running" and state.projection is not None:
            shown.append(json.loads(window.inspector.body.toPlainText())["seed"])

    window.preview.shown_changed.connect(in_flight)
    for answer in ("Again: ORCHID-17.", "Once more: ORCHID-17."):
        loopback.script(Behaviour.answer(answer))
        qtbot.keyClick(window.view, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
        wait_done(qtbot, window)
    wire = [request.json()["seed"] for request in loopback.requests[-2:]]
    assert wire[0] != wire[1]  # each regenerate asks for a sample of its own
    assert list(dict.fromkeys(shown)) == wire  # the body in flight is the body sent
    assert [r.seed for r in store.records.of(cid)[-2:]] == wire  # recorded with the request
    assert [t.answer for t in store.turns(cid)][-1] == "Once more: ORCHID-17."


def test_no_seed_goes_to_a_server_not_known_to_take_one(qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, PAIRS, preset=CUSTOM)
    loopback.script(Behaviour.answer("Again."))
    window.versions.regenerate()
    wait_done(qtbot, window)
    assert "seed" not in loopback.requests[-1].json()
    assert store.records.of(cid)[-1].seed is None


@pytest.mark.parametrize("behaviour", [Behaviour.server_error(), Behaviour.empty(),
                                       Behaviour.length("cut")], ids=["500", "empty", "length"])
def test_a_failed_regenerate_keeps_the_old_answer(qtbot, make_window, store, loopback,
                                                  behaviour):
    window, cid = open_window(qtbot, make_window, store, PAIRS)
    window.composer.set_draft("keep me", 3)
    before = store.turns.all(cid)
    loopback.script(behaviour)
    qtbot.keyClick(window.view, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert window.running
    wait_done(qtbot, window)
    assert store.turns.all(cid) == before
    assert window.transcript.rowCount() == 2
    assert window.transcript.index(1).data(Role.ANSWER) == "不知道 🙁"
    assert window.banner.isVisible()
    assert (window.composer.text(), window.composer.cursor_position()) == ("keep me", 3)


def test_edit_and_resend_and_escape(qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, PAIRS)
    window.composer.set_draft("my draft", 2)
    window.view.setCurrentIndex(window.transcript.index(1))
    window.versions.edit_action.trigger()
    assert window.composer.text() == "哪个代码？"
    assert window.versions.edit_note.isVisibleTo(window)
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Escape)
    assert (window.composer.text(), window.composer.cursor_position()) == ("my draft", 2)
    assert not window.versions.edit_note.isVisibleTo(window)
    assert len(store.turns.all(cid)) == 2
    window.versions.edit_action.trigger()
    window.composer.set_draft("What is my project code?")
    loopback.script(Behaviour.answer("ORCHID-17"))
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: [t.question for t in store.turns(cid)][-1:] ==
                    ["What is my project code?"], timeout=5000)
    assert len(loopback.requests[-1].json()["messages"]) == 3
    versions_shown(qtbot, window, 1, (2, 2))
    assert window.transcript.rowCount() == 2


def test_fork_from_a_turn_opens_it_with_the_draft(qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, PAIRS)
    window.view.setCurrentIndex(window.transcript.index(1))
    window.versions.fork_action.trigger()
    qtbot.waitUntil(lambda: window.conversation is not None and window.conversation.id != cid,
                    timeout=5000)
    qtbot.waitUntil(lambda: window.composer.text() == "哪个代码？", timeout=5000)
    qtbot.waitUntil(lambda: [t.question for t in window.transcript.turns] == [
        "My project code is ORCHID-17."], timeout=5000)
    qtbot.waitUntil(lambda: window.versions.origin.isVisibleTo(window), timeout=5000)
    assert window.versions.origin.text() == "forked from “chat”, turn 2"


def test_deleting_offers_versions_and_forks(qtbot, make_window, store, loopback):
    from turnlog.ui.dialogs.privacy import Decision

    window, cid = open_window(qtbot, make_window, store, PAIRS)
    loopback.script(Behaviour.answer("second version"))
    window.versions.regenerate()
    wait_done(qtbot, window)
    versions_shown(qtbot, window, 1, (2, 2))
    asked = []

    def answer(confirmation, option):
        asked.append(confirmation)
        return Decision(True, option)

    window.confirm = lambda c: answer(c, False)  # untick "its other versions"
    window.view.setCurrentIndex(window.transcript.index(1))
    window.view.delete_action.trigger()
    qtbot.waitUntil(lambda: len(store.turns.all(cid)) == 2, timeout=5000)
    assert asked[0].option.startswith("Also delete its 1 other version") \
        and asked[0].option_checked
    # The older version is in use again, in the same row.
    qtbot.waitUntil(lambda: window.transcript.index(1).data(Role.ANSWER) == "不知道 🙁",
                    timeout=5000)
    fork, _ = store.forks.at(cid, 2)
    window.refresh_conversations(select_id=cid)
    window.confirm = lambda c: answer(c, True)
    window.history.delete_conversation(store.conversations.get(cid))
    qtbot.waitUntil(lambda: store.conversations() == [], timeout=5000)
    assert "1 fork holding copies" in asked[-1].option


def test_an_older_version_of_a_turn_that_later_turns_followed(qtbot, make_window, store,
                                                               loopback):
    """◀ ▶ show its versions; the older one cannot be used in place (turn 3 was asked
    after the other), so the row offers to fork from it, and the fork goes on from it."""
    window, cid = open_window(qtbot, make_window, store, PAIRS)
    loopback.script(Behaviour.answer("ORCHID-17 ✅"), Behaviour.answer("Later 后来"))
    click(qtbot, window, 1, "regenerate")
    wait_done(qtbot, window)
    versions_shown(qtbot, window, 1, (2, 2))
    window.composer.set_draft("And then? 然后？", 3)
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: window.transcript.rowCount() == 3, timeout=5000)
    before = store.turns.all(cid)
    assert [t.ordinal for t in store.turns(cid)] == [1, 3, 4]
    click(qtbot, window, 1, "older")
    row = window.transcript.index(1)
    assert row.data(Role.VERSION) == (1, 2) and row.data(Role.ANSWER) == "不知道 🙁"
    assert row.data(Role.MARK) is RowMark.REPLACED
    with pytest.raises(AssertionError):
        control_point(window, 1, "use")  # not offered: it would not be the newest turn
    click(qtbot, window, 1, "newer")
    assert window.transcript.index(1).data(Role.ANSWER) == "ORCHID-17 ✅"
    click(qtbot, window, 1, "older")
    # The context menu names the same choice.
    window.view.menu_opening.emit(window.transcript.index(1))
    assert window.versions.use_action.text() == "Fork from here with this version"
    assert window.versions.use_action.isVisible()
    window.view.menu_opening.emit(window.transcript.index(2))
    assert not window.versions.use_action.isVisible()  # turn 3 has one version, in use
    click(qtbot, window, 1, "fork-version")
    qtbot.waitUntil(lambda: window.conversation is not None and window.conversation.id != cid,
                    timeout=5000)
    qtbot.waitUntil(lambda: [(t.question, t.answer) for t in window.transcript.turns] == [
        PAIRS[0], ("哪个代码？", "不知道 🙁")], timeout=5000)
    qtbot.waitUntil(lambda: window.composer.text() == "And then? 然后？", timeout=5000)
    qtbot.waitUntil(lambda: window.versions.origin.isVisibleTo(window), timeout=5000)
    # Turn 3 as the window numbers it (stored at ordinal 4: a version took ordinal 3).
    assert window.versions.origin.text() == "forked from “chat”, turn 3"
    assert store.turns.all(cid) == before  # the conversation it came from is unchanged
    assert [t.ordinal for t in store.turns(cid)] == [1, 3, 4]


def test_edit_and_resend_after_using_a_version_in_a_long_conversation_never_forks(
        qtbot, make_window, store, loopback):
    """2,000 turns: ◀ on the last turn, *Use this version*, then Conversation → Edit and
    resend… edits the newest turn (no fork, whatever row has the focus); the newest turn
    stays on screen; *Fork from here* over more than 10 turns asks first, naming the count."""
    import uuid
    from datetime import UTC, datetime

    from turnlog.core.model import Usage
    from turnlog.core.send import PendingTurn
    from turnlog.ui.dialogs.privacy import Decision
    from uihelpers import numbered

    window, cid = open_window(qtbot, make_window, store, numbered(2000, size=8))
    last = store.turns(cid)[-1]
    store.turns.commit(cid, PendingTurn(uuid.uuid4().hex, last.question, "a newer answer",
                                        "loopback-model", "stop", Usage(), datetime.now(UTC),
                                        replaces=last.id))
    window.versions.reload(cid)
    row = last_row(window)
    versions_shown(qtbot, window, row, (2, 2))
    click(qtbot, window, row, "older")
    assert window.transcript.index(row).data(Role.VERSION) == (1, 2)
    click(qtbot, window, row, "use")
    qtbot.waitUntil(lambda: window.transcript.turns[-1].answer == last.answer, timeout=10_000)
    versions_shown(qtbot, window, last_row(window), (1, 2))
    qtbot.wait(50)
    view = window.view
    assert view.currentIndex().row() == last_row(window)  # the turn just used is current
    newest = view.visualRect(view.currentIndex())
    assert view.viewport().rect().intersects(newest)  # and on screen
    view.setFocus()  # the focus on the list makes some row current, as a click would
    view.setCurrentIndex(window.transcript.index(0))
    asked = []
    window.confirm = lambda c: asked.append(c) or Decision(False)
    menu_action(window, "&Conversation", "&Edit and resend…").trigger()
    assert window.composer.text() == last.question
    assert window.versions.edit_note.isVisibleTo(window)
    qtbot.wait(100)
    assert len(store.conversations()) == 1 and window.conversation.id == cid
    assert asked == []
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Escape)
    # Forking is explicit, and one that copies many turns asks first.
    view.setCurrentIndex(window.transcript.index(last_row(window) - 20))
    window.versions.fork_action.trigger()
    qtbot.wait(100)
    assert len(asked) == 1 and "1,979 turns" in asked[0].text
    assert len(store.conversations()) == 1
    window.confirm = lambda c: asked.append(c) or Decision(True)
    window.versions.fork_action.trigger()
    qtbot.waitUntil(lambda: window.conversation.id != cid, timeout=10_000)
    assert len(store.conversations()) == 2 and len(asked) == 2


def test_regenerate_is_disabled_in_an_empty_conversation(qtbot, make_window, store, loopback):
    """Ctrl+R cannot apply with no turn: disabled (in the Conversation menu too); the first
    saved turn enables it, deleting it disables it again."""
    from turnlog.ui.dialogs.privacy import Decision
    from uihelpers import seed

    conversation = seed(store, "empty", [])
    window = make_window()
    qtbot.waitUntil(lambda: window.conversation is not None, timeout=5000)
    regenerate = window.versions.regenerate_action
    assert not regenerate.isEnabled()
    assert not menu_action(window, "&Conversation", regenerate.text()).isEnabled()
    qtbot.keyClick(window.view, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    assert not window.running and loopback.requests == []
    loopback.script(Behaviour.answer("First answer"))
    window.composer.set_draft("First question")
    window.send()
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: len(store.turns(conversation.id)) == 1, timeout=5000)
    assert regenerate.isEnabled()
    window.confirm = lambda _c: Decision(True)
    window.view.setCurrentIndex(window.transcript.index(0))
    window.view.delete_action.trigger()
    qtbot.waitUntil(lambda: window.transcript.rowCount() == 0, timeout=5000)
    assert not regenerate.isEnabled()


def test_an_edited_send_that_fails_stays_a_new_version_when_sent_again(qtbot, make_window,
                                                                        store, loopback):
    """One owner of edit mode: the preview, the send and the note agree, before and after a
    failed send; sending again still makes a new version, and the preview leaves out the
    turn being replaced."""
    window, cid = open_window(qtbot, make_window, store, PAIRS)
    window.versions.edit_action.trigger()
    window.composer.set_draft("Which code, exactly?")
    window.refresh_preview()
    assert "不知道" not in window.inspector.body.toPlainText()  # the edited turn is not sent
    loopback.script(Behaviour.server_error())
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    wait_done(qtbot, window)
    assert window.versions.edit_note.isVisibleTo(window)
    assert window.composer.text() == "Which code, exactly?"
    loopback.script(Behaviour.answer("ORCHID-17"))
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: [t.answer for t in store.turns(cid)] == ["Noted.", "ORCHID-17"],
                    timeout=5000)
    assert len(store.turns.all(cid)) == 3  # a new version; the old one is kept
    assert len(loopback.requests[-1].json()["messages"]) == 3
    assert not window.versions.edit_note.isVisibleTo(window)


def test_a_fork_sync_made_names_the_machine_it_continued_on_by_its_name():
    from turnlog.core.versions import ForkOrigin
    from turnlog.ui.conversation.versions import origin_text

    assert origin_text(ForkOrigin(3, 7, "chat", 2, "office-pc")) == \
        "continued on office-pc, from “chat”, turn 2"
    assert origin_text(ForkOrigin(3, None, None, None, "office-pc")) == \
        "continued on office-pc, from a deleted conversation, turn 3"
