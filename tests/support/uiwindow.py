"""Fixtures for the window tests (a pytest plugin): a real store in the test's data
directory and a window wired to the loopback server."""

from __future__ import annotations

import pytest

from turnlog.store import TurnlogStore
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.shell.window import MainWindow
from uihelpers import loopback_connector


@pytest.fixture
def store(turnlog_home):
    opened = TurnlogStore.open(turnlog_home)
    yield opened
    opened.close()


@pytest.fixture
def make_window(qtbot, store, loopback):
    made: list[MainWindow] = []

    def make(*, read_timeout_s: float | None = None, size: tuple[int, int] = (1280, 720),
             retry: bool = False, preset=None) -> MainWindow:
        connector = loopback_connector(loopback.base_url, read_timeout_s=read_timeout_s,
                                       retry=retry, preset=preset)
        window = MainWindow(store, TaskRunner(), connector)
        qtbot.addWidget(window)
        window.resize(*size)
        window.show()
        made.append(window)
        return window

    yield make
    for window in made:
        window.shutdown()
