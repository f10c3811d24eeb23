"""The whole history of a long conversation is at hand: Ctrl+Home shows turn 1 and
Ctrl+End the newest at once, PageUp runs never lose a press, Go to turn… opens a turn by
its number (and says why when there is none), and the rows laid out stay bounded."""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent, QTextDocument, QWheelEvent
from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionSlider

from long_history import newest_on_screen, seed_long
from turnlog.ui.transcript.goto import GoToTurnDialog
from turnlog.ui.transcript.model import Role, TranscriptModel

pytest_plugins = ["uiwindow"]

HUGE = 100_000


class FirstPaint(QObject):
    """Notes when the viewport first paints with the turn numbered `ordinal` on show."""

    def __init__(self, window, ordinal: int) -> None:  # noqa: ANN001
        super().__init__()
        self.window, self.ordinal = window, ordinal
        self.at: float | None = None

    def eventFilter(self, obj, event) -> bool:  # noqa: ANN001, N802
        if event.type() == QEvent.Type.Paint and self.at is None \
                and ordinal_on_screen(self.window, self.ordinal):
            self.at = time.perf_counter()
        return False


def ordinal_on_screen(window, ordinal: int) -> bool:  # noqa: ANN001
    row = window.transcript.row_of_ordinal(ordinal)
    if row is None:
        return False
    rect = window.view.visualRect(window.transcript.index(row))
    return window.view.viewport().rect().intersects(rect)


def top_ordinal(window) -> int:  # noqa: ANN001
    view = window.view
    index = view.indexAt(QPoint(view.viewport().width() // 2, view.spacing() + 1))
    return int(index.data(Role.ORDINAL))


def opened(qtbot, store, make_window, count: int, gaps: bool = False):  # noqa: ANN001, ANN201
    cid, ordinals = seed_long(store, "long", count, gaps=gaps)
    window = make_window()
    qtbot.waitUntil(lambda: newest_on_screen(window, ordinals[-1]), timeout=20_000)
    window.activateWindow()
    window.view.setFocus()
    return window, ordinals


def test_ctrl_home_paints_turn_1_of_100000_and_ctrl_end_goes_back(qtbot, store, make_window):
    window, ordinals = opened(qtbot, store, make_window, HUGE)
    watch = FirstPaint(window, 1)
    window.view.viewport().installEventFilter(watch)
    started = time.perf_counter()
    qtbot.keyClick(window.view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: watch.at is not None, timeout=5_000)
    window.view.viewport().removeEventFilter(watch)
    assert watch.at - started < 1.0  # at once, not page after page
    assert window.view.currentIndex().data(Role.ORDINAL) == 1
    assert window.transcript.rowCount() <= TranscriptModel.MAX_ROWS

    qtbot.keyClick(window.view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: ordinal_on_screen(window, ordinals[-1]), timeout=5_000)
    assert window.view.currentIndex().data(Role.ORDINAL) == ordinals[-1]
    assert not ordinal_on_screen(window, 1)


def test_page_up_pressed_quickly_moves_as_many_pages(qtbot, store, make_window):
    window, ordinals = opened(qtbot, store, make_window, 3_000)
    view, bar = window.view, window.view.verticalScrollBar()
    qtbot.wait(100)
    start = top_ordinal(window)
    presses = 40  # far past the first page of rows: more join during the run
    app = QApplication.instance()
    for _ in range(presses):  # no event processed in between: as fast as keys repeat
        app.sendEvent(view, _key(Qt.Key.Key_PageUp))
    row_height = view.visualRect(window.transcript.index(0)).height() + 2 * view.spacing()
    moved_rows = start - top_ordinal(window)
    expected = presses * bar.pageStep() / row_height
    assert abs(moved_rows - expected) <= 2, (moved_rows, expected)
    assert window.transcript.rowCount() <= TranscriptModel.MAX_ROWS


def _key(key: Qt.Key) -> QKeyEvent:
    return QKeyEvent(QEvent.Type.KeyPress, key, Qt.KeyboardModifier.NoModifier)


def test_go_to_turn_by_number_and_a_number_that_is_not_there(qtbot, store, make_window):
    window, ordinals = opened(qtbot, store, make_window, 5_000, gaps=True)
    qtbot.keyClick(window, Qt.Key.Key_G, Qt.KeyboardModifier.ControlModifier)
    dialog = window.findChild(GoToTurnDialog)
    qtbot.waitUntil(lambda: dialog is not None and dialog.isVisible()
                    or bool(window.findChild(GoToTurnDialog)))
    dialog = window.findChild(GoToTurnDialog)
    qtbot.keyClicks(dialog.number, "1234")
    qtbot.keyClick(dialog.number, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not dialog.isVisible())
    qtbot.waitUntil(lambda: top_ordinal(window) == 1234)
    assert window.view.currentIndex().data(Role.ORDINAL) == 1234

    missing = GoToTurnDialog(window.view, window)
    missing.show()
    missing.number.setText("997")  # deleted (a gap every 997 ordinals)
    assert not missing.go()
    assert "997" in missing.message.text() and "deleted" in missing.message.text()
    missing.number.setText("999999")
    assert not missing.go()
    assert f"{ordinals[-1]:,}" in missing.message.text()
    assert missing.isVisible() and top_ordinal(window) == 1234  # nothing moved
    # The reason is shown whole: the label as tall as its wrapped lines need.
    label = missing.message
    qtbot.waitUntil(lambda: label.height() >= label.heightForWidth(label.width()))
    assert missing.frameGeometry().height() <= missing.screen().availableGeometry().height()


def test_rows_and_documents_stay_bounded_while_scrolling_through_many(
        qtbot, store, make_window):
    window, ordinals = opened(qtbot, store, make_window, 6_000)
    view, model = window.view, window.transcript
    qtbot.keyClick(view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: ordinal_on_screen(window, 1))
    app = QApplication.instance()
    for _ in range(400):
        app.sendEvent(view, _key(Qt.Key.Key_PageDown))
        app.processEvents()  # painted: every row on the way is laid out
    assert top_ordinal(window) > 2_000  # far down the log
    assert model.rowCount() <= TranscriptModel.MAX_ROWS
    delegate = view.delegate
    # Rows far behind gave their documents back (a question's and an answer's per row).
    assert len(delegate.findChildren(QTextDocument)) <= 2 * delegate.CACHE_SIZE + 10


def _mouse(kind: QEvent.Type, bar, point: QPoint) -> None:  # noqa: ANN001
    held = Qt.MouseButton.NoButton if kind == QEvent.Type.MouseButtonRelease \
        else Qt.MouseButton.LeftButton
    event = QMouseEvent(kind, QPointF(point), QPointF(bar.mapToGlobal(point)),
                        Qt.MouseButton.LeftButton, held, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(bar, event)


def test_the_scroll_bar_spans_100000_turns_and_its_top_is_turn_1(qtbot, store, make_window):
    window, ordinals = opened(qtbot, store, make_window, HUGE)
    bar = window.view.history_bar
    qtbot.waitUntil(lambda: bar.maximum() > HUGE - 50)  # a step a turn, all of them
    assert bar.isVisible() and bar.value() == bar.maximum()
    option = QStyleOptionSlider()
    bar.initStyleOption(option)
    thumb = bar.style().subControlRect(QStyle.ComplexControl.CC_ScrollBar, option,
                                       QStyle.SubControl.SC_ScrollBarSlider, bar)
    _mouse(QEvent.Type.MouseButtonPress, bar, thumb.center())
    for y in range(thumb.center().y(), -20, -40):  # dragged up, past the top
        _mouse(QEvent.Type.MouseMove, bar, QPoint(thumb.center().x(), y))
        QApplication.processEvents()
    _mouse(QEvent.Type.MouseButtonRelease, bar, QPoint(thumb.center().x(), -20))
    qtbot.waitUntil(lambda: ordinal_on_screen(window, 1), timeout=5_000)
    assert top_ordinal(window) == 1 and bar.value() == 0
    assert window.transcript.rowCount() <= TranscriptModel.MAX_ROWS
    # Half way down the bar: the turns half way through the log.
    bar.setValue(HUGE // 2)
    qtbot.waitUntil(lambda: abs(top_ordinal(window) - HUGE // 2) < 5, timeout=5_000)


def test_the_wheel_scrolls_the_history_and_the_bar_follows(qtbot, store, make_window):
    window, ordinals = opened(qtbot, store, make_window, 3_000)
    view, bar = window.view, window.view.history_bar
    qtbot.wait(100)
    start, place = top_ordinal(window), bar.value()
    centre = QPointF(view.viewport().rect().center())
    for _ in range(30):
        wheel = QWheelEvent(centre, QPointF(view.viewport().mapToGlobal(centre.toPoint())),
                            QPoint(), QPoint(0, 120), Qt.MouseButton.NoButton,
                            Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
                            False)
        QApplication.sendEvent(view.viewport(), wheel)
        QApplication.processEvents()
    assert top_ordinal(window) < start - 5  # older turns came into view …
    assert bar.value() < place  # … and the whole-log bar moved up with them


def test_the_whole_log_bar_shows_only_when_the_history_does_not_fit(qtbot, store, make_window):
    window, _ordinals = opened(qtbot, store, make_window, 2)
    view = window.view
    qtbot.wait(100)
    assert not view.history_bar.isVisible()  # two turns in view: nothing to scroll
    window2, _ordinals = opened(qtbot, store, make_window, 300)
    qtbot.waitUntil(lambda: window2.view.history_bar.isVisible(), timeout=5_000)
    # Its room is kept either way: showing it never narrows the rows (measured again).
    assert window2.view.viewport().width() == view.viewport().width()


def test_a_jump_far_away_builds_a_frame_s_rows_a_few_at_a_time(qtbot, store, make_window,
                                                              monkeypatch):
    # Dragging the whole-log bar shows rows never laid out on every move: a frame builds
    # the documents of the rows it shows for a bounded time (one at least) and sketches
    # the rest, which the next frames build — none is left a sketch.
    from turnlog.ui.transcript import delegate as delegate_module

    window, ordinals = opened(qtbot, store, make_window, 2_000)
    monkeypatch.setattr(delegate_module, "FRAME_BUDGET", 0.0, raising=False)
    made: list[QTextDocument] = []
    new_doc = delegate_module.TranscriptDelegate._new_doc

    def counted(self, width: int) -> QTextDocument:  # noqa: ANN001
        made.append(doc := new_doc(self, width))
        return doc

    monkeypatch.setattr(delegate_module.TranscriptDelegate, "_new_doc", counted)
    view = window.view
    view.reveal_ordinal(1_000)
    made.clear()
    view.viewport().repaint()
    assert len(made) == 2  # one row's question and answer, in this frame
    shown = [row for row in range(window.transcript.rowCount())
             if view.viewport().rect().intersects(view.visualRect(window.transcript.index(row)))]
    assert len(shown) > 2
    qtbot.waitUntil(lambda: len(made) >= 2 * len(shown), timeout=5_000)
    qtbot.wait(100)
    assert top_ordinal(window) == 1_000  # built and measured, the turn stays on top
    assert view.delegate.code_blocks(window.transcript.index(shown[-1])) == []
