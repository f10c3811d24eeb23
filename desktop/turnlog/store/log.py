"""`TurnlogStore`: one opened data directory, the log and its derived data in one SQLite
file, and the parts that read and write it.

Opening gives the store its own connection (no process-global database): two data
directories can be open side by side. Only one process may open a data directory for
writing (an advisory lock file); readers never write.
"""

from __future__ import annotations

import fcntl
import logging
import os
from contextlib import suppress
from functools import cached_property
from pathlib import Path

import peewee

from ..config.paths import DB_NAME, ERASE_PENDING_NAME, LOCK_NAME
from .database import Database
from .errors import (
    SQLITE_CANTOPEN,
    SQLITE_READONLY,
    STORE_EXCEPTIONS,
    AlreadyOpen,
    NeedsUpgrade,
    NotFound,
    SchemaTooNew,
    classify,
    result_code,
)
from .files import (
    erase_pending,
    make_private,
    open_no_link,
    reading_database,
    refuse_folder,
    refuse_links,
    settled,
)
from .schema_version import SCHEMA_VERSION, Progress, current_version, table_names

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from .assistants import Assistants
    from .attached import Attachments
    from .conversations import Conversations
    from .folders import Folders
    from .forks import Forks
    from .importing import Imports
    from .memory import Memory
    from .privacy import Privacy
    from .records import Records
    from .searching import Search
    from .side import SideQuestions
    from .sync_feed import SyncFeed
    from .turns import Turns
    from .usage import UsageTotals

log = logging.getLogger(__name__)

PRAGMAS = {
    "journal_mode": "wal",
    "synchronous": 2,  # FULL: a committed turn survives power loss
    "foreign_keys": 1,
    "secure_delete": 1,  # deleted text is overwritten, not left in free pages
    "busy_timeout": 5000,
}


# The database, what SQLite keeps beside it, the writer's lock and the erase marker: never
# followed through a symbolic link.
DATA_FILES = (DB_NAME, f"{DB_NAME}-wal", f"{DB_NAME}-shm", f"{DB_NAME}-journal", LOCK_NAME,
              ERASE_PENDING_NAME)


def _create_private(path: Path) -> None:
    """Create the database file readable by its owner only; SQLite gives its `-wal` and
    `-shm` the same permissions."""
    with suppress(FileExistsError):
        os.close(open_no_link(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


class _WriterLock:
    """An advisory `flock` on `<data dir>/turnlog.lock` (it names the holder) and on the
    database file itself: deleting the lock file's path releases neither, so a second
    writer is refused all the same. Both are released when the process dies. (Not `fcntl`
    locks: SQLite's own close of the file would drop those.)"""

    def __init__(self, path: Path, db_path: Path) -> None:
        self.path = path
        self.db_path = db_path
        self._fds: list[int] = []

    def acquire(self) -> None:
        fd = open_no_link(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        if not self._take(fd):
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "another process"
            os.close(fd)
            raise self._held(holder)
        try:
            _create_private(self.db_path)
            db_fd = open_no_link(self.db_path, os.O_RDONLY)
        except BaseException:
            self.release()
            raise
        if not self._take(db_fd):
            os.close(db_fd)
            self.release()
            raise self._held("another process")
        with suppress(OSError):  # only informs the next one refused; a full disk may refuse
            os.ftruncate(fd, 0)
            os.write(fd, str(os.getpid()).encode())

    def _take(self, fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        self._fds.append(fd)
        return True

    def _held(self, holder: str) -> AlreadyOpen:
        return AlreadyOpen(
            f"Turnlog is already open with this data directory ({self.path.parent}, held by "
            f"process {holder}). Close the other window or command first."
        )

    def release(self) -> None:
        while self._fds:
            fd = self._fds.pop()
            with suppress(OSError):
                fcntl.flock(fd, fcntl.LOCK_UN)
            with suppress(OSError):
                os.close(fd)


class TurnlogStore:
    """One opened data directory: its database (`database`) and the parts that read and
    write it, named by what they hold, as Anki's collection hangs its decks and tags off
    itself: `conversations`, `turns`, `records`, `memory`, `side`, `search`, `forks`,
    `imports`, `privacy`, `attachments`, `assistants`, `folders`, `usage`. Open with
    `TurnlogStore.open(data_dir)`; close when done. Everything it does is done by a part
    (`store.turns.commit(...)`); core's store protocols name the parts they use."""

    def __init__(self, home: Path, db: peewee.SqliteDatabase, lock: _WriterLock | None) -> None:
        self.database = Database(home, db, lock)
        self.home = home
        self.path = self.database.path
        self.db = db

    # Each part is made, and its module loaded, on first use: a command that lists the
    # conversations loads neither the importers' writer nor the privacy deletes.
    @cached_property
    def conversations(self) -> Conversations:
        from .conversations import Conversations

        return Conversations(self.database)

    @cached_property
    def turns(self) -> Turns:
        from .turns import Turns

        return Turns(self.database, self.conversations)

    @cached_property
    def memory(self) -> Memory:
        from .memory import Memory

        return Memory(self.database, self.conversations)

    @cached_property
    def side(self) -> SideQuestions:
        from .side import SideQuestions

        return SideQuestions(self.database)

    @cached_property
    def search(self) -> Search:
        from .searching import Search

        return Search(self.database)

    @cached_property
    def attachments(self) -> Attachments:
        from .attached import Attachments

        return Attachments(self.database)

    @cached_property
    def forks(self) -> Forks:
        from .forks import Forks

        return Forks(self.database, self.conversations, self.turns, lambda: self.memory)

    @cached_property
    def imports(self) -> Imports:
        from .importing import Imports

        return Imports(self.database, self.conversations, self.turns, self.side, self.memory,
                       self.assistants)

    @cached_property
    def privacy(self) -> Privacy:
        from .privacy import Privacy

        return Privacy(self.database, self.conversations, self.turns, self.memory)

    @cached_property
    def assistants(self) -> Assistants:
        from .assistants import Assistants

        return Assistants(self.database, self.conversations, self.memory)

    @cached_property
    def folders(self) -> Folders:
        from .folders import Folders

        return Folders(self.database, lambda: self.privacy)

    @cached_property
    def usage(self) -> UsageTotals:
        from .usage import UsageTotals

        return UsageTotals(self.database)

    @cached_property
    def sync_feed(self) -> SyncFeed:
        """Sync's store side: this machine's change records, other machines' applied."""
        from .sync_feed import SyncFeed

        return SyncFeed(self.database, self.turns, lambda: self.privacy,
                        lambda: self.records.max_per_conversation)

    @cached_property
    def records(self) -> Records:
        """Request records and summaries, loaded by the first request or summary: a start
        that only reads the log does not load the request builder they are written by."""
        from .records import Records

        return Records(self.database)

    # ----------------------------------------------------------------- life cycle
    @classmethod
    def open(cls, home: Path, *, readonly: bool = False,
             progress: Progress | None = None) -> TurnlogStore:
        """Open (creating if needed) the database in `home`.

        A writer takes the data directory's lock and makes its files private. A `readonly`
        open uses SQLite's `mode=ro` and sets no persistent pragma: it never creates,
        upgrades or changes the file (an older schema is refused with `NeedsUpgrade`).
        `progress` hears (done, total) while an upgrade fills the search index.
        """
        path = home / DB_NAME
        lock = None
        try:
            refuse_links(home, DATA_FILES)
            refuse_folder(path)
            if readonly:
                if not path.exists():
                    raise NotFound(f"There is no Turnlog database in {home} yet.")
                db = reading_database(path)
            else:
                home.mkdir(mode=0o700, parents=True, exist_ok=True)
                make_private(home)
                lock = _WriterLock(home / LOCK_NAME, path)
                lock.acquire()
                db = peewee.SqliteDatabase(str(path), pragmas=PRAGMAS, check_same_thread=False)
                from . import search  # the search index's SQL functions: a writer's

                search.register(db)
            try:
                cls._connect(db, path, readonly, progress)
            except STORE_EXCEPTIONS as err:
                # A WAL database in a read-only folder: SQLite cannot make its `-shm`.
                # Nothing can be pending in a `-wal` there, so read the file as it is.
                if not readonly or result_code(err) not in (SQLITE_READONLY, SQLITE_CANTOPEN) \
                        or not settled(path):
                    raise
                db = reading_database(path, immutable=True)
                cls._connect(db, path, readonly)
        except BaseException as err:
            if lock:
                lock.release()
            known = classify(err, str(path)) if isinstance(err, STORE_EXCEPTIONS) else None
            if known is None or known is err:
                raise
            raise known from err
        store = cls(home, db, lock)
        if lock is not None and erase_pending(home):
            # A privacy delete committed but not yet erased from the disk (the process died
            # in between): finished in the background, the store usable meanwhile.
            store.privacy.finish_pending_erase()
        return store

    @classmethod
    def _connect(cls, db: peewee.SqliteDatabase, path: Path, readonly: bool,
                 progress: Progress | None = None) -> None:
        try:
            db.connect(reuse_if_open=True)
            cls._bring_up_to_date(db, path, readonly, progress)
        except BaseException:
            with suppress(*STORE_EXCEPTIONS):
                db.close()
            raise

    @staticmethod
    def _bring_up_to_date(db: peewee.SqliteDatabase, path: Path, readonly: bool,
                          progress: Progress | None = None) -> None:
        version = current_version(db)
        if version > SCHEMA_VERSION:
            raise SchemaTooNew(
                f"{path} was written by a newer Turnlog (schema {version}, this one "
                f"knows {SCHEMA_VERSION}). Update Turnlog to open it."
            )
        if version < SCHEMA_VERSION:
            if readonly:
                if version == 0 and not table_names(db):
                    raise NotFound(f"The Turnlog database {path} is empty.")
                raise NeedsUpgrade(
                    f"{path} is from an older Turnlog (schema {version}, this one knows "
                    f"{SCHEMA_VERSION}) and needs an upgrade, which only a writing command "
                    "does: open Turnlog (or run `turnlog-cli ask`) once, then try again."
                )
            from . import upgrade  # the migrations' steps: only an older file loads them

            upgrade.bring_up_to_date(db, path, progress=progress)

    def close(self) -> None:
        """Stop a background erase at its next step, checkpoint (a writer), close and
        release the lock. Never raises: a fault here is logged, the committed data is safe
        in the WAL."""
        if "privacy" in vars(self):  # a background erase runs only where privacy was made
            self.privacy.stop()
        self.database.close()

    def __enter__(self) -> TurnlogStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
