"""The transcript's scroll bar over the whole conversation, one step a turn."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication, Qt, QTimer, Signal
from PySide6.QtWidgets import QScrollBar, QWidget

from ...core.model import Turn
from ...store.pages import LogPages, PageReader

translate = QCoreApplication.translate  # translate("Context", …): lupdate reads it


class HistoryBar(QScrollBar):
    """The transcript's scroll bar over the whole conversation, one step a turn: dragging
    it to the top shows turn 1 whatever is loaded. `moved` says where the person took it;
    the view sets where it is (`show_turns`) without that counting as a move."""

    moved = Signal(int)

    def __init__(self, parent: QWidget) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.setObjectName("historyBar")
        self.setAccessibleName(translate("Transcript", "Position in the conversation"))
        self._placing = False
        self._target: int | None = None
        self.valueChanged.connect(self._changed)
        self.pages_ahead = PageReader()  # the turns a drag will likely show next
        self._dragged_from: int | None = None  # the place of the thumb's last move

    def show_turns(self, count: int, top: int, row_height: int, height: int, *,
                   at_end: bool) -> None:
        """Place the bar for `count` turns with turn `top` at the top of a view `height`
        high whose top row is `row_height` high; `at_end`: the newest turn is in view."""
        # About how many turns a screen shows: the thumb's length and a page's step.
        shown = max(1, height // row_height) if row_height > 0 else 1
        if at_end:
            top = max(0, count - shown)
        self.show_place(top, max(0, count - shown), shown)

    def show_place(self, value: int, maximum: int, page: int) -> None:
        self._placing = True
        try:
            self.setRange(0, maximum)
            self.setPageStep(page)
            if not self.isSliderDown():
                self.setValue(value)
        finally:
            self._placing = False

    def _changed(self, value: int) -> None:
        if self._placing:
            return
        first = self._target is None
        self._target = value
        if first:  # a drag's many moves: the rows follow its latest, once per event loop
            QTimer.singleShot(0, self._move)

    def _move(self) -> None:
        target, self._target = self._target, None
        if target is not None:
            self.moved.emit(target)

    def read_ahead(self, place: int, turns: Sequence[Turn], rows: int) -> None:
        """The rows are moving to `place` of `turns`: while the thumb is held, the `rows`
        turns where its next move will likely land (as far on as this one went) are read
        on the page reader's thread meanwhile."""
        if not self.isSliderDown():
            self._dragged_from = None
            return
        last, self._dragged_from = self._dragged_from, place
        if last is not None and last != place and isinstance(turns, LogPages):
            ahead = place + (place - last)
            self.pages_ahead.want(turns, ahead - 3, ahead + rows)
