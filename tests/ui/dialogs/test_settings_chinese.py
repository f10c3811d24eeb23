"""Settings in Chinese reads as Chinese: the window started in zh_CN and zh_TW, Settings'
pages and the profile editor for every preset, with no label left in English except names
(of presets, profiles, models, keyrings and products) and numbers.

Before: zh_CN Settings showed the keyring note and the base-URL error in English, and
"llama.cpp server" stood untranslated in the preset list."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QLocale
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QTabWidget,
    QWidget,
)

from turnlog.config.profiles import ProfileStore, builtin_profile, new_profile
from turnlog.config.secrets import SessionKeys
from turnlog.providers import CUSTOM, OPENAI, PRESETS
from turnlog.ui.infra import languages
from turnlog.ui.infra.tasks import TaskRunner
from turnlog.ui.request.connection import ProviderConnector
from turnlog.ui.request.provider_setup import ProviderSetup
from turnlog.ui.shell.window import MainWindow, window_settings
from uihelpers import seed

pytest_plugins = ["uiwindow"]

# Names and what is not words: products, protocols, units and the like stay as written.
NAMES = {p.name for p in PRESETS} | {
    "API", "URL", "GGUF", "PEM", "CA", "HTTP", "HTTPS", "Turnlog", "turnlog-cli", "Token",
    "token", "SmolLM2-135M", "SmolLM2-135M-Instruct (Q4_1)", "Apache-2.0", "Ctrl+,", "…",
    "GNOME Keyring", "KWallet", "OpenAI 2", "Home server", "qwen2.5-7b-instruct",
    "USD",  # a currency code (the prices' placeholder)
}
# A number with its unit or sign, an address, a file name, a shortcut letter, a model file.
NOT_WORDS = re.compile(
    r"^(?:[\d\s.,:%()/+\-–×]+|https?://\S+|\S+\.(?:gguf|pem|json)|&?\w|\(&\w\)|"
    r"[\d.,]+\s*(?:s|ms|KB|MB|GB|KiB|MiB|GiB)|x86-64\S*)$")


def words_of(widget: QWidget) -> list[str]:
    """What a person reads on `widget`: its text, its title, a field's placeholder, a
    list's items and a tab's name."""
    texts: list[str] = []
    if isinstance(widget, QLabel | QAbstractButton):
        texts.append(widget.text())
    elif isinstance(widget, QGroupBox):
        texts.append(widget.title())
    elif isinstance(widget, QLineEdit):
        texts.append(widget.placeholderText())
    elif isinstance(widget, QComboBox):
        texts.extend(widget.itemText(i) for i in range(widget.count()))
    elif isinstance(widget, QTabWidget):
        texts.extend(widget.tabText(i) for i in range(widget.count()))
    return [t.replace("&&", "&") for t in texts if t.strip()]


def english_left(root: QWidget) -> list[str]:
    """Every ASCII-only text a person sees in `root` that is neither a name nor a number."""
    found = []
    for widget in [root, *root.findChildren(QWidget)]:
        if not widget.isVisibleTo(root):
            continue
        for text in words_of(widget):
            plain = text.replace("&", "").strip()
            if not plain.isascii() or plain in NAMES or NOT_WORDS.match(plain):
                continue
            pieces = [p.strip() for p in re.split(r"[·\n]", plain) if p.strip()]
            if all(p in NAMES or NOT_WORDS.match(p) or p.startswith("http")
                   for p in pieces):
                continue
            found.append(text)
    return found


@pytest.fixture
def in_language(qapp):
    yield languages.install
    languages.install(languages.ENGLISH)
    QLocale.setDefault(QLocale.c())


@pytest.mark.parametrize("language", ["zh_CN", "zh_TW"])
def test_settings_and_every_preset_read_as_chinese(qtbot, store, turnlog_home, in_language,
                                                     language):
    in_language(language)
    profiles = ProfileStore()
    profiles.save([new_profile(CUSTOM, model="qwen2.5-7b-instruct", name="Home server",
                               base_url="http://127.0.0.1:9/v1"),
                   new_profile(OPENAI, model="gpt-4o-mini"), builtin_profile()],
                  builtin_offered=True)
    setup = ProviderSetup(profiles, window_settings(turnlog_home), keyring=SessionKeys())
    seed(store, "花坛", [("你好", "你好！")], model="qwen2.5-7b-instruct")
    window = MainWindow(store, TaskRunner(), ProviderConnector(setup.config, setup.keys),
                        setup=setup)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    try:
        qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
        dialog = window.open_settings()
        qtbot.waitUntil(dialog.isVisible, timeout=5000)
        assert english_left(dialog) == []
        dialog.show_conversation_page()
        assert english_left(dialog) == []
        seen = 0
        for preset in PRESETS:
            editor = dialog.providers.add_profile(preset.id)
            qtbot.waitUntil(editor.isVisible, timeout=5000)
            assert english_left(editor) == [], preset.id
            if preset is CUSTOM:  # its problems, as typed: an address that is not one
                editor.base_url.setText("localhost:8080")
                assert editor.problem.isVisible()
                assert english_left(editor) == [], editor.problem.text()
            editor.reject()
            seen += 1
        assert seen == len(PRESETS) == 9
        dialog.reject()
    finally:
        window.shutdown()
