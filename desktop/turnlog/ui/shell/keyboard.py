"""The keyboard opens a list's context menu as a right click does: Shift+F10 and the Menu
key on the history open the focused turn's menu (copy, regenerate, fork, delete …), on the
conversation list the focused conversation's. Esc cancels a running send wherever the
focus is in the window."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, Qt, SignalInstance
from PySide6.QtGui import QAction, QContextMenuEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractItemView, QApplication, QWidget


def opens_menu(event: QKeyEvent) -> bool:
    """Whether `event` is the Menu key or Shift+F10."""
    modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    return event.key() == Qt.Key.Key_Menu or (
        event.key() == Qt.Key.Key_F10 and modifiers == Qt.KeyboardModifier.ShiftModifier)


def open_context_menu(view: QAbstractItemView) -> None:
    """Open `view`'s context menu beside its current row (its top left without one)."""
    viewport = view.viewport()
    index = view.currentIndex()
    if index.isValid():
        view.scrollTo(index)
        rect = view.visualRect(index)
        point = QPoint(rect.left() + 24, rect.top() + min(rect.height() // 2, 24))
    else:
        point = QPoint(24, 24)
    inside = viewport.rect()
    point = QPoint(min(max(point.x(), 0), max(inside.width() - 1, 0)),
                   min(max(point.y(), 0), max(inside.height() - 1, 0)))
    event = QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, point,
                              viewport.mapToGlobal(point))
    QApplication.sendEvent(viewport, event)


class KeyboardMenus(QObject):
    """Watches `views` for Shift+F10 and the Menu key."""

    def __init__(self, *views: QAbstractItemView) -> None:
        super().__init__(views[0])
        self.views = views
        for view in views:
            view.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if (event.type() == QEvent.Type.KeyPress and watched in self.views
                and isinstance(event, QKeyEvent) and opens_menu(event)):
            assert isinstance(watched, QAbstractItemView)
            open_context_menu(watched)
            return True
        return False


def escape_stops(window: QWidget, running_changed: SignalInstance,
                 stop: Callable[[], None]) -> QAction:
    """Esc cancels a running send wherever the focus is in `window`, as the composer says
    ("Esc or Stop to cancel"); while nothing runs, Esc is the focused widget's own."""
    action = QAction(QCoreApplication.translate("Keyboard", "Stop the running request"), window)
    action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
    action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    action.setEnabled(False)
    action.triggered.connect(stop)
    running_changed.connect(action.setEnabled)
    window.addAction(action)
    return action
