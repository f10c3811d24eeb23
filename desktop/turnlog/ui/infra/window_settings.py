"""The window's own settings file, one per data directory."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings


def window_settings(home: Path) -> QSettings:
    """Window geometry and panel state, kept beside the database (not in the registry),
    so each data directory remembers its own layout."""
    return QSettings(str(home / "window.ini"), QSettings.Format.IniFormat)
