"""Storage faults by name, told apart by SQLite's result code (never by the wording).

The environment can fail in a handful of ways a person can act on: the file is
locked by another program, the disk is full, the file or folder is read-only, the
file is damaged or not a database, it cannot be opened, or the disk reports an I/O
error. Each becomes a named `StoreError` with a hint. Any other error is a bug in
Turnlog: `classify` returns `None` for it and the caller re-raises the original, so
it reaches the crash report instead of reading as "Could not save".
"""

from __future__ import annotations

import errno
import sqlite3

import peewee

from ..core.failures import FailureKind, StoreError


class KnownStoreFault(StoreError):
    """A fault of the environment, not of Turnlog; `hint` is the next step for a person."""

    hint = ""

    def __init__(self, message: str) -> None:
        super().__init__(f"{message} {self.hint}".strip())


class AlreadyOpen(StoreError):
    """Another Turnlog process holds this data directory for writing."""

    code = "storage_in_use"


class DatabaseLocked(KnownStoreFault):
    """SQLite stayed busy past the timeout."""

    code = "storage_locked"
    hint = "Close other programs using it and try again."


class DatabaseCorrupt(KnownStoreFault):
    """The file is not a readable Turnlog database."""

    code = "storage_damaged"
    hint = "Restore it from a backup or move it aside to start fresh."


class DiskFull(KnownStoreFault):
    """The disk (or quota) is full."""

    code = "storage_full"
    hint = "Free some space and try again; nothing was lost."


class DatabaseReadOnly(KnownStoreFault):
    """The file, its folder or the file system does not allow writing."""

    code = "storage_read_only"
    hint = "Check the permissions of the file and its folder, and that the disk is not read-only."


class CannotOpen(KnownStoreFault):
    """The file cannot be opened at all (missing folder, no access, too many files)."""

    code = "storage_cannot_open"
    hint = "Check that the data folder exists and that Turnlog may open files in it."


class DiskIOError(KnownStoreFault):
    """The operating system reported an I/O error while reading or writing."""

    code = "storage_io"
    hint = "The disk may be failing or was removed; check it, then try again."


class LinkRefused(KnownStoreFault):
    """A file of the data directory is a symbolic link: writing would go wherever it
    points (another data directory, any file), so Turnlog opens nothing through it."""

    code = "storage_symlink"
    hint = ("Put the database file itself in the data folder, or set TURNLOG_HOME to the "
            "folder that holds it.")


class SchemaTooNew(StoreError):
    """The database was written by a newer Turnlog."""

    code = "storage_too_new"


class NeedsUpgrade(StoreError):
    """A read-only command met a database of an older schema: only a writer upgrades it."""

    code = "storage_needs_upgrade"


class UpgradeFailed(StoreError):
    """Bringing an older database to this version's schema failed; the copy made before
    the upgrade was kept (`backup`)."""

    def __init__(self, message: str, backup: str) -> None:
        super().__init__(message)
        self.backup = backup


class NotFound(StoreError):
    """A conversation or turn that does not exist (or was deleted)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, kind=FailureKind.CONVERSATION_GONE)


class FolderNotFound(NotFound):
    """A folder that does not exist (or was removed)."""

    code = "folder_not_found"


class FolderNameRefused(StoreError):
    """A folder name that cannot be used: empty, too long, holding control characters,
    or already the name of another folder."""

    code = "folder_name_refused"


class TurnIdConflict(StoreError):
    """The same turn id was committed twice with different text."""


class SyncRecordInvalid(StoreError):
    """A change record from another machine that is not one this version can apply (a
    wrong type, a bound passed, an unknown kind, a record about a conversation or turn
    never seen): none of its batch was applied."""

    code = "sync_record_invalid"


# Primary result codes (the low byte of an extended code), from sqlite3.h.
SQLITE_PERM, SQLITE_BUSY, SQLITE_LOCKED, SQLITE_READONLY = 3, 5, 6, 8
SQLITE_IOERR, SQLITE_CORRUPT, SQLITE_FULL, SQLITE_CANTOPEN, SQLITE_NOTADB = 10, 11, 13, 14, 26

_BY_CODE: dict[int, tuple[type[KnownStoreFault], str]] = {
    SQLITE_BUSY: (DatabaseLocked, "The database {path} stayed locked by another program for "
                                  "too long."),
    SQLITE_LOCKED: (DatabaseLocked, "The database {path} stayed locked by another program for "
                                    "too long."),
    SQLITE_FULL: (DiskFull, "The disk holding {path} is full."),
    SQLITE_READONLY: (DatabaseReadOnly, "The database {path} cannot be written ({detail})."),
    SQLITE_PERM: (DatabaseReadOnly, "The database {path} cannot be written ({detail})."),
    SQLITE_CORRUPT: (DatabaseCorrupt, "The database {path} is damaged or not a Turnlog "
                                      "database ({detail})."),
    SQLITE_NOTADB: (DatabaseCorrupt, "The database {path} is damaged or not a Turnlog "
                                     "database ({detail})."),
    SQLITE_CANTOPEN: (CannotOpen, "The database {path} cannot be opened ({detail})."),
    SQLITE_IOERR: (DiskIOError, "Reading or writing the database {path} failed ({detail})."),
}

_BY_ERRNO: dict[int, int] = {
    errno.ENOSPC: SQLITE_FULL,
    errno.EDQUOT: SQLITE_FULL,
    errno.EROFS: SQLITE_READONLY,
    errno.EACCES: SQLITE_READONLY,
    errno.EPERM: SQLITE_READONLY,
    errno.EIO: SQLITE_IOERR,
    errno.EMFILE: SQLITE_CANTOPEN,
    errno.ENFILE: SQLITE_CANTOPEN,
    errno.ENOTDIR: SQLITE_CANTOPEN,  # a file where a folder of the path should be
}


def sqlite_errors_of(err: BaseException) -> list[sqlite3.Error]:
    """Every `sqlite3.Error` behind `err`, nearest first: itself, the one peewee wrapped
    (its first argument), and those it was raised from or while handling."""
    seen: set[int] = set()
    found: list[sqlite3.Error] = []
    todo: list[BaseException | None] = [err]
    while todo:
        current = todo.pop(0)
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, sqlite3.Error):
            found.append(current)
        if isinstance(current, peewee.PeeweeException) and current.args:
            first = current.args[0]
            todo.append(first if isinstance(first, BaseException) else None)
        todo += [current.__cause__, current.__context__]
    return found


def _known(err: BaseException) -> tuple[int, sqlite3.Error | None] | None:
    """The first fault of the environment behind `err`. SQLite rolls a transaction back by
    itself on a full disk or an I/O error, so the error on top may be the failed ROLLBACK
    that followed (`cannot rollback - no transaction is active`); the cause is below it."""
    if isinstance(err, OSError) and not isinstance(err, sqlite3.Error):
        code = _BY_ERRNO.get(err.errno or 0)
        return None if code is None else (code, None)
    for found in sqlite_errors_of(err):
        code = getattr(found, "sqlite_errorcode", None)
        if code is not None and int(code) & 0xFF in _BY_CODE:
            return int(code) & 0xFF, found
    return None


def result_code(err: BaseException) -> int | None:
    """SQLite's primary result code of the environment fault behind `err` (an OSError maps
    by errno), or `None` when there is none."""
    known = _known(err)
    return None if known is None else known[0]


def classify(err: BaseException, path: str) -> StoreError | None:
    """The named fault for `err`, or `None` when it is not a fault of the environment
    (a bug: the caller re-raises `err` unchanged)."""
    if isinstance(err, StoreError):
        return err
    known = _known(err)
    if known is None:
        return None
    code, found = known
    kind, text = _BY_CODE[code]
    if found is not None:
        detail = f"{found.sqlite_errorname}: {found}"
    else:
        detail = f"{type(err).__name__}: {err}"
    return kind(text.format(path=path, detail=detail))


def file_fault(err: OSError) -> StoreError | None:
    """The named fault for an `OSError` on a file of the data directory other than the
    database (the folder itself, `profiles.json`, a log), or `None` when the error is not
    one of the environment."""
    code = _BY_ERRNO.get(err.errno or 0)
    if code is None:
        return None
    kind = _BY_CODE[code][0]
    where = err.filename or "a file in the data directory"
    return kind(f"{where}: {err.strerror or err}.")


STORE_EXCEPTIONS = (peewee.PeeweeException, sqlite3.Error, OSError)
