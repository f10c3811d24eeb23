"""Fit and finish in the window (real widgets, the loopback server): the retry line counts
down one number; the legend uses the badges' words; a refused key's banner opens Settings;
delete questions say what happens to the text in plain words; the key question after
Delete all history reads plainly; Help → Keyboard shortcuts lists every shortcut."""

from __future__ import annotations

import re

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication, QLabel

from loopback import Behaviour
from titled_windows import titled_window
from turnlog.store.deletion import DeletionCounts
from turnlog.ui.dialogs.privacy import (
    delete_all_question,
    delete_conversation_question,
    delete_turn_question,
)
from turnlog.ui.dialogs.settings import SettingsDialog
from turnlog.ui.dialogs.shortcuts import ShortcutsDialog, keys_of, plain
from turnlog.ui.transcript.model import Role
from uihelpers import numbered
from window_sending import open_window, type_draft, wait_done

pytest_plugins = ["uiwindow"]


def test_the_retry_line_counts_down_one_number(qtbot, make_window, store, loopback):
    window, _ = open_window(qtbot, make_window, store, numbered(1), retry=True)
    loopback.script(Behaviour.rate_limited("3"), Behaviour.answer("Patience pays"))
    seen: list[str] = []
    window.session.status.connect(seen.append)
    type_draft(window)
    window.send()
    wait_done(qtbot, window, timeout=15_000)
    waiting = [line for line in seen if line.startswith("Retrying")]
    assert waiting and all(re.fullmatch(r"Retrying in \d s \(attempt 2 of 3\)…", line)
                           for line in waiting), waiting  # one number, no clock beside it
    counted = [int(line.split()[2]) for line in dict.fromkeys(waiting)]
    assert counted == [3, 2, 1]  # down once a second, never up
    assert window.transcript.turns[-1].answer == "Patience pays"


def test_the_legend_names_every_badge_in_its_own_words(qtbot, make_window, store, loopback):
    window, _ = open_window(qtbot, make_window, store, numbered(2))
    loopback.script(Behaviour.answer("Answered"))
    type_draft(window, "One more")
    window.send()
    wait_done(qtbot, window)
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 3)
    legend = {label.text() for label in window.legend.findChildren(QLabel)}
    model = window.transcript
    badges = {model.index(r).data(Role.MARK).label for r in range(model.rowCount())}
    assert "just asked" in badges and "sent" in badges
    assert badges <= legend
    assert not any("this time" in words for words in legend | badges)


def test_a_refused_key_offers_open_settings(qtbot, store, turnlog_home, loopback):
    window = titled_window(qtbot, store, turnlog_home, loopback, model_titles=False)
    try:
        loopback.script(Behaviour.unauthorized())
        window.new_conversation()
        qtbot.waitUntil(lambda: window.conversation is not None, timeout=5000)
        type_draft(window, "Hello?")
        window.send()
        wait_done(qtbot, window)
        button = window.banner.action("Open Settings…")
        assert window.banner.isVisible() and button is not None
        qtbot.waitUntil(button.isVisible, timeout=2000)
        button.click()
        qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), SettingsDialog),
                        timeout=3000)
        QApplication.activeModalWidget().reject()

        loopback.script(Behaviour.server_error())  # not a key problem: no such button
        window.send()
        wait_done(qtbot, window)
        assert window.banner.isVisible() and window.banner.action("Open Settings…") is None
    finally:
        window.shutdown()


def test_delete_questions_say_what_happens_to_the_text_in_plain_words():
    counts = DeletionCounts(1, 3, 1, 2)
    questions = [delete_conversation_question("Trip 旅行", counts),
                 delete_turn_question(2, counts),
                 delete_all_question(counts, ["Work"], "GNOME Keyring")]
    for question in questions:
        words = f"{question.text} {question.detail}"
        assert "erased from the disk, not only hidden" in words
        for jargon in ("secure delete", "write-ahead", "VACUUM", "WAL"):
            assert jargon not in words


def test_the_key_question_of_delete_all_reads_plainly():
    counts = DeletionCounts(1, 3, 1, 2)
    memory = delete_all_question(counts, ["Work", "Home"], None).option
    assert memory == ("Also forget the API keys of 2 provider profiles (Work, Home), which "
                      "Turnlog keeps in memory until it quits")
    assert "session only" not in memory and "(not saved)" not in memory
    saved = delete_all_question(counts, ["Work"], "GNOME Keyring").option
    assert saved == "Also remove the API keys of 1 provider profile (Work) from GNOME Keyring"


def test_keyboard_shortcuts_lists_every_shortcut_of_the_window(qtbot, make_window):
    window = make_window()
    [help_action] = [a for a in window.findChildren(QAction)
                     if plain(a.text()) == "Keyboard shortcuts"]
    help_action.trigger()
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), ShortcutsDialog),
                    timeout=3000)
    dialog = QApplication.activeModalWidget()
    rows = dialog.visible_rows()
    listed = {(action, keys) for _group, action, keys in rows}
    with_keys = [a for a in window.findChildren(QAction) if keys_of(a.shortcuts())]
    assert len(with_keys) > 15
    for action in with_keys:
        assert (plain(action.text()) or action.toolTip(), keys_of(action.shortcuts())) in listed
    groups = [group for group, _action, _keys in rows]
    assert groups.index("File") < groups.index("Edit") < groups.index("Help")
    assert ("Send", "Ctrl+Enter") in listed  # a button's own shortcut
    assert ("File", "New conversation", "Ctrl+N") in rows
    assert ("Help", "Keyboard shortcuts", "Ctrl+/") in rows

    dialog.filter.setText("ctrl+i")
    assert [row[1] for row in dialog.visible_rows()] == ["Inspector"]
    dialog.filter.setText("copy")
    assert all("copy" in f"{g} {a}".lower() for g, a, _k in dialog.visible_rows())
    dialog.reject()
