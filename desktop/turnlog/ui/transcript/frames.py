"""Waiting for a frame: something to do once a widget has painted its next frame (a send's
body is built after the first frame of the question being answered)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget


def after_next_paint(widget: QWidget, call: Callable[[], None]) -> None:
    """Call `call` once `widget` has painted its next frame; at once when it is not on
    screen, so nothing waits for a paint that never comes."""
    if not widget.isVisible():
        call()
        return
    NextFrame(widget, call)
    widget.update()


class NextFrame(QObject):
    """Watches one widget for its next paint, calls back after it, then goes."""

    def __init__(self, widget: QWidget, call: Callable[[], None]) -> None:
        super().__init__(widget)
        self._call = call
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, self._painted)  # runs once the paint is done
        return False

    def _painted(self) -> None:
        self._call()
        self.deleteLater()
