"""Reading the marks the history shows beside each turn."""

from __future__ import annotations

from turnlog.ui.shell.window import MainWindow
from turnlog.ui.transcript.marks import RowMark
from turnlog.ui.transcript.model import Role


def marks(window: MainWindow) -> dict[int, RowMark]:
    model = window.transcript
    model.load_all()
    return {model.index(r).data(Role.ORDINAL): model.index(r).data(Role.MARK)
            for r in range(model.rowCount()) if not model.index(r).data(Role.PENDING)}
