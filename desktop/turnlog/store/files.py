"""The data directory's files on disk: private to their owner, and opened for reading
without changing a byte."""

from __future__ import annotations

import errno
import logging
import os
import stat
from collections.abc import Iterable
from contextlib import suppress
from pathlib import Path
from urllib.parse import quote

import peewee

from ..config.paths import ERASE_PENDING_NAME
from .errors import CannotOpen, LinkRefused

log = logging.getLogger(__name__)
PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600

READ_PRAGMAS = {
    # Nothing that persists in the file (no journal_mode, no secure_delete): a reader
    # must leave the database byte-identical.
    "foreign_keys": 1,
    "busy_timeout": 5000,
    "query_only": 1,
}


def erase_pending(home: Path) -> bool:
    """Whether a privacy delete in `home` was committed but not yet erased from the disk
    (a run died in between; the next writer finishes it)."""
    return (home / ERASE_PENDING_NAME).exists()


def refuse_links(home: Path, names: Iterable[str]) -> None:
    """Raise `LinkRefused` if any of `names` in `home` is a symbolic link (dangling or
    not): the database and the files SQLite and the lock keep beside it."""
    for name in names:
        path = home / name
        if path.is_symlink():
            try:
                target = os.readlink(path)
            except OSError:
                target = "somewhere"
            raise LinkRefused(f"{path} is a symbolic link (to {target}); Turnlog does not "
                              "follow links in its data folder.")


def refuse_folder(path: Path) -> None:
    """Raise `CannotOpen` if the database's path is a folder: a reader and a writer say
    the same (SQLite alone would say "disk I/O error" to one, "cannot open" to the other)."""
    if path.is_dir():
        raise CannotOpen(f"The database {path} cannot be opened: it is a folder, not a "
                         "database file.")


def open_no_link(path: Path, flags: int, mode: int = 0o600) -> int:
    """`os.open` that refuses a symbolic link at `path` (one made since `refuse_links`)."""
    try:
        return os.open(path, flags | os.O_NOFOLLOW, mode)
    except OSError as err:
        if err.errno == errno.ELOOP:
            refuse_links(path.parent, [path.name])
            raise LinkRefused(f"{path} is a symbolic link; Turnlog does not follow links "
                              "in its data folder.") from None
        raise


def reading_database(path: Path, *, immutable: bool = False) -> peewee.SqliteDatabase:
    """A connection that cannot write: SQLite's `mode=ro` (so it never creates the file or
    changes its header) plus `query_only`. `immutable` also skips the `-shm` file a WAL
    database needs, which a read-only folder cannot hold (see `settled`)."""
    uri = f"file:{quote(str(path))}?mode=ro" + ("&immutable=1" if immutable else "")
    return peewee.SqliteDatabase(uri, uri=True, pragmas=READ_PRAGMAS, check_same_thread=False)


def settled(path: Path) -> bool:
    """Whether everything committed is in the main file (no `-wal` with frames in it), so
    it may be read as immutable: in a read-only folder no writer can add a `-wal` either."""
    try:
        return os.stat(f"{path}-wal").st_size == 0
    except FileNotFoundError:
        return True
    except OSError:
        return False


def make_private(home: Path) -> list[Path]:
    """Make the data directory 0700 and every file in it (and in its folders, such as
    `logs/`) 0600, fixing those an older version left readable by others. Returns what
    was changed. A file that cannot be changed is logged and skipped."""
    changed: list[Path] = []
    todo = [home]
    while todo:
        folder = todo.pop()
        _set_mode(folder, PRIVATE_DIR, changed)
        try:
            entries = list(os.scandir(folder))
        except OSError as err:
            log.warning("Could not list %s to make it private: %s", folder, err)
            continue
        for entry in entries:
            with suppress(OSError):
                if entry.is_dir(follow_symlinks=False):
                    todo.append(Path(entry.path))
                elif entry.is_file(follow_symlinks=False):
                    _set_mode(Path(entry.path), PRIVATE_FILE, changed)
    return changed


def _set_mode(path: Path, mode: int, changed: list[Path]) -> None:
    try:
        current = stat.S_IMODE(os.lstat(path).st_mode)
        if current & ~mode:
            os.chmod(path, current & mode)
            changed.append(path)
    except OSError as err:
        log.warning("Could not make %s private: %s", path, err)
