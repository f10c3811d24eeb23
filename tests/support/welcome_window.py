"""A window opened for the first time, with the provider set-up."""

from __future__ import annotations

from turnlog.config.profiles import ProfileStore
from turnlog.config.secrets import SessionKeys
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.infra.window_settings import window_settings
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.window import MainWindow


def make_setup_window(qtbot, store, loopback, turnlog_home, *,
                      through_setup: bool = False) -> MainWindow:
    """A window with provider set-up; its connector the loopback server's, or (with
    `through_setup`) the profile in use's, as the app makes it."""
    from turnlog.ui.request.connection import ProviderConnector
    from uihelpers import loopback_connector

    setup = ProviderSetup(ProfileStore(turnlog_home), window_settings(turnlog_home),
                          keyring=SessionKeys())
    connector = ProviderConnector(setup.config, setup.keys) if through_setup \
        else loopback_connector(loopback.base_url)
    window = MainWindow(store, TaskRunner(), connector, setup=setup)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    return window
