"""Delete all history offers to remove the API keys of the profiles that have one (named,
the first three, the rest counted), not of every profile; the offer reads whole in the
real question box."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QCheckBox, QMessageBox

from turnlog.config.profiles import ProfileStore, new_profile
from turnlog.config.secrets import SessionKeys
from turnlog.providers import CUSTOM
from turnlog.ui.dialogs.privacy import Decision, ask
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConnector
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.window import MainWindow, window_settings
from uihelpers import seed

pytest_plugins = ["uiwindow"]

NAMES = ["Wrongpath", "Refused", "Tools", "Local llama.cpp on the workstation", "Work"]


def window_with(qtbot, store, turnlog_home, keyed: list[str]):
    profiles = ProfileStore(turnlog_home)
    made = [new_profile(CUSTOM, model="m", name=name, base_url="http://127.0.0.1:9/v1")
            for name in NAMES]
    profiles.save(made)
    keys = SessionKeys()
    for profile in made:
        if profile.name in keyed:
            keys.set(profile.id, "sk-test-" + "9" * 24)
    setup = ProviderSetup(profiles, window_settings(turnlog_home), keyring=keys)
    seed(store, "chat", [("Hi", "Hello")])
    window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                        setup=setup)
    qtbot.addWidget(window)
    window.resize(1024, 600)
    window.show()
    asked = []
    window.confirm = lambda confirmation: (asked.append(confirmation), Decision(False))[1]
    return window, asked


def offer_of(qtbot, window, asked) -> str:
    window.delete_all_history()
    qtbot.waitUntil(lambda: len(asked) == 1, timeout=5000)
    return asked[0].option


def test_only_the_profiles_with_a_key_are_offered(qtbot, store, turnlog_home):
    window, asked = window_with(qtbot, store, turnlog_home, ["Work"])
    try:
        assert offer_of(qtbot, window, asked) == (
            "Also forget the API keys of 1 provider profile (Work), which Turnlog keeps "
            "in memory until it quits")
    finally:
        window.shutdown()


def test_no_offer_when_no_profile_has_a_key(qtbot, store, turnlog_home):
    window, asked = window_with(qtbot, store, turnlog_home, [])
    try:
        assert offer_of(qtbot, window, asked) == ""
    finally:
        window.shutdown()


def test_many_keys_are_counted_and_the_offer_reads_whole(qtbot, store, turnlog_home):
    window, asked = window_with(qtbot, store, turnlog_home, NAMES)
    try:
        offer = offer_of(qtbot, window, asked)
        assert offer.startswith("Also forget the API keys of 5 provider profiles "
                                "(Wrongpath, Refused, Tools and 2 more)")
        seen = {}

        def look() -> None:
            box = QApplication.activeModalWidget()
            assert isinstance(box, QMessageBox)
            check = box.findChild(QCheckBox)
            # Whole, or as wide as the screen allows (0.9 of it: 921 px on a 1024 px screen
            # holds this offer; the test screen is 800 px).
            room = box.screen().availableSize().width() * 9 // 10
            seen["fits"] = check.width() >= min(check.sizeHint().width(), room)
            seen["inside"] = check.geometry().right() <= box.width()
            box.reject()

        QTimer.singleShot(200, look)
        ask(window, asked[0])
        assert seen == {"fits": True, "inside": True}
    finally:
        window.shutdown()
