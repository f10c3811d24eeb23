"""Titles in the window (real widgets, a real store, the loopback server): New opens a
conversation at once, its first answered question names it; a rename sticks across a
delete of the first turn, a derived title is made again from the new first turn; the
model's title, where the profile asks for one, comes after the answer as a request of its
own and never when the setting is off."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QInputDialog

from loopback import Behaviour
from titled_windows import titled_window
from turnlog.config.profiles import ProfileStore
from turnlog.core.titles import MODEL, QUESTION, TITLE_INSTRUCTION, TITLE_OUTCOME, USER
from turnlog.ui.dialogs.privacy import Decision
from turnlog.ui.shell.window import MainWindow

pytest_plugins = ["uiwindow"]

ENGLISH = "Why does my Kubernetes deployment keep restarting every few minutes?\nLogs below"
CHINESE = ("请帮我解释一下为什么在分布式系统中一致性、可用性和分区容错性"
           "三者不能同时满足，并举一个例子")


def listed(window: MainWindow) -> list[str]:
    model = window.sidebar.model
    return [model.data(model.index(row)) for row in range(model.rowCount())]


def ask(qtbot, window: MainWindow, text: str, turns: int) -> None:
    window.composer.set_draft(text, len(text))
    window.refresh_preview()
    window.send()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == turns and not window.running,
                    timeout=10_000)


def open_new(qtbot, window: MainWindow) -> None:
    before = window.conversation.id if window.conversation else None
    window.new_conversation()
    qtbot.waitUntil(lambda: window.conversation is not None
                    and window.conversation.id != before, timeout=5000)
    assert QApplication.activeModalWidget() is None  # no title was asked for


def test_new_opens_at_once_and_the_first_question_names_it(qtbot, make_window, loopback,
                                                           store):
    window = make_window()
    open_new(qtbot, window)
    assert window.title.text() == "New conversation"
    assert listed(window) == ["New conversation"]
    window.new_conversation()  # the open one is still new: no second empty one
    qtbot.wait(100)
    assert len(store.conversations()) == 1

    loopback.script(Behaviour.answer("Check the liveness probe."),
                    Behaviour.answer("CAP: 一致性、可用性、分区容错性。"))
    ask(qtbot, window, ENGLISH, 1)
    english = "Why does my Kubernetes deployment keep…"
    qtbot.waitUntil(lambda: window.title.text() == english, timeout=5000)
    assert listed(window) == [english]
    assert store.conversations.get(window.conversation.id).title_source == QUESTION

    open_new(qtbot, window)
    ask(qtbot, window, CHINESE, 1)
    chinese = CHINESE[:40] + "…"
    qtbot.waitUntil(lambda: window.title.text() == chinese, timeout=5000)
    assert listed(window) == [chinese, english]
    assert len(loopback.requests) == 2  # no title request: the setting is off here


def test_a_rename_sticks_across_a_delete_of_the_first_turn_and_a_derived_title_follows(
        qtbot, make_window, loopback, store):
    loopback.script(*(Behaviour.answer(f"answer {n}") for n in range(4)))
    window = make_window()
    window.confirm = lambda confirmation: Decision(True)
    for question in (ENGLISH, "Second: 第二个问题"):
        open_new(qtbot, window)
        ask(qtbot, window, question, 1)
        ask(qtbot, window, f"Follow-up to {question[:6]}", 2)
    renamed, derived = store.conversations()[1], store.conversations()[0]

    def answer_dialog(text: str) -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QInputDialog)
        dialog.setTextValue(text)
        dialog.accept()

    window.refresh_conversations(select_id=renamed.id)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
    QTimer.singleShot(0, lambda: answer_dialog("Pods restarting"))
    window.rename_conversation(window.conversation)
    qtbot.waitUntil(lambda: window.title.text() == "Pods restarting", timeout=5000)
    window.history.delete_turn(window.transcript.turns[0].id)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    qtbot.wait(100)
    assert window.title.text() == "Pods restarting"
    assert store.conversations.get(renamed.id).title_source == USER

    window.refresh_conversations(select_id=derived.id)
    qtbot.waitUntil(lambda: window.title.text() == "Second: 第二个问题", timeout=5000)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
    window.history.delete_turn(window.transcript.turns[0].id)
    qtbot.waitUntil(lambda: window.title.text() == "Follow-up to Second", timeout=5000)
    assert "Follow-up to Second" in listed(window)
    window.history.delete_turn(window.transcript.turns[0].id)
    qtbot.waitUntil(lambda: window.title.text() == "New conversation", timeout=5000)


def test_the_model_names_the_conversation_after_the_answer_with_a_request_of_its_own(
        qtbot, store, turnlog_home, loopback):
    # The title request is slow: the chat's answer must show before it ends.
    loopback.script(Behaviour.answer("Check the liveness probe."),
                    Behaviour.answer("“Restarting pods.”", delay_s=0.6))
    window = titled_window(qtbot, store, turnlog_home, loopback, model_titles=True)
    try:
        open_new(qtbot, window)
        ask(qtbot, window, ENGLISH, 1)
        assert window.transcript.turns[0].answer == "Check the liveness probe."
        derived = "Why does my Kubernetes deployment keep…"
        qtbot.waitUntil(lambda: window.title.text() == derived, timeout=5000)
        assert window.titles.naming  # the answer is on show; the title is still coming
        assert window.composer.edit.isEnabled() and not window.running
        qtbot.waitUntil(lambda: window.title.text() == "Restarting pods", timeout=10_000)
        assert listed(window) == ["Restarting pods"]
        [chat, title] = loopback.requests
        body = json.loads(title.body)
        assert body["messages"][0]["content"] == TITLE_INSTRUCTION
        assert ENGLISH in body["messages"][1]["content"]
        assert json.loads(chat.body)["messages"][-1]["content"] == ENGLISH
        conversation = store.conversations.get(window.conversation.id)
        assert conversation.title_source == MODEL
        outcomes = [r.outcome for r in store.records.of(conversation.id)]
        assert outcomes == ["committed", TITLE_OUTCOME]

        loopback.script(Behaviour.answer("Then look at the events."))
        ask(qtbot, window, "And then?", 2)
        qtbot.wait(200)
        assert len(loopback.requests) == 3  # named once
        assert window.title.text() == "Restarting pods"
    finally:
        window.shutdown()


@pytest.mark.parametrize("model_titles", [False, None])
def test_no_title_request_when_the_setting_is_off(qtbot, store, turnlog_home, loopback,
                                                   model_titles):
    loopback.script(Behaviour.answer("Check the liveness probe."))
    window = titled_window(qtbot, store, turnlog_home, loopback, model_titles=model_titles)
    try:
        open_new(qtbot, window)
        ask(qtbot, window, ENGLISH, 1)
        qtbot.waitUntil(lambda: window.title.text().startswith("Why does"), timeout=5000)
        qtbot.wait(300)
        assert len(loopback.requests) == 1 and not window.titles.naming
    finally:
        window.shutdown()


def test_a_failed_title_request_is_silent_for_the_chat(qtbot, store, turnlog_home, loopback):
    loopback.script(Behaviour.answer("Check the liveness probe."),
                    Behaviour.server_error())
    window = titled_window(qtbot, store, turnlog_home, loopback, model_titles=True)
    try:
        open_new(qtbot, window)
        ask(qtbot, window, ENGLISH, 1)
        qtbot.waitUntil(lambda: len(loopback.requests) == 2 and not window.titles.naming,
                        timeout=10_000)
        qtbot.wait(100)
        assert not window.banner.isVisible()
        assert window.title.text() == "Why does my Kubernetes deployment keep…"
        outcomes = [r.outcome for r in store.records.of(window.conversation.id)]
        assert outcomes == ["committed", f"{TITLE_OUTCOME} http_status"]
    finally:
        window.shutdown()


@pytest.mark.parametrize(("question", "reply", "kept"), [
    ("What is the capital of France?", "A just title, but no actual answer",
     "What is the capital of France?"),
    ("Name three colors.", "Two of the most common mistakes in writing is using a word "
     "that sounds right but is not", "Name three colors."),
    ("你好，介绍一下你自己", "Hi Kaiji,", "你好，介绍一下你自己"),
])
def test_a_model_title_that_does_not_name_the_question_is_not_kept(
        qtbot, store, turnlog_home, loopback, question, reply, kept):
    loopback.script(Behaviour.answer("Paris."), Behaviour.answer(reply))
    window = titled_window(qtbot, store, turnlog_home, loopback, model_titles=True)
    try:
        open_new(qtbot, window)
        ask(qtbot, window, question, 1)
        qtbot.waitUntil(lambda: len(loopback.requests) == 2 and not window.titles.naming,
                        timeout=10_000)
        qtbot.wait(100)
        assert window.title.text() == kept and listed(window) == [kept]
        conversation = store.conversations.get(window.conversation.id)
        assert conversation.title_source == QUESTION
        outcomes = [r.outcome for r in store.records.of(conversation.id)]
        assert outcomes == ["committed", f"{TITLE_OUTCOME} implausible"]
    finally:
        window.shutdown()


def test_settings_turns_model_titles_on_and_off_per_profile(qtbot, store, turnlog_home,
                                                            loopback):
    window = titled_window(qtbot, store, turnlog_home, loopback, model_titles=None)
    try:
        dialog = window.open_settings()
        editor = dialog.providers.edit_selected()
        assert not editor.model_titles.isChecked()  # off by default for a remote server
        editor.reject()
        builtin = dialog.providers.add_profile("builtin")
        # Off for the built-in model too: too small a model to name a conversation well.
        assert not builtin.model_titles.isChecked()
        builtin.reject()
        editor = dialog.providers.add_profile("custom")
        assert not editor.model_titles.isChecked()
        editor.preset.setCurrentIndex(editor.preset.findData("builtin"))
        assert not editor.model_titles.isChecked()
        editor.reject()
        editor = dialog.providers.edit_selected()
        editor.model_titles.setChecked(True)
        editor.buttons.accepted.emit()
        qtbot.waitUntil(lambda: not editor.isVisible(), timeout=5000)
        [profile] = ProfileStore(turnlog_home).load()
        assert profile.model_titles is True and profile.makes_titles
        assert window.titles.model_names()
        dialog.reject()
    finally:
        window.shutdown()


def test_a_send_goes_first_and_the_title_is_asked_again_after_its_answer(
        qtbot, store, turnlog_home, loopback):
    loopback.script(Behaviour.answer("Check the liveness probe."), Behaviour.hang(),
                    Behaviour.answer("Then the events."), Behaviour.answer("Restarting pods"))
    window = titled_window(qtbot, store, turnlog_home, loopback, model_titles=True)
    try:
        open_new(qtbot, window)
        ask(qtbot, window, ENGLISH, 1)
        qtbot.waitUntil(lambda: len(loopback.requests) == 2 and window.titles.naming,
                        timeout=5000)  # the title request hangs
        window.composer.set_draft("And then?", 9)
        window.refresh_preview()
        window.send()  # the chat goes first: the hanging title request is stopped
        qtbot.waitUntil(lambda: len(window.transcript.turns) == 2 and not window.running,
                        timeout=5000)
        assert window.transcript.turns[-1].answer == "Then the events."
        qtbot.waitUntil(lambda: window.title.text() == "Restarting pods", timeout=10_000)
        bodies = [r.json() for r in loopback.requests]
        assert [b["messages"][0]["content"] == TITLE_INSTRUCTION for b in bodies] == [
            False, True, False, True]
        assert ENGLISH in bodies[3]["messages"][1]["content"]  # from the first turn again
        outcomes = [r.outcome for r in store.records.of(window.conversation.id)]
        assert outcomes == ["committed", f"{TITLE_OUTCOME} cancelled", "committed",
                            TITLE_OUTCOME]
    finally:
        window.shutdown()
