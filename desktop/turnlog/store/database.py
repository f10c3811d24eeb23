"""`Database`: an opened data directory's own SQLite connection, and the checks every
part's write needs (faults named, writes refused on a read-only or damaged store).

Every part of a store (`store.conversations`, `store.turns`, ...) is given this object
and runs its queries against `database.db`; nothing is bound process-wide.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import peewee

from ..config.paths import DB_NAME
from ..core.failures import StoreError
from .errors import STORE_EXCEPTIONS, DatabaseCorrupt, DiskFull, classify
from .schema_version import current_version

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from typing import Protocol

log = logging.getLogger(__name__)


if TYPE_CHECKING:  # a type only: the writer's lock of `store.log`

    class Lock(Protocol):
        def release(self) -> None: ...


class Database:
    """The connection of one opened data directory (`home`), and whether it may write
    (it holds the directory's writer `lock`)."""

    def __init__(self, home: Path, db: peewee.SqliteDatabase, lock: Lock | None) -> None:
        self.home = home
        self.path = home / DB_NAME
        self.db = db
        self.lock = lock
        self.checked = False
        self.damage: DatabaseCorrupt | None = None

    @property
    def writable(self) -> bool:
        return self.lock is not None

    @property
    def immutable(self) -> bool:
        """Opened as a settled file in a read-only folder (`files.settled`)."""
        return "immutable=1" in self.db.database

    @contextmanager
    def guard(self) -> Iterator[None]:
        """SQLite's environment faults (full, locked, damaged, ...) raised as the named
        `StoreError`s; anything else goes on as the bug it is."""
        try:
            yield
        except StoreError:
            raise
        except STORE_EXCEPTIONS as err:
            known = classify(err, str(self.path))
            if known is None:
                raise  # not the environment: a bug, for the crash report
            raise known from err

    def need_writer(self) -> None:
        """Before every write: refused on a read-only store or a damaged file; the first
        write of a session checks the file first (`check_sound`)."""
        if self.lock is None:
            raise StoreError("This store was opened read-only.")
        if self.damage is not None:
            raise self.damage
        if not self.checked:
            self.check_sound()

    def check_sound(self) -> None:
        """`PRAGMA quick_check`, and a write that is rolled back (a read-only file passes
        every read). A damaged file raises `DatabaseCorrupt`, and every later write is
        refused with it: nothing is ever written into a damaged log."""
        if self.lock is None:
            raise StoreError("This store was opened read-only.")
        if self.damage is not None:
            raise self.damage
        try:
            with self.guard():
                found = [str(r[0]) for r in self.db.execute_sql("PRAGMA quick_check").fetchall()]
        except DatabaseCorrupt as err:
            self.damage = err
            raise
        if found != ["ok"]:
            self.damage = DatabaseCorrupt(
                f"The database {self.path} is damaged ({'; '.join(found[:3])}); nothing will "
                "be written into it. Export what can be read (turnlog-cli export) and open "
                "the folder to move it aside."
            )
            raise self.damage
        with self.guard(), self.db.atomic("IMMEDIATE") as probe:
            version = current_version(self.db)
            self.db.execute_sql(f"PRAGMA user_version = {version}")
            probe.rollback()
        self.checked = True

    def ensure_room(self, expected_bytes: int) -> None:
        """Raise `DiskFull` when the disk holding the data directory has less free space
        than a commit of `expected_bytes` takes (checked before a request is sent)."""
        try:
            stat = os.statvfs(self.home)
        except OSError:
            return  # the commit itself will name whatever is wrong
        free = stat.f_bavail * stat.f_frsize
        if free < expected_bytes:
            raise DiskFull(
                f"The disk holding {self.path} is full: {free // 1024:,} KiB free, and saving "
                f"the answer needs about {expected_bytes // 1024:,} KiB. Nothing was sent.")

    def checkpoint(self) -> bool:
        """Push committed pages into the main file and truncate the WAL. False when a
        reader kept it from finishing (SQLite then reports it busy)."""
        row = self.db.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return row is None or row[0] == 0  # (busy, log pages, checkpointed pages)

    def close(self) -> None:
        """Checkpoint (a writer), close and release the lock. Never raises: a fault here
        (a read-only file, a full disk) is logged, the committed data is safe in the WAL."""
        try:
            if not self.db.is_closed():
                if self.lock is not None:
                    try:
                        self.db.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")
                    except STORE_EXCEPTIONS as err:
                        log.info("Could not checkpoint %s on close: %s", self.path, err)
                try:
                    self.db.close()
                except STORE_EXCEPTIONS as err:
                    log.info("Could not close %s cleanly: %s", self.path, err)
        finally:
            if self.lock is not None:
                self.lock.release()
                self.lock = None
