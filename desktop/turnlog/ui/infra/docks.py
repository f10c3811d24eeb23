"""A panel of the window as a dock: named, so the saved layout keeps its place."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QChildEvent, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QFrame, QMainWindow, QScrollArea, QTabBar, QWidget
from shiboken6 import getCppPointer

_WATCHED = "turnlogTabClicksWatched"  # set on a tab bar whose clicks are told of


def add_dock(window: QMainWindow, title: str, name: str, widget: QWidget,
             area: Qt.DockWidgetArea, *, scrolls: bool = False) -> QDockWidget:
    """A dock named `name` (kept in the saved layout) holding `widget`, in `area`; with
    `scrolls`, inside a scroll area, so a panel taller than a small screen's dock scrolls
    instead of spilling over the dock's tabs and the status bar."""
    dock = QDockWidget(title, window)
    dock.setObjectName(name)
    if scrolls:
        holder = QScrollArea(dock)
        holder.setFrameShape(QFrame.Shape.NoFrame)
        holder.setWidgetResizable(True)
        holder.setWidget(widget)
        widget = holder
    dock.setWidget(widget)
    dock.setAccessibleName(title)
    features = QDockWidget.DockWidgetFeature
    dock.setFeatures(features.DockWidgetClosable | features.DockWidgetMovable
                     | features.DockWidgetFloatable)
    window.addDockWidget(area, dock)
    return dock


def panel_toggle(dock: QDockWidget, text: str, shortcut: str,
                 on_shown: Callable[[], object]) -> QAction:
    """A View menu entry for `dock`, ticked while the dock is shown (however it was closed,
    the tick goes with it). Chosen while unticked, or while the dock hides behind another
    tab, it brings the dock to the front and calls `on_shown`; chosen while the dock is in
    front, it closes the dock."""
    action = QAction(text, dock.parent())
    action.setShortcut(shortcut)
    action.setCheckable(True)
    action.setChecked(dock.toggleViewAction().isChecked())
    dock.toggleViewAction().toggled.connect(action.setChecked)  # Qt keeps it to show/hide

    def chosen(checked: bool) -> None:
        if not checked and dock.visibleRegion().isEmpty() and dock.isVisible():
            action.setChecked(True)  # behind another tab: brought forward, not closed
            checked = True
        if checked:
            dock.show()
            dock.raise_()
            on_shown()
        else:
            dock.hide()

    action.triggered.connect(chosen)
    return action


class FrontTabClicks(QObject):
    """`clicked(dock)` at a click on the tab of a dock stacked with others in `window`
    while that tab is already in front: Qt tells only of a change of tab
    (`tabifiedDockWidgetActivated`), yet a person clicks the tab in front to work in it."""

    clicked = Signal(QDockWidget)

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self._window = window
        # Qt makes the bars of stacked docks as they are needed (a dock dragged to
        # another stack), each a child of the window
        for bar in window.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly):
            self._watch(bar)
        window.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.ChildPolished and isinstance(event, QChildEvent)
                and isinstance(event.child(), QTabBar)):
            self._watch(event.child())  # type: ignore[arg-type]
        return False

    def _watch(self, bar: QTabBar) -> None:
        if bar.property(_WATCHED):
            return
        bar.setProperty(_WATCHED, True)
        bar.tabBarClicked.connect(lambda index: self._tab_clicked(bar, index))

    def _tab_clicked(self, bar: QTabBar, index: int) -> None:
        if index < 0 or index != bar.currentIndex():
            return  # another tab chosen: Qt tells of it
        shown = bar.tabData(index)  # Qt keeps the address of each tab's dock with it
        for dock in self._window.findChildren(QDockWidget):
            if getCppPointer(dock)[0] == shown:
                self.clicked.emit(dock)
                return
