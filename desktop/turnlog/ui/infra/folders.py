"""Showing a folder of the data directory in the desktop's file manager."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices


def open_folder(folder: Path) -> bool:
    """Show `folder` in the desktop's file manager."""
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))
