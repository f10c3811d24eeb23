"""The moment the window is ready for a person: written to a file for the start-up bench.

Only when `$TURNLOG_READY_FILE` names a file: the first paint of the history that shows
the open conversation's newest turn (or no conversation at all) with the composer taking
keys writes `time.time()` there, then the watch removes itself.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QAbstractItemView, QWidget

from ..transcript.model import Role

READY_ENV = "TURNLOG_READY_FILE"


class ReadyMark(QObject):
    """Writes the time of the first paint that shows the newest turn, composer focused."""

    def __init__(self, view: QAbstractItemView, edit: QWidget, opened: Callable[[], bool],
                 path: Path) -> None:
        super().__init__(view)
        self.view, self.edit, self.opened, self.path = view, edit, opened, path
        view.viewport().installEventFilter(self)

    def _ready(self) -> bool:
        if not self.edit.hasFocus():
            return False
        if not self.opened():
            return True
        view = self.view
        model = view.model()
        rows = model.rowCount()
        if not rows:
            return False
        newest = model.index(rows - 1, 0)
        return bool(newest.data(Role.LAST)) and view.viewport().rect().intersects(
            view.visualRect(newest))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Paint and self._ready():
            watched.removeEventFilter(self)
            temporary = self.path.with_name(self.path.name + ".part")
            temporary.write_text(repr(time.time()), encoding="utf-8")
            temporary.replace(self.path)
        return False


def watch_ready(view: QAbstractItemView, edit: QWidget,
                opened: Callable[[], bool]) -> ReadyMark | None:
    """A ReadyMark on the history `view` when `$TURNLOG_READY_FILE` asks for one;
    `opened` says whether a conversation is open."""
    named = os.environ.get(READY_ENV)
    return ReadyMark(view, edit, opened, Path(named)) if named else None
