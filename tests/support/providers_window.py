"""A window with the Providers page of Settings open."""

from __future__ import annotations

from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConnector
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.window import MainWindow


def open_window(qtbot, store, setup: ProviderSetup) -> MainWindow:
    window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys,
                                                               removed=setup.gone),
                        setup=setup)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    return window
