"""Selecting text in the history by dragging the mouse."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt

from turnlog.ui.shell.window import MainWindow


def utf16(text: str, index: int) -> int:
    """Where Python index `index` of `text` is as a Qt cursor position (UTF-16 units)."""
    return len(text[:index].encode("utf-16-le")) // 2


def point_of(window: MainWindow, row: int, doc_no: int, pos: int) -> QPoint:
    """The viewport point between two characters: before cursor position `pos` of a row's
    document `doc_no` (0 the question, 1 the answer's first section), mid-line."""
    index = window.transcript.index(row)
    doc, origin = window.view.delegate.text_layout(index)[doc_no]
    block = doc.findBlock(pos)
    layout = block.layout()
    line = layout.lineForTextPosition(pos - block.position())
    x = line.cursorToX(pos - block.position())
    x = x[0] if isinstance(x, tuple) else x
    y = layout.position().y() + line.y() + line.height() / 2
    return QPoint(origin.x() + round(x), origin.y() + round(y))


def drag(qtbot, window: MainWindow, start: QPoint, end: QPoint) -> None:
    viewport = window.view.viewport()
    qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(viewport, pos=(start + end) / 2)
    qtbot.mouseMove(viewport, pos=end)
    qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=end)
