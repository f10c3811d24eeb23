"""Help → Keyboard shortcuts names Send's keys as the composer does ("Ctrl+Enter"), and
filtering by "Enter" finds every shortcut that uses it."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QApplication

from turnlog.ui.dialogs.shortcuts import ShortcutsDialog, plain

pytest_plugins = ["uiwindow"]


def test_send_reads_ctrl_enter_and_the_filter_finds_enter(qtbot, make_window):
    window = make_window()
    [help_action] = [a for a in window.findChildren(QAction)
                     if plain(a.text()) == "Keyboard shortcuts"]
    help_action.trigger()
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), ShortcutsDialog),
                    timeout=3000)
    dialog = QApplication.activeModalWidget()
    listed = {(action, keys) for _group, action, keys in dialog.visible_rows()}
    assert ("Send", "Ctrl+Enter") in listed
    assert "Ctrl+Enter" in window.composer.edit.placeholderText()  # the same words
    assert not any("Return" in keys for _action, keys in listed)
    dialog.filter.setText("Enter")
    found = dialog.visible_rows()
    assert ("Send", "Ctrl+Enter") in {(action, keys) for _g, action, keys in found}
    assert all("enter" in f"{g} {a} {k}".lower() for g, a, k in found)
    dialog.reject()


def test_in_chinese_send_reads_ctrl_enter_and_the_filter_finds_it(qtbot, make_window):
    """Qt's own Chinese names Return 回车; the list keeps the word the composer, the keyboard
    and the English list use, so typing Enter finds Send in either language."""
    from PySide6.QtCore import QLocale

    from turnlog.ui.infra import languages

    languages.install("zh_CN")
    try:
        window = make_window()
        [help_action] = [a for a in window.findChildren(QAction)
                         if a.shortcut().toString() == "Ctrl+/"]
        help_action.trigger()
        qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), ShortcutsDialog),
                        timeout=3000)
        dialog = QApplication.activeModalWidget()
        send = plain(window.composer.send_button.text())
        listed = {(action, keys) for _group, action, keys in dialog.visible_rows()}
        assert (send, "Ctrl+Enter") in listed
        assert not any("回车" in keys for _action, keys in listed)
        dialog.filter.setText("Enter")
        assert (send, "Ctrl+Enter") in {(a, k) for _g, a, k in dialog.visible_rows()}
        dialog.reject()
    finally:
        languages.install(languages.ENGLISH)
        QLocale.setDefault(QLocale.c())
