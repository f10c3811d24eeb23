"""The main window's size and panels: remembered per data directory, and the side
panels folded away when the window is narrow."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QMainWindow

NARROW_WIDTH = 760
SIDE_WIDTHS = (250, 380)  # the conversation list and the inspector, side by side


def restore_geometry(window: QMainWindow, settings: QSettings) -> None:
    geometry = settings.value("window/geometry")
    if geometry is not None:
        window.restoreGeometry(geometry)  # type: ignore[arg-type]
    else:
        window.resize(1280, 720)
    state = settings.value("window/state")
    if state is not None:
        window.restoreState(state)  # type: ignore[arg-type]


def fit_to_screen(window: QMainWindow) -> None:
    """Keep the window on its screen: a size remembered from a larger screen (or the
    1280×720 default on a small one) is cut to the screen's free area, and moved inside it."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return
    area = screen.availableGeometry()
    width, height = min(window.width(), area.width()), min(window.height(), area.height())
    if (width, height) != (window.width(), window.height()):
        window.resize(width, height)
    x = min(max(window.x(), area.left()), area.right() + 1 - width)
    y = min(max(window.y(), area.top()), area.bottom() + 1 - height)
    if (x, y) != (window.x(), window.y()):
        window.move(x, y)


def save_geometry(window: QMainWindow, settings: QSettings) -> None:
    settings.setValue("window/geometry", window.saveGeometry())
    settings.setValue("window/state", window.saveState())


class DockFolding:
    """Below `NARROW_WIDTH` the side panels fold away (the View menu brings them back);
    wider again, those that were open come back."""

    def __init__(self, window: QMainWindow, docks: Sequence[QDockWidget]) -> None:
        self._window = window
        self._docks = list(docks)
        self._narrow = False
        self._before: dict[str, bool] = {}
        self._tabbed: list[QDockWidget] = []  # fold too, but keep their own widths
        self.spread()

    def also_fold(self, dock: QDockWidget) -> None:
        """Fold `dock` (a tab beside a side panel) with the side panels."""
        self._tabbed.append(dock)

    def spread(self) -> None:
        self._window.resizeDocks(self._docks, list(SIDE_WIDTHS), Qt.Orientation.Horizontal)

    def apply(self, width: int) -> None:
        narrow = width < NARROW_WIDTH
        if narrow == self._narrow:
            return
        self._narrow = narrow
        for dock in self._docks + self._tabbed:
            if narrow:
                # A tab behind another is not visible but still open: its menu entry says.
                self._before[dock.objectName()] = dock.isVisible() if dock in self._docks \
                    else dock.toggleViewAction().isChecked()
                dock.hide()
            elif self._before.get(dock.objectName(), True):
                dock.show()
        if not narrow:
            self.spread()
