"""A window whose conversations are named after their first question."""

from __future__ import annotations

from dataclasses import replace

from turnlog.config.profiles import ProfileStore, new_profile
from turnlog.config.secrets import SessionKeys
from turnlog.providers import CUSTOM
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.infra.window_settings import window_settings
from turnlog.ui.request.connection import ProviderConnector
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.window import MainWindow


def titled_window(qtbot, store, turnlog_home, loopback, *, model_titles: bool | None):
    profiles = ProfileStore(turnlog_home)
    profile = new_profile(CUSTOM, model="loopback-model", base_url=loopback.base_url)
    profiles.put(replace(profile, model_titles=model_titles))
    setup = ProviderSetup(profiles, window_settings(turnlog_home), keyring=SessionKeys())
    window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                        setup=setup)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    return window
