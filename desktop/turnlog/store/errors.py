"""Known storage faults as named errors with words a person can act on."""

from __future__ import annotations

import sqlite3

import peewee

from ..core.failures import FailureKind
from ..core.send import StoreError


class AlreadyOpen(StoreError):
    """Another Turnlog process holds this data directory for writing."""


class DatabaseLocked(StoreError):
    """SQLite stayed busy past the timeout."""


class DatabaseCorrupt(StoreError):
    """The file is not a readable Turnlog database."""


class DiskFull(StoreError):
    """The disk (or quota) is full."""


class SchemaTooNew(StoreError):
    """The database was written by a newer Turnlog."""


class NotFound(StoreError):
    """A conversation or turn that does not exist (or was deleted)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, kind=FailureKind.CONVERSATION_GONE)


class TurnIdConflict(StoreError):
    """The same turn id was committed twice with different text."""


def translate(err: Exception, path: str) -> StoreError:
    """Map a sqlite/peewee exception to a named error; unknown faults keep their text."""
    text = str(err)
    low = text.lower()
    if "locked" in low or "busy" in low:
        return DatabaseLocked(
            f"The database {path} stayed locked by another program for too long. "
            "Close other programs using it and try again."
        )
    if "not a database" in low or "malformed" in low or "corrupt" in low:
        return DatabaseCorrupt(
            f"The database {path} is damaged or not a Turnlog database ({text}). "
            "Restore it from a backup or move it aside to start fresh."
        )
    if "full" in low or "no space" in low:
        return DiskFull(
            f"The disk holding {path} is full. Free some space and try again; nothing was lost."
        )
    if "readonly" in low or "read-only" in low or "permission" in low:
        return StoreError(f"The database {path} cannot be written ({text}). Check its permissions.")
    return StoreError(f"Database error in {path}: {text}")


STORE_EXCEPTIONS = (peewee.PeeweeException, sqlite3.Error, OSError)
