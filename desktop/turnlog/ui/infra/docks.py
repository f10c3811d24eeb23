"""A panel of the window as a dock: named, so the saved layout keeps its place."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget


def add_dock(window: QMainWindow, title: str, name: str, widget: QWidget,
             area: Qt.DockWidgetArea) -> QDockWidget:
    """A dock named `name` (kept in the saved layout) holding `widget`, in `area`."""
    dock = QDockWidget(title, window)
    dock.setObjectName(name)
    dock.setWidget(widget)
    dock.setAccessibleName(title)
    features = QDockWidget.DockWidgetFeature
    dock.setFeatures(features.DockWidgetClosable | features.DockWidgetMovable
                     | features.DockWidgetFloatable)
    window.addDockWidget(area, dock)
    return dock
