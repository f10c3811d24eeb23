"""A window with the Side questions panel, and waiting for a side answer."""

from __future__ import annotations

from turnlog.ui.shell.window import MainWindow
from uihelpers import seed


def open_window(qtbot, make_window, store, pairs) -> tuple[MainWindow, int]:
    conversation = seed(store, "计划 plans", pairs)
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == len(pairs), timeout=5000)
    qtbot.waitUntil(lambda: window.side.shown_for == conversation.id, timeout=5000)
    return window, conversation.id


def wait_side(qtbot, window: MainWindow, timeout: int = 10_000) -> None:
    qtbot.waitUntil(lambda: not window.side.session.running, timeout=timeout)
