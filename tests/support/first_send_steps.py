"""Sending a first question with no conversation open."""

from __future__ import annotations

from PySide6.QtCore import Qt

QUESTION = "Où est la gare ? 火车站在哪里？\nAnd the last train"


def send_with_nothing_open(qtbot, window, text: str = QUESTION) -> None:
    assert window.conversation is None
    window.composer.set_draft(text, 4)
    window.refresh_preview()
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
