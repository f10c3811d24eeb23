"""A narrow window (480 px, a phone-sized screen): Ctrl+I opens the inspector as a page of
the whole width in place of the conversation, not a strip, and closing it brings the
conversation back; the conversation list likewise, one page at a time; the Sampling
button shows its words whole or cut at the end with an ellipsis, whole in its tooltip."""

from __future__ import annotations

from PySide6.QtCore import Qt

from turnlog.core.model import ConversationSettings
from uihelpers import numbered, seed

pytest_plugins = ["uiwindow"]

CTRL = Qt.KeyboardModifier.ControlModifier


def test_at_480_px_the_inspector_opens_as_a_full_width_page(qtbot, make_window, store):
    seed(store, "chat", numbered(2))
    window = make_window(size=(480, 844))
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
    assert not window.inspector_dock.isVisible() and window.centre.isVisible()
    window.activateWindow()
    qtbot.keyClick(window.composer.edit, Qt.Key.Key_I, CTRL)  # View → Inspector
    qtbot.waitUntil(window.inspector_dock.isVisible, timeout=2000)
    qtbot.waitUntil(lambda: window.inspector_dock.width() >= window.width() - 10,
                    timeout=2000)
    assert not window.centre.isVisible()  # in place of the conversation, not beside it

    window.sidebar_dock.toggleViewAction().trigger()  # Conversations: the next page
    qtbot.waitUntil(lambda: window.sidebar_dock.width() >= window.width() - 10, timeout=2000)
    assert not window.inspector_dock.isVisible() and not window.centre.isVisible()

    window.view_menu.actions()  # Go to question: the conversation is back, focused
    [go] = [a for a in window.view_menu.actions() if a.text() == "Go to &question"]
    go.trigger()
    qtbot.waitUntil(window.centre.isVisible, timeout=2000)
    assert not window.sidebar_dock.isVisible()
    qtbot.waitUntil(lambda: window.composer.edit.hasFocus(), timeout=2000)

    window.inspector_dock.toggleViewAction().trigger()
    qtbot.waitUntil(lambda: not window.centre.isVisible(), timeout=2000)
    window.inspector_dock.toggleViewAction().trigger()  # the same key closes the page
    qtbot.waitUntil(window.centre.isVisible, timeout=2000)
    assert window.composer.isVisible() and window.composer.send_button.isVisible()

    window.side_dock.toggleViewAction().trigger()  # the side questions: a page too
    qtbot.waitUntil(lambda: window.side_dock.isVisible()
                    and window.side_dock.width() >= window.width() - 10, timeout=2000)
    assert not window.centre.isVisible()
    window.side_dock.close()  # its ×
    qtbot.waitUntil(window.centre.isVisible, timeout=2000)


def test_a_wide_window_keeps_its_panels_beside_the_conversation(qtbot, make_window, store):
    seed(store, "chat", numbered(2))
    window = make_window(size=(1280, 720))
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
    if not window.inspector_dock.isVisible():
        window.inspector_dock.toggleViewAction().trigger()
    qtbot.waitUntil(window.inspector_dock.isVisible, timeout=2000)
    assert window.centre.isVisible() and window.sidebar_dock.isVisible()
    assert window.inspector_dock.width() < window.width() // 2


def test_the_sampling_button_shows_its_words_whole_or_cut_at_the_end(qtbot, make_window,
                                                                     store):
    seed(store, "chat", numbered(1),
         settings=ConversationSettings(temperature=0.7, top_p=0.9, send_max_tokens=True))
    window = make_window(size=(480, 844))
    button = window.centre.header.sampling
    full = "Sampling: temperature 0.7 · top_p 0.9 · max 8,192 tokens"
    qtbot.waitUntil(lambda: button.full_text() == full and bool(button.text()), timeout=5000)
    shown = button.text()
    assert button.toolTip() == full
    assert shown == full or (shown.endswith("…") and full.startswith(shown[:-1]))
    assert shown.startswith("Sampling")  # its first word whole, not "Sampling…4 tokens"
    assert button.fontMetrics().horizontalAdvance(shown) <= button.width()
    assert button.geometry().right() <= window.centre.header.width()
    window.resize(1280, 720)
    qtbot.waitUntil(lambda: button.text() == full, timeout=2000)


def test_panels_folded_by_a_narrow_window_come_back_after_a_restart(qtbot, make_window,
                                                                    store):
    """Used below 760 px and closed there, the window restarted at 1024 px shows the
    conversation list and the inspector again, each as wide as it was before folding."""
    seed(store, "chat", numbered(2))
    window = make_window(size=(1280, 720))
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2, timeout=5000)
    if not window.inspector_dock.isVisible():
        window.inspector_dock.toggleViewAction().trigger()
    qtbot.waitUntil(lambda: window.inspector_dock.isVisible()
                    and window.sidebar_dock.isVisible(), timeout=2000)
    wide = window.inspector_dock.width()
    window.resize(700, 720)
    qtbot.waitUntil(lambda: not window.inspector_dock.isVisible(), timeout=2000)
    window.close()

    again = make_window(size=(1024, 600))
    qtbot.waitUntil(lambda: len(again.transcript.turns) == 2, timeout=5000)
    qtbot.waitUntil(lambda: again.sidebar_dock.isVisible()
                    and again.inspector_dock.isVisible(), timeout=2000)
    assert again.centre.isVisible()
    assert again.inspector_dock.width() >= min(wide, 300)
