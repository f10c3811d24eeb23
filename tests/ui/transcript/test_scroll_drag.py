"""Dragging the whole-log scroll bar through a long conversation: each move shows the turns
at the thumb's place and lays out no more rows than that takes, and the rows keep the
heights they were measured at when the thumb comes back; rows look as they always did."""

from __future__ import annotations

from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from long_history import seed_long
from turnlog.store.pages import LogPages
from turnlog.ui.transcript.marks import RowMark
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


def _pixel(image, x: int, y: int) -> tuple[int, int, int]:  # noqa: ANN001
    colour = image.pixelColor(x, y)
    return colour.red(), colour.green(), colour.blue()


def _over(top: QColor, alpha: int, under: QColor) -> tuple[int, int, int]:
    return tuple(round((t * alpha + u * (255 - alpha)) / 255) for t, u in  # type: ignore[return-value]
                 zip(top.getRgb()[:3], under.getRgb()[:3], strict=True))


def test_a_row_not_sent_and_the_current_row_are_tinted_as_before(qtbot, store, make_window):
    """The band of a turn not sent is its mark's colour at 110/255 over the list's base, and
    the current row is the highlight at 40/255 over it, whatever way they are painted."""
    seed_long(store, "long", 40, gaps=False)
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == 40, timeout=20_000)
    view, model = window.view, window.transcript
    view.show_oldest()
    qtbot.waitUntil(lambda: model.index(1).data(Role.MARK) is RowMark.NOT_SENT, timeout=10_000)
    view.setCurrentIndex(model.index(2))
    qtbot.wait(100)
    image = view.viewport().grab().toImage()
    palette = view.palette()
    base = palette.color(QPalette.ColorRole.Base)
    band = RowMark.NOT_SENT.color(palette)
    highlight = palette.color(QPalette.ColorRole.Highlight)
    plain, current = view.visualRect(model.index(1)), view.visualRect(model.index(2))
    assert _close(_pixel(image, plain.left() + 3, plain.center().y()), _over(band, 110, base))
    assert _close(_pixel(image, plain.center().x(), plain.top() + 1), _over(base, 255, base))
    lit = QColor(*_over(highlight, 40, base))
    assert _close(_pixel(image, current.left() + 3, current.center().y()),
                  _over(band, 110, lit))
    assert _close(_pixel(image, current.center().x(), current.top() + 1), lit.getRgb()[:3])


def _close(seen: tuple[int, ...], expected: tuple[int, ...]) -> bool:
    return all(abs(s - e) <= 2 for s, e in zip(seen, expected, strict=True))


def test_a_steady_drag_finds_the_turns_it_lands_on_read_ahead(qtbot, store, make_window):
    """Moves of the held thumb in even steps: from the third on, the turns each lands on
    were read on the page reader's thread while the last one was shown, so the window
    reads none from the store itself."""
    window = opened(qtbot, store, make_window)
    bar, model, view = window.view.history_bar, window.transcript, window.view
    turns = model.turns
    assert isinstance(turns, LogPages)
    bar.setSliderDown(True)
    try:
        for step, place in enumerate(range(16_000, 2_000, -1_700)):
            read = turns.pages_read
            moved_to(window, place)
            assert top_ordinal(window) == place + 1
            if step >= 2:
                assert turns.pages_read == read, place  # nothing read while it waited
            qtbot.waitUntil(lambda: view.history_bar.pages_ahead.idle, timeout=5_000)
        assert turns.pages_read_ahead >= 6
    finally:
        bar.setSliderDown(False)
