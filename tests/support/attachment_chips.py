"""A window with files attached to the draft, and the chips that show them."""

from __future__ import annotations

from turnlog.core.model import ConversationSettings
from uihelpers import seed

ROOMY = ConversationSettings(max_bytes=2_000_000)


def opened(qtbot, make_window, store):
    conversation = seed(store, "files", [("first", "ok")], settings=ROOMY)
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 1, timeout=5000)
    return window, conversation.id


def chips(window) -> list[str]:
    return [chip.label.text() for chip in window.composer.tray.chips]
