"""An answer so far offered by the banner, and clicking its buttons."""

from __future__ import annotations

from PySide6.QtCore import Qt

from turnlog.ui.shell.window import MainWindow


def offered(window: MainWindow) -> bool:
    banner = window.banner
    return banner.isVisible() and banner.keep_button.isVisibleTo(window) \
        and banner.continue_button.isVisibleTo(window)


def click_button(qtbot, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
