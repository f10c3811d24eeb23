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
