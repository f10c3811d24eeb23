"""The first minute, as a new user meets it: the welcome in the empty history (what the
marks mean, the built-in model or Settings), and a question typed with no conversation
open that Send — a click — starts, previewed first like any other request."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from loopback import Behaviour
from turnlog.config.profiles import ProfileStore
from turnlog.localmodel import Availability
from turnlog.ui.conversation.centre import FIRST_RUN_HINT, marks_words
from turnlog.ui.dialogs.settings import SettingsDialog
from welcome_window import make_setup_window

pytest_plugins = ["uiwindow"]

QUESTION = "How far is the Moon?"


def test_a_question_typed_with_nothing_open_is_previewed_and_a_click_sends_it(
        qtbot, make_window, store, loopback):
    window = make_window()
    assert window.conversation is None and store.conversations() == []
    assert window.centre.welcome.isVisible()
    assert "Type a question below to start a conversation" in window.empty_hint.text()
    assert not window.composer.send_button.isEnabled()  # nothing typed yet

    qtbot.keyClicks(window.composer.edit, QUESTION)
    window.refresh_preview()  # what the typing pause does
    composer = window.composer
    assert composer.send_button.isEnabled()
    assert composer.blocked_reason == "" and not composer.reason.isVisible()
    said = " ".join([composer.counter.text(), window.empty_hint.text(),
                     composer.send_button.toolTip()])
    assert "Open or start a conversation first" not in said
    assert "bytes" in composer.counter.text()
    # The inspector measures the first request, body and all.
    inspector = window.inspector
    assert "nothing to measure" not in inspector.bytes_label.text()
    assert inspector.bytes_label.text().startswith("Body: ")
    body = json.loads(inspector.body.toPlainText())
    assert body["messages"][-1] == {"role": "user", "content": QUESTION}
    assert body["model"] == "loopback-model"
    assert store.conversations() == []  # previewing stores nothing

    loopback.script(Behaviour.answer("About 384,400 km."))
    qtbot.mouseClick(composer.send_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1 and not window.running,
                    timeout=10_000)
    [conversation] = store.conversations()
    assert [t.question for t in store.turns(conversation.id)] == [QUESTION]
    assert loopback.requests[-1].json()["messages"] == body["messages"]  # as previewed
    assert not window.centre.welcome.isVisible() and not window.empty_hint.isVisible()


def test_the_welcome_explains_the_marks_and_offers_settings(qtbot, store, loopback,
                                                            turnlog_home):
    window = make_setup_window(qtbot, store, loopback, turnlog_home)
    try:
        welcome = window.centre.welcome
        assert welcome.isVisible()
        words = welcome.marks.text()
        assert words == marks_words()
        assert words.count(". ") + 1 == 2 and words.endswith(".")  # two sentences
        assert all(m in words for m in ("sent", "in summary", "not sent", "replaced"))
        assert window.empty_hint.text() == FIRST_RUN_HINT  # no provider yet
        assert welcome.builtin.isVisible() and welcome.settings.isVisible()

        welcome.settings.click()
        dialog = window.findChild(SettingsDialog)
        assert dialog is not None and dialog.isVisible()
        dialog.reject()

        # Edit → Preferences… by its shortcut, now that there is a provider set-up.
        window.activateWindow()
        qtbot.waitUntil(window.isActiveWindow, timeout=3000)
        window.view.setFocus()
        qtbot.keyClick(window.view, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
        qtbot.waitUntil(lambda: len([d for d in window.findChildren(SettingsDialog)
                                     if d.isVisible()]) == 1, timeout=3000)
        for shown in window.findChildren(SettingsDialog):
            shown.reject()
    finally:
        window.shutdown()


def test_the_welcome_turns_the_built_in_model_on(qtbot, store, loopback, turnlog_home,
                                                  monkeypatch):
    window = make_setup_window(qtbot, store, loopback, turnlog_home)
    try:
        welcome = window.centre.welcome
        missing = Availability(False, "The local model server is not installed (missing: "
                                      "llama_cpp).")
        monkeypatch.setattr("turnlog.config.profiles.available", lambda model_path=None: missing)
        welcome.builtin.click()
        assert welcome.note.isVisible() and "not installed" in welcome.note.text()
        assert ProfileStore(turnlog_home).list() == []

        monkeypatch.setattr("turnlog.config.profiles.available",
                            lambda model_path=None: Availability(True, ""))
        qtbot.mouseClick(welcome.builtin, Qt.MouseButton.LeftButton)
        [profile] = ProfileStore(turnlog_home).list()
        assert profile.builtin and window.setup.active().id == profile.id
        assert not welcome.builtin.isEnabled()
        assert welcome.builtin.text() == "The built-in model is in use"
        assert "Type a question below to start a conversation" in window.empty_hint.text()
        assert QApplication.focusWidget() is window.composer.edit

        window.composer.set_draft(QUESTION)
        window.refresh_preview()  # previewed against the built-in model, not yet started
        assert window.composer.send_button.isEnabled()
        # The first request is previewed with the model of the connection in use (this
        # test's connector is the loopback server's: nothing is started); a new
        # conversation names no model of its own that could outlive its profile.
        assert "model loopback-model" in window.inspector.endpoint.text()
        assert store.conversations() == []
    finally:
        window.shutdown()


def test_with_no_provider_the_question_waits_and_both_messages_say_settings(
        qtbot, store, loopback, turnlog_home):
    window = make_setup_window(qtbot, store, loopback, turnlog_home, through_setup=True)
    try:
        window.composer.edit.setFocus()
        qtbot.keyClicks(window.composer.edit, QUESTION)
        window.refresh_preview()
        composer = window.composer
        assert not composer.send_button.isEnabled()
        assert "Settings" in composer.reason.text() and composer.reason.isVisible()
        assert "Settings" in window.empty_hint.text()  # the history's hint agrees
        qtbot.keyClick(composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        qtbot.wait(300)
        assert store.conversations() == []  # no empty conversation it could not send
        assert composer.text() == QUESTION
    finally:
        window.shutdown()
