"""Clicking the version words in a row's header, and the newest row."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QStyleOptionViewItem

from turnlog.ui.shell.window import MainWindow


def last_row(window: MainWindow) -> int:
    return window.transcript.rowCount() - 1


def control_point(window: MainWindow, row: int, name: str) -> QPoint:
    view = window.view
    index = window.transcript.index(row)
    option = QStyleOptionViewItem()
    view.initViewItemOption(option)
    option.rect = view.visualRect(index)
    for found, _text, rect in view.delegate.header_controls(option, index):
        if found == name:
            return rect.center()
    raise AssertionError(f"no {name} in row {row}")


def click(qtbot, window: MainWindow, row: int, name: str) -> None:
    window.view.scrollTo(window.transcript.index(row))
    qtbot.mouseClick(window.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=control_point(window, row, name))
