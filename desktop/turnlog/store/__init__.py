"""The log and its derived data, in one SQLite file (peewee)."""

from .errors import (
    AlreadyOpen,
    CannotOpen,
    DatabaseCorrupt,
    DatabaseLocked,
    DatabaseReadOnly,
    DiskFull,
    DiskIOError,
    NotFound,
    SchemaTooNew,
    UpgradeFailed,
)
from .files import erase_pending
from .log import TurnlogStore

__all__ = [
    "AlreadyOpen",
    "CannotOpen",
    "DatabaseCorrupt",
    "DatabaseLocked",
    "DatabaseReadOnly",
    "DiskFull",
    "DiskIOError",
    "NotFound",
    "SchemaTooNew",
    "TurnlogStore",
    "erase_pending",
    "UpgradeFailed",
]
