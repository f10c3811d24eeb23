"""The steps every screenshot support takes: run as a script, as the parent that starts a
child per language or as that child (`run_script`); in the child, start the app in a
language (as View → Language leaves it), let the event loop turn, wait for the window to be
ready, and close it. Qt is imported only in the child."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication


def run_script(parent: Callable[[Path], int], child: Callable[[Path, str], int],
               default: Path, variable: str) -> NoReturn:
    """The support run as a script: the pictures go to the first argument (else `default`);
    the parent when `variable` is not set, the child for its language when it is."""
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else default
    language = os.environ.get(variable)
    sys.exit(child(target, language) if language else parent(target))


def settle(ms: int = 300) -> None:
    """Let the event loop run for `ms` milliseconds (layouts, timers, paints)."""
    from PySide6.QtCore import QEventLoop, QTimer

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


def close_down(window, store) -> None:
    """The window shut down as on quitting (its work finished), closed, and its store."""
    window.shutdown()
    window.close()
    store.close()


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
