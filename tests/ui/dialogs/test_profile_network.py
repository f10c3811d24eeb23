"""Settings' network rows: the warning and the explicit choice beside a plain http://
address on another machine, the CA file, the time to first token and retry."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from tlscerts import make_certs
from turnlog.config.profiles import ProfileStore
from turnlog.config.secrets import SessionKeys
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConnector
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.window import MainWindow, window_settings

pytest_plugins = ["uiwindow"]

KEY = "sk-test-1234567890"
LAN = "http://10.0.0.5:8000/v1"


@pytest.fixture
def dialog(qtbot, store, turnlog_home):
    keys = SessionKeys()
    setup = ProviderSetup(ProfileStore(), window_settings(turnlog_home), keyring=keys)
    window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                        setup=setup)
    qtbot.addWidget(window)
    window.show()
    settings = window.open_settings()
    opened = settings.providers.add_profile("custom")
    opened.model.setEditText("m")
    yield opened
    opened.reject()
    settings.reject()
    window.shutdown()


def saved(qtbot):
    qtbot.waitUntil(lambda: bool(ProfileStore().load()), timeout=5000)
    [profile] = ProfileStore().load()
    return profile


def test_a_plain_http_address_elsewhere_is_warned_about_and_needs_an_explicit_choice(
        qtbot, dialog, turnlog_home):
    rows = dialog.network
    save = dialog.buttons.button(QDialogButtonBox.StandardButton.Save)
    dialog.base_url.setText("http://localhost:8080/v1")
    dialog.key.setText(KEY)
    assert not rows.warning.isVisibleTo(dialog) and save.isEnabled()
    dialog.base_url.setText(LAN)
    assert rows.warning.isVisibleTo(dialog) and rows.allow_insecure.isVisibleTo(dialog)
    assert "Plain http:// to another machine" in rows.warning.text()
    assert not save.isEnabled()
    assert "The key would travel unencrypted" in dialog.problem.text()
    rows.allow_insecure.setChecked(True)
    assert save.isEnabled()
    save.click()
    profile = saved(qtbot)
    assert profile.base_url == LAN and profile.network.allow_insecure_key is True
    dialog.base_url.setText("https://10.0.0.5:8000/v1")
    assert not rows.warning.isVisibleTo(dialog)


def test_ca_file_first_token_and_retry_are_saved_with_the_profile(qtbot, dialog, tmp_path):
    rows = dialog.network
    save = dialog.buttons.button(QDialogButtonBox.StandardButton.Save)
    dialog.base_url.setText("https://127.0.0.1:8443/v1")
    rows.ca_file.setText(str(tmp_path / "missing.pem"))
    assert "does not exist" in dialog.problem.text() and not save.isEnabled()
    certs = make_certs(tmp_path / "certs")
    rows.ca_file.setText(str(certs.ca))
    assert rows.first_token.specialValueText() == "Default (90 s)"
    rows.first_token.setValue(300)
    assert rows.retry.isChecked()
    rows.retry.setChecked(False)
    assert save.isEnabled()
    save.click()
    profile = saved(qtbot)
    assert profile.network.ca_file == str(certs.ca)
    assert profile.network.first_token_timeout_s == 300
    assert profile.network.retry is False
    dialog.preset.setCurrentIndex(dialog.preset.findData("llamacpp"))
    assert rows.first_token.specialValueText() == "Default (600 s)"
