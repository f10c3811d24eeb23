"""A panel of the window as a dock: named, so the saved layout keeps its place."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QFrame, QMainWindow, QScrollArea, QWidget


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
