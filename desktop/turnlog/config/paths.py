"""Where Turnlog keeps its files."""

from __future__ import annotations

import errno
import os
from pathlib import Path

ENV_HOME = "TURNLOG_HOME"
DB_NAME = "turnlog.sqlite3"
LOG_NAME = "turnlog.log"
LOCK_NAME = "turnlog.lock"
# Present from just before a privacy delete commits until its text is erased from the disk.
ERASE_PENDING_NAME = "turnlog.erase-pending"
PRIVATE_UMASK = 0o077
"""Set at start by the window and the CLI: every file Turnlog creates (the database and
its -wal/-shm, window.ini, logs) is readable by its owner only."""


def data_dir_path() -> Path:
    """Where the data directory is, without creating it (for `turnlog --version`)."""
    override = os.environ.get(ENV_HOME)
    if override:
        return Path(override)
    import platformdirs  # the platform's conventions: only where no folder is named

    return Path(platformdirs.user_data_dir("turnlog", False))


def data_dir() -> Path:
    """The user's data directory, or `$TURNLOG_HOME` (tests, portable use). Created on
    demand; `NotADirectoryError` (a storage fault by name, `storage_cannot_open`) when the
    path is a file, or a folder on the way to it is."""
    path = data_dir_path()
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise NotADirectoryError(errno.ENOTDIR, "it is a file, not a folder: move the file "
                                 f"aside, or set {ENV_HOME} to a folder", str(path)) from None
    return path


def database_path(home: Path | None = None) -> Path:
    return (home or data_dir()) / DB_NAME


def log_dir(home: Path | None = None) -> Path:
    path = (home or data_dir()) / "logs"
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def log_file(home: Path) -> Path:
    """The application log (rotated); its folder is created by `log_dir`."""
    return home / "logs" / LOG_NAME


def write_atomically(path: Path, text: str, *, prefix: str) -> None:
    """Write `text` to `path` through a synced temporary file (`prefix` names it) moved
    into place: a reader sees the old file or the new one, never half of one."""
    import tempfile  # a writer's (with its `random`): reading commands write nothing

    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=prefix, suffix=path.suffix, dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
