"""The steps every screenshot child process takes: start the app in a language (as View →
Language leaves it), let the event loop turn, and wait for the window to be ready.
Imported inside a child (it imports Qt; the parent that starts the children does not)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEventLoop, QSettings, QTimer
from PySide6.QtWidgets import QApplication


def settle(ms: int = 300) -> None:
    """Let the event loop run for `ms` milliseconds (layouts, timers, paints)."""
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


def until(condition: Callable[[], object], timeout_s: float = 60.0) -> None:
    """Turn the event loop until `condition()` holds; a child that waits longer than
    `timeout_s` stops, saying so."""
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit("timed out waiting for the window")
        settle(20)


def start_in(language: str) -> tuple[Path, QSettings, QApplication]:
    """The application on this data directory ($TURNLOG_HOME), speaking `language` ("en",
    "zh_CN", "zh_TW") as the start does once View → Language chose it: the data directory,
    its window settings and the application."""
    from turnlog.app import application
    from turnlog.config.paths import data_dir
    from turnlog.ui.infra.languages import SETTING, install_for
    from turnlog.ui.infra.window_settings import window_settings

    home = data_dir()
    remembered = window_settings(home)
    if language != "en":
        remembered.setValue(SETTING, language)
        remembered.sync()
    app = application(["turnlog"])
    install_for(home)
    return home, remembered, app
