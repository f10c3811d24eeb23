"""Settings → Providers as a newcomer meets it: the built-in profile's key reads "no key
needed" at once (it needs none; nothing to check)."""

from __future__ import annotations

from test_ui_providers import open_window
from turnlog.profiles import ProfileStore, builtin_profile
from turnlog.secrets import SessionKeys
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.window import window_settings

pytest_plugins = ["uiwindow"]


def builtin_only(qtbot, store, turnlog_home):
    profiles = ProfileStore()
    profiles.save([builtin_profile()], builtin_offered=True)
    setup = ProviderSetup(profiles, window_settings(turnlog_home), keyring=SessionKeys())
    return open_window(qtbot, store, setup)


def test_the_built_in_profile_needs_no_key_and_never_reads_checking(qtbot, store,
                                                                     turnlog_home):
    window = builtin_only(qtbot, store, turnlog_home)
    try:
        dialog = window.open_settings()
        entry = dialog.providers.list.item(0).text()
        assert "no key needed" in entry and "checking" not in entry
        qtbot.wait(300)  # and it stays so: nothing is being asked
        assert "no key needed" in dialog.providers.list.item(0).text()
        dialog.reject()
    finally:
        window.shutdown()
