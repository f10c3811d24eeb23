"""`Database`: an opened data directory's own SQLite connection, and the checks every
part's write needs (faults named, writes refused on a read-only or damaged store).

Every part of a store (`store.conversations`, `store.turns`, ...) is given this object
and runs its queries against `database.db`; nothing is bound process-wide. The check of
the whole file (`check_file`) reads it on a connection of its own, so it can run on a
thread of its own while the store's reads go on; writes wait for its verdict.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import peewee

from ..config.paths import DB_NAME
from ..core.failures import StoreError
from .errors import STORE_EXCEPTIONS, DatabaseCorrupt, DiskFull, classify
from .files import reading_database
from .schema_version import current_version

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from typing import Protocol

log = logging.getLogger(__name__)

# SQLite's steps between two looks at whether a check is to stop (the store closes, the
# window ends): a few milliseconds of a check's work.
CHECK_STEPS = 1000
CLOSE_WAIT_S = 10.0  # a close waits this long at most for a check it interrupted


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
        self.checked = False  # the whole file and a rolled-back write (`check_sound`)
        self.file_checked = False  # the whole file found sound (`check_file`)
        self.damage: DatabaseCorrupt | None = None
        # Held while the whole file is checked: a write waits for the check's verdict.
        self._checking = threading.Lock()
        self._closing = False
        # A test holds a check in progress here: called between SQLite's steps of one.
        self.on_check_step: Callable[[], object] | None = None

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
        """Before every write: refused on a read-only store or a damaged file; a write
        waits for a check of the file in progress, and the first write of a session checks
        the file first (`check_sound`)."""
        if self.lock is None:
            raise StoreError("This store was opened read-only.")
        with self._checking:  # a check of the whole file in progress: its verdict first
            pass
        if self.damage is not None:
            raise self.damage
        if not self.checked:
            self.check_sound()

    def check_sound(self) -> None:
        """The whole file checked (`check_file`, once a session: one in progress on another
        thread is waited for), and a write that is rolled back (a read-only file passes
        every read). A damaged file raises `DatabaseCorrupt`."""
        if self.lock is None:
            raise StoreError("This store was opened read-only.")
        if not self._read_through(once=True):
            raise StoreError(f"The database {self.path} was closed before it was checked.")
        with self.guard(), self.db.atomic("IMMEDIATE") as probe:
            version = current_version(self.db)
            self.db.execute_sql(f"PRAGMA user_version = {version}")
            probe.rollback()
        self.checked = True

    def check_file(self, stop: Callable[[], bool] = lambda: False) -> bool:
        """`PRAGMA quick_check` of the whole file, on a read connection of its own: seconds
        for a large log read from disk the first time, while the store's reads go on on
        their connections and its writes wait for the verdict (`need_writer`). A damaged
        file raises `DatabaseCorrupt`, and every later write is refused with it: nothing is
        ever written into a damaged log. False when `stop()` or a close ended it first
        (no verdict: the first write checks again)."""
        if self.lock is None:
            raise StoreError("This store was opened read-only.")
        return self._read_through(stop=stop)

    def _read_through(self, *, once: bool = False,
                      stop: Callable[[], bool] = lambda: False) -> bool:
        with self._checking:
            if self.damage is not None:
                raise self.damage
            if self._closing:
                return False
            if once and self.file_checked:
                return True
            found = self._quick_check(stop)
            if found is None:
                return False
            if found != ["ok"]:
                self.damage = DatabaseCorrupt(
                    f"The database {self.path} is damaged ({'; '.join(found[:3])}); nothing "
                    "will be written into it. Export what can be read (turnlog-cli export) "
                    "and open the folder to move it aside."
                )
                raise self.damage
            self.file_checked = True
            return True

    def _quick_check(self, stop: Callable[[], bool]) -> list[str] | None:
        """What `PRAGMA quick_check` finds, or None when a close or `stop()` interrupted it
        (SQLite's progress handler asks between its steps)."""
        stopped = False

        def step() -> bool:
            nonlocal stopped
            if self.on_check_step is not None:
                self.on_check_step()
            stopped = stopped or self._closing or stop()
            return stopped

        reader = reading_database(self.path)
        try:
            with self.guard():
                try:
                    reader.connection().set_progress_handler(step, CHECK_STEPS)
                    return [str(r[0]) for r in reader.execute_sql("PRAGMA quick_check")]
                except STORE_EXCEPTIONS:
                    if stopped or self._closing:
                        return None  # interrupted: no verdict
                    raise
        except DatabaseCorrupt as err:
            self.damage = err
            raise
        finally:
            try:
                reader.close()
            except STORE_EXCEPTIONS as err:
                log.info("Could not close the check's connection to %s: %s", self.path, err)

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
        """Stop a check in progress, checkpoint (a writer), close and release the lock.
        Never raises: a fault here (a read-only file, a full disk) is logged, the committed
        data is safe in the WAL."""
        self._closing = True  # a check in progress stops at its next step
        if self._checking.acquire(timeout=CLOSE_WAIT_S):
            self._checking.release()
        else:
            log.warning("The check of %s did not stop within %.0f s", self.path, CLOSE_WAIT_S)
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
