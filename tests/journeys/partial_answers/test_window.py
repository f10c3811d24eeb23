"""Partial answers in the window, against the loopback server: after Stop, a cut stream,
`length` or no finish reason, the banner shows the answer so far with *Keep as an
incomplete turn* and *Continue*; nothing is saved until one is clicked."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

from PySide6.QtCore import Qt

from first_send_steps import send_with_nothing_open
from loopback import Behaviour
from partial_clicks import click_button, offered
from turnlog.config.profiles import NetworkSettings
from turnlog.core.partial import CONTINUE_PROMPT
from turnlog.providers import CUSTOM
from turnlog.store.drafts import NO_CONVERSATION, draft_path
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConfig, ProviderConnector
from turnlog.ui.shell.window import MainWindow
from turnlog.ui.transcript.model import Role
from uihelpers import exported, numbered
from version_clicks import click, last_row
from window_sending import open_window, type_draft, wait_done

pytest_plugins = ["uiwindow"]

QUESTION = "Erkläre 量子纠缠 kurz 🙂"


def show(home) -> str:
    """`turnlog-cli show 1` in another process: what is on disk."""
    return subprocess.run(
        [sys.executable, "-c", "import sys; from turnlog.cli import main; sys.exit(main())",
         "show", "1"], env={**os.environ, "TURNLOG_HOME": str(home)}, capture_output=True,
        text=True, timeout=60, check=True).stdout


def header_words(window: MainWindow, row: int) -> dict[str, str]:
    from PySide6.QtWidgets import QStyleOptionViewItem
    view, index = window.view, window.transcript.index(row)
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.rect = view.visualRect(index)
    return {name: text for name, text, _rect in view.delegate.header_controls(option, index)}


def fail_with(qtbot, window: MainWindow, behaviour: Behaviour, loopback) -> None:
    loopback.script(behaviour)
    type_draft(window, QUESTION, 3)
    window.send()
    wait_done(qtbot, window)


def test_stop_then_keep_makes_a_turn_marked_incomplete(qtbot, make_window, store, loopback,
                                                       turnlog_home):
    window, cid = open_window(qtbot, make_window, store, numbered(2))
    before = exported(turnlog_home, cid)
    loopback.script(Behaviour.hang(after_chunks=2, text="Thinking about it slowly"))
    type_draft(window, QUESTION, 3)
    window.send()
    qtbot.waitUntil(lambda: window.transcript.pending is not None
                    and window.transcript.pending.answer != "", timeout=5000)
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Escape)
    wait_done(qtbot, window, timeout=3000)
    partial = window.banner.partial.toPlainText()
    assert window.banner.title.text() == "Stopped" and partial
    assert offered(window)
    assert window.composer.text() == QUESTION
    assert exported(turnlog_home, cid) == before  # nothing kept before the click

    click_button(qtbot, window.banner.keep_button)
    qtbot.waitUntil(lambda: window.transcript.rowCount() == 3, timeout=5000)
    row = last_row(window)
    index = window.transcript.index(row)
    assert (index.data(Role.QUESTION), index.data(Role.ANSWER)) == (QUESTION, partial)
    assert index.data(Role.INCOMPLETE) == "stopped"
    words = header_words(window, row)
    assert words["incomplete"] == "incomplete (stopped)" and "continue" in words
    assert "incomplete (stopped)" in index.data(Qt.ItemDataRole.AccessibleTextRole)
    assert not window.banner.isVisible()
    assert window.composer.text() == ""  # the question is in the log now
    assert "## turn 3" in show(turnlog_home)
    assert "(*incomplete (stopped)*)" in show(turnlog_home)
    assert store.turns(cid)[-1].incomplete == "stopped"

    # Projected like any turn: the next request carries it, and says so in the inspector.
    loopback.script(Behaviour.answer("Noted."))
    type_draft(window, "Und weiter?", 0)
    window.send()
    wait_done(qtbot, window)
    messages = loopback.requests[-1].json()["messages"]
    assert messages[-3:] == [{"role": "user", "content": QUESTION},
                             {"role": "assistant", "content": partial},
                             {"role": "user", "content": "Und weiter?"}]
    names = [window.inspector.parts.item(r, 0).text()
             for r in range(window.inspector.parts.rowCount())]
    assert "turn 3 (question + answer), incomplete (stopped)" in names
    assert "turn 2 (question + answer)" in names


def test_continue_without_prefill_commits_one_turn_of_the_whole_answer(
        qtbot, make_window, store, loopback, turnlog_home):
    window, cid = open_window(qtbot, make_window, store, numbered(1))
    fail_with(qtbot, window, Behaviour.length("Teil eins, 第一部分，"), loopback)
    assert offered(window)
    assert "cut off at the output limit" in window.banner.report()
    loopback.script(Behaviour.slow("und Teil zwei. 第二部分。", delay_s=0.05, chunks=4))
    click_button(qtbot, window.banner.continue_button)
    assert window.running and not window.banner.isVisible()
    assert window.transcript.pending.answer.startswith("Teil eins, 第一部分，")
    wait_done(qtbot, window)
    first = numbered(1)[0]
    assert loopback.requests[-1].json()["messages"] == [
        {"role": "user", "content": first[0]}, {"role": "assistant", "content": first[1]},
        {"role": "user", "content": QUESTION},
        {"role": "assistant", "content": "Teil eins, 第一部分，"},
        {"role": "user", "content": CONTINUE_PROMPT}]
    turns = store.turns(cid)
    assert len(turns) == 2 and turns[-1].incomplete is None
    assert (turns[-1].question, turns[-1].answer) == (
        QUESTION, "Teil eins, 第一部分，und Teil zwei. 第二部分。")
    assert [t.answer for t in window.transcript.turns] == [t.answer for t in turns]
    assert window.composer.text() == "" and not window.banner.isVisible()
    assert "incomplete" not in show(turnlog_home)


def test_continue_with_prefill_sends_the_answer_as_the_start_of_the_reply(
        qtbot, store, loopback):
    config = ProviderConfig("loopback", "Loopback", replace(CUSTOM, prefill=True),
                            loopback.base_url, "loopback-model",
                            network=NetworkSettings(retry=False))
    from uihelpers import seed
    conversation = seed(store, "chat", [])
    window = MainWindow(store, TaskRunner(), ProviderConnector(lambda: config, lambda: None))
    qtbot.addWidget(window)
    window.show()
    try:
        qtbot.waitUntil(lambda: window.conversation is not None, timeout=5000)
        fail_with(qtbot, window, Behaviour.no_finish_reason("The answer is"), loopback)
        assert "did not say it was finished" in window.banner.title.text()
        assert offered(window)
        loopback.script(Behaviour.answer(" 42."))
        click_button(qtbot, window.banner.continue_button)
        wait_done(qtbot, window)
        assert loopback.requests[-1].json()["messages"] == [
            {"role": "user", "content": QUESTION},
            {"role": "assistant", "content": "The answer is"}]
        [turn] = store.turns(conversation.id)
        assert turn.answer == "The answer is 42." and turn.incomplete is None
    finally:
        window.shutdown()


def test_continue_after_keep_makes_a_new_version_and_keeps_the_kept_turn(
        qtbot, make_window, store, loopback):
    window, cid = open_window(qtbot, make_window, store, numbered(1))
    fail_with(qtbot, window, Behaviour.cut("Half of the story", after_chunks=2), loopback)
    click_button(qtbot, window.banner.keep_button)
    qtbot.waitUntil(lambda: window.transcript.rowCount() == 2, timeout=5000)
    kept = store.turns(cid)[-1]
    assert kept.incomplete == "cut"
    kept_row = store.db.execute_sql("SELECT * FROM turns WHERE id = ?", (kept.id,)).fetchall()
    assert header_words(window, 1)["incomplete"] == "incomplete (the stream was cut)"

    loopback.script(Behaviour.answer(" and the rest of it."))
    click(qtbot, window, 1, "continue")
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: window.transcript.index(1).data(Role.VERSION) == (2, 2),
                    timeout=5000)
    messages = [m["content"] for m in loopback.requests[-1].json()["messages"]]
    assert messages == [*numbered(1)[0], QUESTION, kept.answer, CONTINUE_PROMPT]
    line = store.turns(cid)
    assert line[-1].answer == kept.answer + " and the rest of it."
    assert line[-1].incomplete is None
    assert store.turns.versions(cid).replaced_by == {kept.id: line[-1].id}
    assert store.db.execute_sql("SELECT * FROM turns WHERE id = ?",
                                (kept.id,)).fetchall() == kept_row
    assert window.transcript.index(1).data(Role.INCOMPLETE) is None  # the version in use


def test_a_failed_continue_offers_the_longer_answer_and_saves_nothing(
        qtbot, make_window, store, loopback, turnlog_home):
    window, cid = open_window(qtbot, make_window, store, numbered(1))
    fail_with(qtbot, window, Behaviour.length("One, two,"), loopback)
    before = exported(turnlog_home, cid)
    loopback.script(Behaviour.cut(" three, four, five, six", after_chunks=2, chunks=4))
    click_button(qtbot, window.banner.continue_button)
    wait_done(qtbot, window)
    assert window.banner.partial.toPlainText().startswith("One, two, three,")
    assert offered(window)
    assert window.composer.text() == QUESTION
    assert window.transcript.rowCount() == 1
    assert exported(turnlog_home, cid) == before

    click_button(qtbot, window.banner.keep_button)  # the longer answer, kept
    qtbot.waitUntil(lambda: len(store.turns(cid)) == 2, timeout=5000)
    # … and in the window once the write's answer lands on the GUI thread (after the store)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
    assert store.turns(cid)[-1].answer == window.transcript.turns[-1].answer
    assert store.turns(cid)[-1].answer.startswith("One, two, three,")
    assert store.turns(cid)[-1].incomplete == "cut"


def test_a_first_send_stopped_early_can_be_kept_in_its_conversation(
        qtbot, make_window, store, loopback, turnlog_home):
    loopback.script(Behaviour.length("Tout droit,"))
    window = make_window()
    send_with_nothing_open(qtbot, window, QUESTION)
    qtbot.waitUntil(lambda: not window.running and window.banner.isVisible()
                    and len(loopback.requests) == 1, timeout=10_000)
    assert offered(window)
    [conversation] = store.conversations()  # kept while its answer is offered
    assert store.turns(conversation.id) == ()
    click_button(qtbot, window.banner.keep_button)
    qtbot.waitUntil(lambda: window.transcript.rowCount() == 1, timeout=5000)
    assert [(t.answer, t.incomplete) for t in store.turns(conversation.id)] == [
        ("Tout droit,", "length")]
    assert window.composer.text() == ""
    # The question is in the log: no draft of it stays to come back in an empty composer.
    qtbot.waitUntil(lambda: not draft_path(turnlog_home, NO_CONVERSATION).exists()
                    and not draft_path(turnlog_home, conversation.id).exists(), timeout=3000)


def test_keep_in_a_new_conversation_shows_its_title_and_no_hint_over_the_turn(
        qtbot, make_window, store, loopback):
    loopback.script(Behaviour.length("Tout droit,"))
    window = make_window()
    send_with_nothing_open(qtbot, window, QUESTION)
    qtbot.waitUntil(lambda: not window.running and offered(window), timeout=10_000)
    assert window.title.text() == "New conversation"
    click_button(qtbot, window.banner.keep_button)
    qtbot.waitUntil(lambda: window.transcript.rowCount() == 1, timeout=5000)
    [conversation] = store.conversations()
    assert conversation.title == QUESTION  # titled after its first question, on disk
    qtbot.waitUntil(lambda: window.title.text() == QUESTION, timeout=3000)  # the header
    assert [c.title for c in window.sidebar.model.items] == [QUESTION]  # the list
    assert window.conversation.title == QUESTION
    assert not window.empty_hint.isVisible()  # no "No turns yet" under turn 1
    assert window.statusBar().currentMessage() == "Kept as turn 1, marked incomplete."


def test_dismissing_a_first_send_s_offer_leaves_no_conversation(
        qtbot, make_window, store, loopback):
    loopback.script(Behaviour.length("Tout droit,"))
    window = make_window()
    send_with_nothing_open(qtbot, window, QUESTION)
    qtbot.waitUntil(lambda: not window.running and offered(window), timeout=10_000)
    click_button(qtbot, window.banner.close_button)
    qtbot.waitUntil(lambda: store.conversations() == [], timeout=5000)
    assert window.composer.text() == QUESTION


def test_keep_refused_after_a_delete_meanwhile_says_so_and_keeps_offering(
        qtbot, make_window, store, loopback, turnlog_home):
    window, cid = open_window(qtbot, make_window, store, numbered(2))
    fail_with(qtbot, window, Behaviour.length("Bis hierhin"), loopback)
    store.privacy.delete_turn(store.turns(cid)[0].id)  # another process deletes a turn meanwhile
    before = exported(turnlog_home, cid)
    click_button(qtbot, window.banner.keep_button)
    qtbot.waitUntil(lambda: window.banner.title.text() == "The answer so far was not kept",
                    timeout=5000)
    assert "deleted" in window.banner.report()
    assert window.banner.partial.toPlainText() == "Bis hierhin" and offered(window)
    assert window.composer.text() == QUESTION
    assert exported(turnlog_home, cid) == before
