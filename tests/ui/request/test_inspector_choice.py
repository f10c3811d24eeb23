"""The inspector's *Preview* and *Last request* before anything was asked: *Preview* is
pressed and *Last request* cannot be chosen (there is none); clicking the pressed button
leaves it pressed."""

from __future__ import annotations

from PySide6.QtCore import Qt

from uihelpers import numbered, seed

pytest_plugins = ["uiwindow"]


def pressed(inspector) -> tuple[bool, bool, bool]:  # noqa: ANN001
    """(Preview pressed, Last request pressed, Last request clickable)."""
    return (inspector.preview_button.isChecked(), inspector.last_button.isChecked(),
            inspector.last_button.isEnabled())


def test_a_new_data_directory_shows_preview_pressed_and_no_last_request(qtbot, make_window):
    window = make_window()  # no conversation at all: the first start
    qtbot.waitExposed(window)
    inspector = window.inspector
    assert window.conversation is None
    assert pressed(inspector) == (True, False, False)
    qtbot.mouseClick(inspector.last_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(inspector.preview_button, Qt.MouseButton.LeftButton)
    assert pressed(inspector) == (True, False, False)


def test_clicking_the_pressed_preview_leaves_it_pressed(qtbot, make_window, store):
    seed(store, "chat", numbered(2))
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 2)
    window.refresh_preview()
    inspector = window.inspector
    assert pressed(inspector) == (True, False, False)
    qtbot.mouseClick(inspector.preview_button, Qt.MouseButton.LeftButton)
    assert pressed(inspector) == (True, False, False)
