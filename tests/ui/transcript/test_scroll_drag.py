"""Dragging the whole-log scroll bar through a long conversation: each move shows the turns
at the thumb's place and lays out no more rows than that takes, and the rows keep the
heights they were measured at when the thumb comes back."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from long_history import seed_long
from turnlog.store.pages import LogPages
from turnlog.ui.transcript.model import Role, TranscriptModel

pytest_plugins = ["uiwindow"]

TURNS = 20_000


def opened(qtbot, store, make_window):  # noqa: ANN001, ANN201
    seed_long(store, "long", TURNS, gaps=False)
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == TURNS, timeout=20_000)
    qtbot.wait(200)
    return window


def top_ordinal(window) -> int:  # noqa: ANN001
    return int(window.view.top_index().data(Role.ORDINAL))


def moved_to(window, place: int) -> None:  # noqa: ANN001
    """One move of the held thumb to `place`, and the frame it causes."""
    window.view.history_bar.setValue(place)
    QApplication.processEvents()
    QApplication.processEvents()


def test_a_move_of_the_thumb_lays_out_one_window_of_rows(qtbot, store, make_window):
    window = opened(qtbot, store, make_window)
    bar, model = window.view.history_bar, window.transcript
    turns = model.turns
    assert isinstance(turns, LogPages)
    bar.setSliderDown(True)
    try:
        for place in (15_000, 11_000, 6_000, 2_000):
            read = turns.pages_read
            moved_to(window, place)
            assert top_ordinal(window) == place + 1  # the turns at the thumb's place …
            # … and no page of rows joins above or below it in the same move (each
            # would be read from the store and laid out while the thumb is held).
            assert model.loaded_count <= TranscriptModel.PAGE + 3
            assert turns.pages_read - read <= 2
    finally:
        bar.setSliderDown(False)
