"""Settings → Providers: a profile's prices per million tokens, saved with the day they
were set; a bad price keeps Save off and says why; blank prices mean tokens only."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from PySide6.QtWidgets import QDialogButtonBox

from turnlog.config.profiles import ProfileStore
from turnlog.config.secrets import SessionKeys
from turnlog.core.cost import Prices
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConnector
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.window import MainWindow, window_settings

pytest_plugins = ["uiwindow"]


@pytest.fixture
def window(qtbot, store, turnlog_home):
    setup = ProviderSetup(ProfileStore(), window_settings(turnlog_home), keyring=SessionKeys())
    made = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                      setup=setup)
    qtbot.addWidget(made)
    made.show()
    yield made
    made.shutdown()


def saved(qtbot):
    qtbot.waitUntil(lambda: bool(ProfileStore().load()), timeout=5000)
    [profile] = ProfileStore().load()
    return profile


def test_prices_are_saved_with_the_day_and_a_bad_one_is_named(qtbot, window):
    settings = window.open_settings()
    dialog = settings.providers.add_profile("custom")
    try:
        dialog.base_url.setText("http://localhost:8080/v1")
        dialog.model.setEditText("m")
        save = dialog.buttons.button(QDialogButtonBox.StandardButton.Save)
        assert save.isEnabled()
        assert "No prices" in dialog.prices.source.text()
        fields = dialog.prices.fields
        fields["input"].setText("abc")
        assert not save.isEnabled() and "is not a number" in dialog.problem.text()
        fields["input"].setText("0.15")
        assert not save.isEnabled() and "both the input and the output" in dialog.problem.text()
        fields["output"].setText("0.6")
        dialog.prices.currency.setText("eur")
        assert save.isEnabled()
        save.click()
        profile = saved(qtbot)
        assert profile.prices == Prices(Decimal("0.15"), Decimal("0.6"), None, "EUR",
                                        date.today().isoformat())
    finally:
        settings.reject()


def test_an_unchanged_price_keeps_the_day_it_was_set(qtbot, window):
    from dataclasses import replace

    from turnlog.config.profiles import new_profile
    from turnlog.providers import CUSTOM
    from turnlog.ui.dialogs.profile_editor import ProfileEditor

    kept = Prices(Decimal("1"), Decimal("2"), Decimal("0.5"), "USD", "2026-01-02")
    profile = replace(new_profile(CUSTOM, model="m", base_url="http://localhost:1/v1"),
                      prices=kept)
    ProfileStore().save([profile])
    dialog = ProfileEditor(window.setup, window.runner, profile, new=False, parent=window)
    try:
        assert dialog.prices.fields["cached"].text() == "0.5"
        assert "Set on 2026-01-02" in dialog.prices.source.text()
        assert dialog.prices.prices() == kept
        assert dialog.described_profile().prices == kept
        dialog.prices.fields["output"].setText("3")
        assert dialog.prices.prices().set_on == date.today().isoformat()
        for key in ("input", "cached", "output"):
            dialog.prices.fields[key].setText("")
        dialog.prices.currency.setText("")
        assert dialog.described_profile().prices is None
    finally:
        dialog.reject()


def test_prices_the_server_lists_are_filled_in_and_shown_as_the_server_s(qtbot, window,
                                                                          loopback):
    loopback.models = [
        {"id": "openai/gpt-4o-mini", "context_length": 128_000,
         "pricing": {"prompt": "0.00000015", "completion": "0.0000006",
                     "input_cache_read": "0.000000075"}},
        {"id": "openrouter/auto", "pricing": {"prompt": "-1", "completion": "-1"}}]
    settings = window.open_settings()
    dialog = settings.providers.add_profile("custom")
    try:
        dialog.base_url.setText(loopback.base_url)
        dialog.fetch_models()
        qtbot.waitUntil(lambda: dialog.model.count() == 2, timeout=5000)
        dialog.model.setCurrentIndex(1)  # a price that varies: none is made up
        dialog.model.activated.emit(1)  # as a click on the entry
        assert dialog.prices.fields["input"].text() == ""
        dialog.model.setCurrentIndex(0)
        dialog.model.activated.emit(0)
        fields = dialog.prices.fields
        assert (fields["input"].text(), fields["cached"].text(), fields["output"].text(),
                dialog.prices.currency.text()) == ("0.15", "0.075", "0.6", "USD")
        assert "Read from the server's model list" in dialog.prices.source.text()
        dialog.buttons.button(QDialogButtonBox.StandardButton.Save).click()
        profile = saved(qtbot)
        assert (profile.prices.input, profile.prices.source) == (Decimal("0.15"), "server")
    finally:
        settings.reject()
