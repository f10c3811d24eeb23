"""The log and its derived data, in one SQLite file (peewee)."""

from .errors import AlreadyOpen, DatabaseCorrupt, DatabaseLocked, DiskFull, NotFound
from .log import TurnlogStore

__all__ = [
    "AlreadyOpen",
    "DatabaseCorrupt",
    "DatabaseLocked",
    "DiskFull",
    "NotFound",
    "TurnlogStore",
]
