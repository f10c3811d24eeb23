"""Wheeling up through a long conversation: when the top is reached an older page joins
above the rows on show without moving them, and the rows are laid out once, after the
wheel's event, not inside it (where the whole-log bar, finding the top row, laid every
row out at once, and the frame waited for it)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication

from long_history import seed_long
from turnlog.ui.transcript.delegate import TranscriptDelegate
from turnlog.ui.transcript.model import Role

pytest_plugins = ["uiwindow"]

TURNS = 2_000


def wheel_up(window) -> None:  # noqa: ANN001
    viewport = window.view.viewport()
    centre = QPointF(viewport.width() / 2, viewport.height() / 2)
    QApplication.sendEvent(viewport, QWheelEvent(
        centre, QPointF(viewport.mapToGlobal(QPoint(0, 0))) + centre, QPoint(0, 0),
        QPoint(0, 120), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase, False))


def test_a_page_joining_under_the_wheel_is_laid_out_after_its_event(qtbot, store, make_window,
                                                                     monkeypatch):
    measured = [0]
    size_hint = TranscriptDelegate.sizeHint

    def counted(self, option, index):  # noqa: ANN001, ANN202
        measured[0] += 1
        return size_hint(self, option, index)

    monkeypatch.setattr(TranscriptDelegate, "sizeHint", counted)
    seed_long(store, "long", TURNS, gaps=False)
    window = make_window()
    qtbot.waitUntil(lambda: len(window.transcript.turns) == TURNS, timeout=20_000)
    qtbot.wait(200)
    view, model = window.view, window.transcript
    joins = 0
    for _ in range(400):
        loaded = model.loaded_count
        top = view.top_index()
        ordinal, y = int(top.data(Role.ORDINAL)), view.visualRect(top).top()
        measured[0] = 0
        wheel_up(window)
        in_event = measured[0]
        QApplication.processEvents()
        if model.loaded_count == loaded:
            continue
        joins += 1
        # A row or two measured for the view's step, not every row (up to 300) twice.
        assert in_event <= 5, (joins, in_event, loaded)
        # The rows on show stay where they were (less the wheel's step) …
        row = model.row_of_ordinal(ordinal)
        assert row is not None
        assert abs(view.visualRect(model.index(row)).top() - (y + 24)) <= 24
        # … and the whole-log bar says where they are in the log.
        assert view.history_bar.value() == model.turns_before(view.top_index().row())
        if joins == 4:
            break
    assert joins == 4
