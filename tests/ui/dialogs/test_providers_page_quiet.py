"""Settings → Providers as a newcomer meets it: the built-in profile's key reads "no key
needed" at once (it needs none; nothing to check), and the Custom provider editor opens
without a red error before anything is typed (Save waits all the same), saying what is
wrong once a field is edited."""

from __future__ import annotations

from PySide6.QtWidgets import QDialogButtonBox

from providers_window import open_window
from turnlog.config.profiles import ProfileStore, builtin_profile
from turnlog.config.secrets import SessionKeys
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


def test_the_custom_editor_opens_without_an_error_and_speaks_once_edited(qtbot, store,
                                                                          turnlog_home):
    window = builtin_only(qtbot, store, turnlog_home)
    try:
        dialog = window.open_settings()
        editor = dialog.providers.add_profile("custom")
        qtbot.waitUntil(editor.isVisible, timeout=5000)
        save = editor.buttons.button(QDialogButtonBox.StandardButton.Save)
        assert editor.problem.isHidden() and editor.problem.text() == ""
        assert not save.isEnabled()  # nothing to save yet
        editor.base_url.setText("localhost:8080")
        assert not editor.problem.isHidden()
        assert "must start with http://" in editor.problem.text()
        assert "model name" not in editor.problem.text()  # the model was not touched
        editor.base_url.setText("http://localhost:8080/v1")
        assert editor.problem.isHidden() and not save.isEnabled()
        editor.model.setEditText("qwen")
        editor.model.setEditText("")
        assert "Choose or type a model name." in editor.problem.text()
        editor.model.setEditText("qwen")
        assert editor.problem.isHidden() and save.isEnabled()
        editor.reject()
        dialog.reject()
    finally:
        window.shutdown()
