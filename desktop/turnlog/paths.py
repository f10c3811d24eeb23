"""Where Turnlog keeps its files."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

ENV_HOME = "TURNLOG_HOME"
DB_NAME = "turnlog.sqlite3"
LOCK_NAME = "turnlog.lock"


def data_dir() -> Path:
    """The user's data directory, or `$TURNLOG_HOME` (tests, portable use). Created on demand."""
    override = os.environ.get(ENV_HOME)
    path = Path(override) if override else Path(platformdirs.user_data_dir("turnlog", False))
    path.mkdir(parents=True, exist_ok=True)
    return path


def database_path(home: Path | None = None) -> Path:
    return (home or data_dir()) / DB_NAME


def log_dir(home: Path | None = None) -> Path:
    path = (home or data_dir()) / "logs"
    path.mkdir(parents=True, exist_ok=True)
    return path
