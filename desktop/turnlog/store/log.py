"""`TurnlogStore`: the log and its derived data in one SQLite file.

Implements core's `LogStore`. Turns are append-only; each is written in one
transaction with its question and answer together. Only one process may open
a data directory for writing (an advisory lock file); readers never write.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from pathlib import Path
from typing import Any

import peewee
from peewee import SQL, fn

from ..core.attachments import Attachment
from ..core.compaction import StoredSummary, SummaryDraft
from ..core.failures import FailureKind, StoreError
from ..core.imports import ImportedConversation, ImportOutcome
from ..core.model import Conversation, ConversationSettings, Turn
from ..core.send import PendingTurn, RequestRecord, ordinal_ranges
from ..core.side import SideAttempt, SideQuestion
from ..core.titles import MODEL, QUESTION, SOURCES, USER
from ..core.tools import rounds_to_json
from ..core.versions import ForkOrigin, Versions, restore_order
from ..paths import DB_NAME, ERASE_PENDING_NAME, LOCK_NAME
from . import (
    attachments,
    deletion,
    drafts,
    rows,
    salvage,
    search,
    side,
    summaries,
    titles,
    upgrade,
    versions,
)
from .deletion import DeletionCounts
from .errors import (
    SQLITE_CANTOPEN,
    SQLITE_READONLY,
    STORE_EXCEPTIONS,
    AlreadyOpen,
    DatabaseCorrupt,
    DiskFull,
    NeedsUpgrade,
    NotFound,
    SchemaTooNew,
    TurnIdConflict,
    classify,
    result_code,
)
from .files import (
    make_private,
    open_no_link,
    reading_database,
    refuse_folder,
    refuse_links,
    settled,
)
from .imports import ImportWriter
from .memory import MemoryStore
from .migrations import SCHEMA_VERSION, Progress, current_version, table_names
from .models import ConversationRow, ForkRow, RequestRow, ToolResultRow, TurnRow, insert
from .pages import LogPages
from .search import SearchHit

log = logging.getLogger(__name__)

FIRST_SEND = "first_send"  # in a conversation's settings: made for a first question
MAX_RECORDS_PER_CONVERSATION = 5_000
PRAGMAS = {
    "journal_mode": "wal",
    "synchronous": 2,  # FULL: a committed turn survives power loss
    "foreign_keys": 1,
    "secure_delete": 1,  # deleted text is overwritten, not left in free pages
    "busy_timeout": 5000,
}


def _mine(conversation_id: int, hidden: frozenset[str]) -> Any:
    """The turns of a conversation, less `hidden` (superseded) ones."""
    mine = TurnRow.conversation == conversation_id
    return mine & TurnRow.id.not_in(list(hidden)) if hidden else mine


def _conversation_row(db: peewee.Database, conversation_id: int) -> ConversationRow | None:
    return ConversationRow.select().where(ConversationRow.id == conversation_id).first(db)


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


def erase_pending(home: Path) -> bool:
    """Whether a privacy delete in `home` was committed but not yet erased from the disk
    (a run died in between; the next writer finishes it)."""
    return (home / ERASE_PENDING_NAME).exists()


def _sync_folder(folder: Path) -> None:
    """Make a file's creation or removal in `folder` durable."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


class TurnlogStore(MemoryStore):
    """The log. Open with `TurnlogStore.open(data_dir)`; close when done."""

    def __init__(self, home: Path, db: peewee.SqliteDatabase, lock: _WriterLock | None) -> None:
        self.home = home
        self.path = home / DB_NAME
        self.db = db
        self._lock = lock
        self.max_records_per_conversation = MAX_RECORDS_PER_CONVERSATION
        self._checked = False
        self._damage: DatabaseCorrupt | None = None

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
            # A privacy delete was committed but its text not yet erased from the disk (the
            # process died in between): finish that before anything else is done.
            log.warning("finishing the erase of deleted history left by an interrupted run")
            try:
                store._after_delete(vacuum=True)
            except BaseException:
                store.close()
                raise
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
            upgrade.bring_up_to_date(db, path, progress=progress)

    def close(self) -> None:
        """Checkpoint (a writer), close and release the lock. Never raises: a fault here
        (a read-only file, a full disk) is logged, the committed data is safe in the WAL."""
        try:
            if not self.db.is_closed():
                if self._lock is not None:
                    try:
                        self.db.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)")
                    except STORE_EXCEPTIONS as err:
                        log.info("Could not checkpoint %s on close: %s", self.path, err)
                try:
                    self.db.close()
                except STORE_EXCEPTIONS as err:
                    log.info("Could not close %s cleanly: %s", self.path, err)
        finally:
            if self._lock is not None:
                self._lock.release()
                self._lock = None

    def __enter__(self) -> TurnlogStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def writable(self) -> bool:
        return self._lock is not None

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except StoreError:
            raise
        except STORE_EXCEPTIONS as err:
            known = classify(err, str(self.path))
            if known is None:
                raise  # not the environment: a bug, for the crash report
            raise known from err

    def _need_writer(self) -> None:
        if self._lock is None:
            raise StoreError("This store was opened read-only.")
        if self._damage is not None:
            raise self._damage
        if not self._checked:
            self.check_sound()

    def check_sound(self) -> None:
        """Before the first write of a session: `PRAGMA quick_check`, and a write that is
        rolled back (a read-only file passes every read). A damaged file raises
        `DatabaseCorrupt`, and every later write is refused with it: nothing is ever
        written into a damaged log. Callers may run this early (off the GUI thread) so a
        fault shows before a question is sent."""
        if self._lock is None:
            raise StoreError("This store was opened read-only.")
        if self._damage is not None:
            raise self._damage
        try:
            with self._guard():
                found = [str(r[0]) for r in self.db.execute_sql("PRAGMA quick_check").fetchall()]
        except DatabaseCorrupt as err:
            self._damage = err
            raise
        if found != ["ok"]:
            self._damage = DatabaseCorrupt(
                f"The database {self.path} is damaged ({'; '.join(found[:3])}); nothing will "
                "be written into it. Export what can be read (turnlog-cli export) and open "
                "the folder to move it aside."
            )
            raise self._damage
        with self._guard(), self.db.atomic("IMMEDIATE") as probe:
            version = current_version(self.db)
            self.db.execute_sql(f"PRAGMA user_version = {version}")
            probe.rollback()
        self._checked = True

    def sweep_unanswered(self) -> list[int]:
        """Remove the conversations a first send started that never got an answer (the
        window was killed, or quit after it failed), unless they hold a draft someone
        typed: a question that failed is not left behind as an empty conversation. Run
        after `check_sound` (never into a damaged file). Returns the ids removed."""
        found = self._unanswered()
        swept = [cid for cid in found if not drafts.load_draft(self.home, cid).strip()
                 and self.discard_if_empty(cid)]
        for cid in swept:
            drafts.remove_draft(self.home, cid)
        return swept

    def unanswered_first_send(self, conversation_id: int) -> bool:
        """Whether a first send made this conversation and it has no turn yet."""
        return conversation_id in self._unanswered(conversation_id)

    def _unanswered(self, conversation_id: int | None = None) -> list[int]:
        one = "" if conversation_id is None else " AND id = ?"
        args = (f"$.{FIRST_SEND}",) + (() if conversation_id is None else (conversation_id,))
        with self._guard():
            return [int(r[0]) for r in self.db.execute_sql(
                "SELECT id FROM conversations WHERE json_extract(settings, ?) = 1 AND NOT "
                "EXISTS (SELECT 1 FROM turns WHERE conversation_id = conversations.id)"
                + one, args).fetchall()]

    @property
    def damage(self) -> DatabaseCorrupt | None:
        """The damage found by `check_sound`, if any (writes are refused with it)."""
        return self._damage

    # -------------------------------------------------------------- conversations
    def create_conversation(
        self,
        title: str,
        *,
        system_prompt: str = "",
        model: str = "",
        settings: ConversationSettings | None = None,
        first_send: bool = False,
        title_source: str = USER,
        source: str = "",
        source_model: str = "",
    ) -> Conversation:
        """A new, empty conversation. `first_send`: it is made for a question about to be
        sent; until that (or a later) question is answered, `sweep_unanswered` may remove
        it (the mark sits in its settings, so it is written with the row itself).
        `title_source` "question": the title is taken from the first question once it is
        answered (until then the neutral empty title)."""
        self._need_writer()
        if title_source not in SOURCES:
            raise ValueError(f"unknown title source {title_source!r}")
        stamp = rows.now_iso()
        stored = (settings or ConversationSettings()).to_json()
        if first_send:
            stored[FIRST_SEND] = True
        with self._guard(), self.db.atomic():
            row = insert(
                self.db, ConversationRow,
                title=title,
                system_prompt=system_prompt,
                model=model,
                settings=json.dumps(stored),
                created_at=stamp,
                updated_at=stamp,
                title_source=title_source,
                source=source,
                source_model=source_model,
            )
        return rows.conversation(row)

    def conversation(self, conversation_id: int) -> Conversation:
        with self._guard():
            row = _conversation_row(self.db, conversation_id)
        if row is None:
            raise NotFound(f"There is no conversation {conversation_id}.")
        return rows.conversation(row)

    def conversations(self, text: str = "", *, content: bool = True) -> list[Conversation]:
        """Newest (most recently active) first; `text` keeps those whose title holds it
        (case-insensitively) or (`content`) whose turns or title match it as a search."""
        with self._guard():
            query = ConversationRow.select()
            if text and not content:
                query = query.where(ConversationRow.title.contains(text))
            elif text:
                matching = search.matching_conversations(self.db, search.parse_query(text))
                query = query.where(ConversationRow.title.contains(text)
                                    | ConversationRow.id.in_(sorted(matching)))
            found = query.order_by(ConversationRow.updated_at.desc(), ConversationRow.id.desc())
            return [rows.conversation(r) for r in found.execute(self.db)]

    def search(self, query: str, *, limit: int = 20, offset: int = 0,
               titles: bool = True) -> list[SearchHit]:
        """Turns and titles matching the plain-text `query`, best first (see
        `store.search.search`: `offset` counts turns; titles come on the first page)."""
        with self._guard():
            hits = search.search(self.db, query, limit=limit, offset=offset, titles=titles)
            return [self._marked(hit, found) for hit, found in
                    zip(hits, self._versions_of(hits), strict=True)]

    def count_matches(self, query: str) -> tuple[int, int]:
        """How many titles and turns match `query` (see `store.search.count`)."""
        with self._guard():
            return search.count(self.db, query)

    def _versions_of(self, hits: list[SearchHit]) -> list[Versions | None]:
        """Each hit's conversation's versions (None: a title, or none recorded), read only
        for the conversations that have any (one query finds them)."""
        cids = sorted({hit.conversation_id for hit in hits if hit.turn_id is not None})
        with_records = {cid for (cid,) in self.db.execute_sql(
            'SELECT DISTINCT "conversation_id" FROM "supersedes" WHERE "conversation_id" '
            f'IN ({", ".join("?" * len(cids))})', cids)} if cids else set()
        known: dict[int, Versions] = {}
        out: list[Versions | None] = []
        for hit in hits:
            if hit.turn_id is None or hit.conversation_id not in with_records:
                out.append(None)
                continue
            if hit.conversation_id not in known:
                known[hit.conversation_id] = versions.read(self.db, hit.conversation_id)
            out.append(known[hit.conversation_id])
        return out

    def _marked(self, hit: SearchHit, found: Versions | None) -> SearchHit:
        """A superseded version is found too: marked as such, with the ordinal of the row
        that shows it (its active version's)."""
        if hit.turn_id is None or found is None or not found.is_superseded(hit.turn_id):
            return replace(hit, row_ordinal=hit.ordinal)
        row = TurnRow.select().where(TurnRow.id == found.active_of(hit.turn_id)).first(self.db)
        return replace(hit, superseded=True,
                       row_ordinal=row.ordinal if row is not None else hit.ordinal)

    def update_conversation(
        self,
        conversation_id: int,
        *,
        title: str | None = None,
        system_prompt: str | None = None,
        model: str | None = None,
        settings: ConversationSettings | None = None,
    ) -> Conversation:
        """Change what is given; a title given is the user's own from now on (it is never
        made again from the first question, nor by the model)."""
        self._need_writer()
        current = self.conversation(conversation_id)
        changes: dict[Any, Any] = {}
        if title is not None:
            changes[ConversationRow.title] = title
            changes[ConversationRow.title_source] = USER
        if system_prompt is not None:
            changes[ConversationRow.system_prompt] = system_prompt
        if model is not None:
            changes[ConversationRow.model] = model
        if settings is not None:
            changes[ConversationRow.settings] = json.dumps(settings.to_json())
        if not changes:
            return current
        with self._guard(), self.db.atomic():
            ConversationRow.update(changes).where(ConversationRow.id == conversation_id).execute(
                self.db)
            if title is not None:
                search.reindex_title(self.db, conversation_id)
                search.purge(self.db, turns=False)  # the old title leaves the index
        return self.conversation(conversation_id)

    def generation(self, conversation_id: int) -> int:
        with self._guard():
            row = _conversation_row(self.db, conversation_id)
        if row is None:
            raise NotFound(f"Conversation {conversation_id} no longer exists.")
        return int(row.generation)

    # ---------------------------------------------------------------------- turns
    def turns(self, conversation_id: int) -> tuple[Turn, ...]:
        """The active line (every turn no newer version superseded), oldest first, as an
        immutable tuple, read now: what a projection works on (`active_turns`).

        Not kept: reading a long log costs time and memory in proportion to it, so what
        only needs its newest turns or its count reads `log` instead.
        """
        return self.active_turns(conversation_id)

    def active_turns(self, conversation_id: int) -> tuple[Turn, ...]:
        """The turns that are not superseded, oldest first."""
        hidden = self.versions(conversation_id).superseded
        return tuple(t for t in self.all_turns(conversation_id) if t.id not in hidden)

    def all_turns(self, conversation_id: int) -> tuple[Turn, ...]:
        """The whole log, superseded versions included, oldest first (export, show)."""
        self.conversation(conversation_id)
        with self._guard():
            # Rows straight from the cursor: converting each value through peewee's model
            # machinery costs more than the query itself on a long log.
            query = (
                TurnRow.select(*(getattr(TurnRow, name) for name in rows.TURN_COLUMNS))
                .where(TurnRow.conversation == conversation_id)
                .order_by(TurnRow.ordinal)
            )
            found = [rows.turn_of(*r) for r in self.db.execute(query).fetchall()]
            return tuple(self._with_files(found))

    def _with_files(self, turns: list[Turn]) -> list[Turn]:
        """`turns` with their attachments (as they were sent) read in."""
        files = attachments.of_turns(self.db, (t.id for t in turns))
        if not files:
            return turns
        return [replace(t, attachments=files[t.id]) if t.id in files else t for t in turns]

    def attachment_original(self, digest: str) -> bytes:
        """An attached file's original bytes, to open or save (`NotFound` once deleted)."""
        with self._guard():
            return attachments.blob(self.db, digest)

    def draft_attachments(self, conversation_id: int) -> tuple[Attachment, ...]:
        """The files attached to the conversation's draft, with their originals."""
        with self._guard():
            return attachments.load_draft(self.db, conversation_id)

    def save_draft_attachments(self, conversation_id: int,
                               files: Sequence[Attachment]) -> None:
        """Keep the draft's files in the database (none: forget them), so they survive a
        restart with the draft."""
        self._need_writer()
        with self._guard(), self.db.atomic("IMMEDIATE"):
            attachments.save_draft(self.db, conversation_id, files)

    def turn_batches(self, conversation_id: int, size: int = 1_000) -> Iterator[list[Turn]]:
        """The whole log, oldest first, `size` turns at a time (an export of any length
        in bounded memory)."""
        columns = ", ".join(rows.TURN_COLUMNS)
        after = -1
        while True:
            with self._guard():
                found = self.db.execute_sql(
                    f"SELECT {columns} FROM turns WHERE conversation_id = ? AND ordinal > ? "
                    "ORDER BY ordinal LIMIT ?", (conversation_id, after, size)).fetchall()
            if not found:
                return
            with self._guard():
                batch = self._with_files([rows.turn_of(*r) for r in found])
            yield batch
            after = batch[-1].ordinal

    def next_ordinal(self, conversation_id: int) -> int:
        with self._guard():
            row = _conversation_row(self.db, conversation_id)
        if row is None:
            raise NotFound(f"There is no conversation {conversation_id}.")
        return int(row.next_ordinal)

    def versions(self, conversation_id: int) -> Versions:
        """Which turns are superseded, and which are versions of one another."""
        with self._guard():
            return versions.read(self.db, conversation_id)

    def version_members(self, conversation_id: int) -> tuple[Versions, dict[str, Turn]]:
        """The versions and every turn that is one of several versions of its position."""
        with self._guard():
            known = versions.read(self.db, conversation_id)
            ids = [t for group in known.groups() for t in group]
            found = self._turns_by_id(ids) if ids else {}
        return known, {turn_id: turn for turn_id, (_, turn) in found.items()}

    def log(self, conversation_id: int) -> LogPages:
        """The active line as it is now, read a page at a time as it is looked at
        (`LogPages`): one counting query over the index here, no turn read yet."""
        hidden = self.versions(conversation_id).superseded
        mine = _mine(conversation_id, hidden)
        with self._guard():
            # Two queries: SQLite answers MAX from the index's edge alone, and COUNT with a
            # plain walk over the index, faster than both in one.
            (count,) = self.db.execute(TurnRow.select(fn.COUNT(SQL("*"))).where(mine)).fetchone()
            (newest,) = self.db.execute(TurnRow.select(fn.MAX(TurnRow.ordinal)).where(mine)
                                        ).fetchone()
        if not count:
            self.conversation(conversation_id)  # NotFound when there is no such conversation
        return LogPages(self, conversation_id, int(count or 0), int(newest or 0),
                        hidden=hidden)

    def turn_page(self, conversation_id: int, *, newest: int, limit: int,
                  before: int | None = None, after: int | None = None, skip: int = 0,
                  from_oldest: bool = False, hidden: frozenset[str] = frozenset()
                  ) -> list[Turn]:
        """Up to `limit` turns numbered ≤ `newest`, oldest first: the newest ones (below
        `before`, past the `skip` newest) or, `from_oldest`, the oldest ones (above `after`,
        past the `skip` oldest)."""
        query = TurnRow.select(*(getattr(TurnRow, name) for name in rows.TURN_COLUMNS)).where(
            _mine(conversation_id, hidden) & (TurnRow.ordinal <= newest))
        if before is not None:
            query = query.where(TurnRow.ordinal < before)
        if after is not None:
            query = query.where(TurnRow.ordinal > after)
        order = TurnRow.ordinal.asc() if from_oldest else TurnRow.ordinal.desc()
        query = query.order_by(order).limit(limit).offset(skip or None)
        with self._guard():
            page = self._with_files([rows.turn_of(*r)
                                     for r in self.db.execute(query).fetchall()])
        if not from_oldest:
            page.reverse()
        return page

    def newer_count(self, conversation_id: int, ordinal: int, *, newest: int,
                    hidden: frozenset[str] = frozenset()) -> int | None:
        """How many turns numbered ≤ `newest` come after turn `ordinal` (None if there is no
        such turn): counted over the index from the newest end, where the rows on show are."""
        if ordinal > newest:
            return None
        mine = _mine(conversation_id, hidden)
        with self._guard():
            if TurnRow.select().where(mine & (TurnRow.ordinal == ordinal)).count(self.db) == 0:
                return None
            return int(TurnRow.select().where(
                mine & (TurnRow.ordinal > ordinal) & (TurnRow.ordinal <= newest)).count(self.db))

    def turn_ordinals(self, conversation_id: int, *, newest: int, skip: int, limit: int,
                      hidden: frozenset[str] = frozenset()) -> list[int]:
        """The ordinals of `limit` turns numbered ≤ `newest`, past the `skip` oldest, read
        from the index alone."""
        query = (TurnRow.select(TurnRow.ordinal)
                 .where(_mine(conversation_id, hidden) & (TurnRow.ordinal <= newest))
                 .order_by(TurnRow.ordinal).limit(limit).offset(skip or None))
        with self._guard():
            return [ordinal for (ordinal,) in self.db.execute(query).fetchall()]

    def turn_keys(self, conversation_id: int, *, newest: int, skip: int, limit: int,
                  after: int | None = None, hidden: frozenset[str] = frozenset()
                  ) -> list[tuple[str, int]]:
        """(id, ordinal) of `limit` turns numbered ≤ `newest` (and > `after`), past the
        `skip` oldest of those."""
        query = (TurnRow.select(TurnRow.id, TurnRow.ordinal)
                 .where(_mine(conversation_id, hidden) & (TurnRow.ordinal <= newest))
                 .order_by(TurnRow.ordinal).limit(limit).offset(skip or None))
        if after is not None:
            query = query.where(TurnRow.ordinal > after)
        with self._guard():
            return [(turn_id, ordinal) for turn_id, ordinal in self.db.execute(query).fetchall()]

    def turn_count(self, conversation_id: int) -> int:
        with self._guard():
            return int(TurnRow.select().where(TurnRow.conversation == conversation_id)
                       .count(self.db))

    def turn(self, turn_id: str) -> tuple[int, Turn]:
        """A turn by id, with its conversation id."""
        with self._guard():
            row = TurnRow.select().where(TurnRow.id == turn_id).first(self.db)
        if row is None:
            raise NotFound(f"There is no turn {turn_id}.")
        with self._guard():
            (turn,) = self._with_files([rows.turn(row)])
        return row.conversation_id, turn

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

    def commit_turn(self, conversation_id: int, pending: PendingTurn) -> Turn:
        """Append a complete turn in one transaction. Idempotent by `pending.id`."""
        self._need_writer()
        usage = pending.usage.to_json()
        with self._guard(), self.db.atomic("IMMEDIATE"):
            conv = _conversation_row(self.db, conversation_id)
            if conv is None:
                raise StoreError(
                    "The conversation was deleted while the answer arrived; it was not saved.",
                    kind=FailureKind.CONVERSATION_GONE,
                )
            existing = TurnRow.select().where(TurnRow.id == pending.id).first(self.db)
            if existing is not None:
                if (
                    existing.conversation_id != conversation_id
                    or existing.question != pending.question
                ):
                    raise TurnIdConflict(
                        f"Turn id {pending.id} is already used by a different question."
                    )
                (turn,) = self._with_files([rows.turn(existing)])
                return turn
            if pending.generation is not None and conv.generation != pending.generation:
                raise StoreError(
                    "Turns of this conversation were deleted while the answer arrived; "
                    "it was not saved.",
                    kind=FailureKind.CONVERSATION_GONE,
                )
            if pending.replaces is not None:
                versions.check_replaceable(self.db, conversation_id, pending.replaces)
            ordinal = conv.next_ordinal
            row = insert(
                self.db, TurnRow,
                id=pending.id,
                conversation=conversation_id,
                ordinal=ordinal,
                question=pending.question,
                answer=pending.answer,
                model=pending.model,
                finish_reason=pending.finish_reason,
                created_at=pending.created_at.isoformat(timespec="microseconds"),
                usage=json.dumps(usage) if usage else None,
                reasoning=pending.reasoning,
                incomplete=pending.incomplete,
                tool_exchange=rounds_to_json(pending.tools) if pending.tools else None,
            )
            # The question's files, with the turn or not at all.
            attachments.add_to_turn(self.db, pending.id, pending.attachments)
            self._keep_full_results(pending)
            changes: dict[Any, Any] = {ConversationRow.next_ordinal: ordinal + 1,
                                       ConversationRow.updated_at: rows.now_iso()}
            if ordinal == 1 and f'"{FIRST_SEND}"' in conv.settings:
                # Answered: no longer a conversation a first send left behind.
                changes[ConversationRow.settings] = fn.json_remove(
                    ConversationRow.settings, f"$.{FIRST_SEND}")
            ConversationRow.update(changes).where(
                ConversationRow.id == conversation_id).execute(self.db)
            if pending.replaces is not None:  # the new version and its record, together
                versions.append(self.db, conversation_id, pending.replaces, pending.id)
            if conv.title_source == QUESTION:  # a title taken from the first question
                titles.follow_first_turn(self.db, conversation_id)
        return replace(rows.turn(row), attachments=tuple(
            replace(a, original=None) for a in pending.attachments))

    def _keep_full_results(self, pending: PendingTurn) -> None:
        """Inside the commit's transaction: the full results of calls cut for sending."""
        rows_ = [{"turn": pending.id, "call_id": call_id, "content": text}
                 for tool_round in pending.tools
                 for call_id, text in tool_round.full_results.items()]
        if rows_:
            ToolResultRow.insert_many(rows_).execute(self.db)

    def tool_result(self, turn_id: str, call_id: str) -> str | None:
        """The full result of a call whose result was cut for sending (None: not cut, or
        no such call)."""
        with self._guard():
            row = ToolResultRow.select().where((ToolResultRow.turn == turn_id)
                                            & (ToolResultRow.call_id == call_id)).first(self.db)
        return row.content if row is not None else None

    def import_turns(
        self, conversation_id: int, turns: Sequence[PendingTurn]
    ) -> list[Turn]:
        """Append many turns in one transaction (import), by `commit_turn`'s rules (idempotent
        by id, a reused id with another question refused), but with one read of the
        conversation, the ids looked up in batches and the rows written at once: 100,000
        turns take seconds, not minutes."""
        self._need_writer()
        with self._guard(), self.db.atomic("IMMEDIATE"):
            conv = _conversation_row(self.db, conversation_id)
            if conv is None:
                raise StoreError("The conversation was deleted; nothing was imported.",
                                 kind=FailureKind.CONVERSATION_GONE)
            if any(p.generation not in (None, conv.generation) for p in turns):
                raise StoreError("Turns of this conversation were deleted meanwhile; nothing "
                                 "was imported.", kind=FailureKind.CONVERSATION_GONE)
            known = self._turns_by_id([p.id for p in turns])
            ordinal = conv.next_ordinal
            out: list[Turn] = []
            new_rows: list[tuple[Any, ...]] = []
            for pending in turns:
                if pending.id in known:
                    owner, turn = known[pending.id]
                    if owner != conversation_id or turn.question != pending.question:
                        raise TurnIdConflict(
                            f"Turn id {pending.id} is already used by a different question.")
                    out.append(turn)
                    continue
                usage = pending.usage.to_json()
                values = (pending.id, ordinal, pending.question, pending.answer, pending.model,
                          pending.finish_reason,
                          pending.created_at.isoformat(timespec="microseconds"),
                          json.dumps(usage) if usage else None, "", pending.incomplete,
                          rounds_to_json(pending.tools) if pending.tools else None)
                turn = replace(rows.turn_of(*values), attachments=tuple(
                    replace(a, original=None) for a in pending.attachments))
                known[pending.id] = (conversation_id, turn)
                new_rows.append((conversation_id, *values))
                out.append(turn)
                ordinal += 1
            self.db.cursor().executemany(
                "INSERT INTO turns (conversation_id, id, ordinal, question, answer, model, "
                "finish_reason, created_at, usage, reasoning, incomplete, tool_exchange) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", new_rows)
            fresh = {values[1] for values in new_rows}
            for pending in turns:
                if pending.id in fresh and pending.attachments:
                    attachments.add_to_turn(self.db, pending.id, pending.attachments)
            if new_rows:
                ConversationRow.update(next_ordinal=ordinal, updated_at=rows.now_iso()).where(
                    ConversationRow.id == conversation_id).execute(self.db)
            return out

    # ------------------------------------------------------------ versions, forks
    def use_version(self, turn_id: str) -> int:
        """Make `turn_id` (a version of the last turn) active again, by an appended
        record; returns its conversation id. Already active: nothing is written."""
        self._need_writer()
        with self._guard(), self.db.atomic("IMMEDIATE"):
            cid, _ = versions.use_version(self.db, turn_id)
            titles.follow_first_turn(self.db, cid, first_before=None)
        return cid

    def fork(self, conversation_id: int, at_ordinal: int, *, title: str | None = None
             ) -> tuple[Conversation, str]:
        """A new conversation holding copies (new ids, same text) of the active turns
        before turn `at_ordinal`, with its provenance; returns it and turn `at_ordinal`'s
        question, saved as its draft. The source's summaries are not copied."""
        self._need_writer()
        source = self.conversation(conversation_id)
        with self._guard():
            at = TurnRow.select().where((TurnRow.conversation == conversation_id)
                                     & (TurnRow.ordinal == at_ordinal)).first(self.db)
        if at is None:
            raise NotFound(f"Conversation {conversation_id} has no turn {at_ordinal}.")
        kept = [t for t in self.active_turns(conversation_id) if t.ordinal < at_ordinal]
        return self._make_fork(source, kept, at_ordinal, str(at.question), title)

    def fork_with_version(self, turn_id: str, *, title: str | None = None,
                          conversation_id: int | None = None) -> tuple[Conversation, str]:
        """Go on from a version of a turn that later turns followed (only the last turn's
        versions can be switched in place, `use_version`): a new conversation holding
        copies of the active turns before that turn, then a copy of version `turn_id`,
        with the question of the turn that came next as its draft and its provenance.
        Returns it and that draft. `conversation_id`, if given, must hold the turn."""
        self._need_writer()
        with self._guard():
            row = TurnRow.select().where(TurnRow.id == turn_id).first(self.db)
            if row is None or conversation_id not in (None, row.conversation_id):
                raise NotFound(f"There is no turn {turn_id}"
                               + (f" in conversation {conversation_id}." if conversation_id
                                  is not None else "."))
            chosen, cid = rows.turn(row), row.conversation_id
            found = versions.read(self.db, cid)
        source = self.conversation(cid)
        line = self.active_turns(cid)
        active = found.active_of(turn_id)
        at = next((i for i, t in enumerate(line) if t.id == active), None)
        if at is None or at + 1 >= len(line):
            raise StoreError(f"Turn {chosen.ordinal} is a version of the last turn: use it "
                             "there (use-version) instead of forking.")
        after = line[at + 1]
        return self._make_fork(source, [*line[:at], chosen], after.ordinal, after.question,
                               title)

    def _make_fork(self, source: Conversation, kept: Sequence[Turn], at_ordinal: int,
                   draft: str, title: str | None) -> tuple[Conversation, str]:
        """The fork of `source` at turn `at_ordinal`: copies of `kept` (its pins along),
        `draft` saved in its composer."""
        copies = [PendingTurn(id=uuid.uuid4().hex, question=t.question, answer=t.answer,
                              model=t.model, finish_reason=t.finish_reason, usage=t.usage,
                              created_at=t.created_at, incomplete=t.incomplete,
                              attachments=t.attachments, tools=t.tools)
                  for t in kept]
        with self._guard(), self.db.atomic("IMMEDIATE"):
            fork = self.create_conversation(
                title or source.title, system_prompt=source.system_prompt,
                model=source.model, settings=source.settings,
                title_source=USER if title else source.title_source,
                source=source.source, source_model=source.source_model)
            insert(self.db, ForkRow, conversation=fork.id, source_id=source.id,
                   at_ordinal=at_ordinal)
            self.import_turns(fork.id, copies)
            # A derived title follows the fork's own first turn (none: the neutral one).
            titles.follow_first_turn(self.db, fork.id,
                                     first_before=copies[0].id if copies else None)
            # The pins taken from the copied turns come along, their sources remapped.
            self.copy_pins(source.id, fork.id,
                           {t.id: c.id for t, c in zip(kept, copies, strict=True)})
        drafts.save_draft(self.home, fork.id, draft)  # ready in its composer
        return self.conversation(fork.id), draft

    def fork_origin(self, conversation_id: int) -> ForkOrigin | None:
        """Where a fork came from (None: not a fork), with its source's title now."""
        with self._guard():
            row = ForkRow.select().where(ForkRow.conversation == conversation_id).first(self.db)
            if row is None:
                return None
            source = None if row.source_id is None else \
                _conversation_row(self.db, row.source_id)
        return ForkOrigin(row.at_ordinal, source.id if source else None,
                          source.title if source else None)

    def forks(self, conversation_id: int) -> list[Conversation]:
        """The conversations holding copies of this one's turns (forks of forks too)."""
        with self._guard():
            ids = deletion.forks_of(self.db, conversation_id)
            found = ConversationRow.select().where(ConversationRow.id.in_(ids)) \
                .order_by(ConversationRow.id)
            return [rows.conversation(r) for r in found.execute(self.db)]

    def _turns_by_id(self, ids: Sequence[str]) -> dict[str, tuple[int, Turn]]:
        """The stored turns among `ids`, with their conversation ids (batches of 500)."""
        found: dict[str, tuple[int, Turn]] = {}
        columns = ", ".join(rows.TURN_COLUMNS)
        for start in range(0, len(ids), 500):
            batch = ids[start:start + 500]
            marks = ", ".join("?" * len(batch))
            cursor = self.db.execute_sql(
                f"SELECT conversation_id, {columns} FROM turns WHERE id IN ({marks})", batch)
            for owner, *values in cursor.fetchall():
                found[values[0]] = (owner, rows.turn_of(*values))
        return found

    # ------------------------------------------------------------ request records
    def record_request(self, record: RequestRecord) -> None:
        self._need_writer()
        with self._guard(), self.db.atomic():
            if _conversation_row(self.db, record.conversation_id) is None:
                return  # deleted while the request ran: nothing to keep
            insert(
                self.db, RequestRow,
                conversation=record.conversation_id,
                started_at=record.started_at.isoformat(timespec="microseconds"),
                model=record.model,
                outcome=record.outcome,
                status=record.status,
                body_bytes=record.body_bytes,
                max_bytes=record.max_bytes,
                input_tokens=record.input_tokens,
                token_budget=record.token_budget,
                tokens_exact=record.tokens_exact,
                sent=json.dumps(ordinal_ranges(record.sent)),
                summarized=json.dumps(ordinal_ranges(record.summarized)),
                left_out=json.dumps(ordinal_ranges(record.left_out)),
                usage=json.dumps(record.usage.to_json()) if record.usage.known else None,
                extra_usage=json.dumps([u.to_json() for u in record.extra_usage]),
                duration_s=record.duration_s,
                first_token_s=record.first_token_s,
                turn_id=record.turn_id,
                summary_id=record.summary_id,
                attempt=record.attempt,
            )
            # Bounded: the oldest records of a busy conversation give way to new ones.
            stale = (
                RequestRow.select(RequestRow.id)
                .where(RequestRow.conversation == record.conversation_id)
                .order_by(RequestRow.id.desc())
                .offset(self.max_records_per_conversation)
            )
            RequestRow.delete().where(RequestRow.id.in_(stale)).execute(self.db)

    def requests(self, conversation_id: int) -> list[RequestRecord]:
        with self._guard():
            found = list(
                RequestRow.select()
                .where(RequestRow.conversation == conversation_id)
                .order_by(RequestRow.id)
                .execute(self.db)
            )
        return [rows.request_record(r) for r in found]

    # ---------------------------------------------------------------- summaries
    def latest_summary(self, conversation_id: int) -> StoredSummary | None:
        with self._guard():
            return summaries.latest_summary(self.db, conversation_id)

    def summary(self, summary_id: int) -> StoredSummary | None:
        with self._guard():
            return summaries.summary(self.db, summary_id)

    def save_summary(self, conversation_id: int, draft: SummaryDraft) -> StoredSummary:
        self._need_writer()
        with self._guard():
            return summaries.save_summary(self.db, conversation_id, draft)

    def first_turn(self, conversation_id: int) -> str | None:
        """The id of the first turn of the active line (None: no turn yet)."""
        with self._guard():
            return titles.first_turn(self.db, conversation_id)

    def set_model_title(self, conversation_id: int, title: str,
                        from_turn: str) -> Conversation | None:
        """Give the conversation the title the model made from its first turn
        `from_turn`, unless it no longer should have it: the user typed a title meanwhile,
        or that turn is no longer the first (deleted, or another version in use) — a late
        write never brings back what was removed. Returns the conversation, or None when
        nothing was written."""
        self._need_writer()
        with self._guard(), self.db.atomic("IMMEDIATE"):
            row = _conversation_row(self.db, conversation_id)
            first = titles.first_turn(self.db, conversation_id) if row is not None else None
            if row is None or row.title_source != QUESTION or first != from_turn:
                return None
            titles.set_title(self.db, conversation_id, title, MODEL)
        return self.conversation(conversation_id)

    # ----------------------------------------------------------- side questions
    def side_questions(self, conversation_id: int) -> list[SideQuestion]:
        """The conversation's side questions, oldest first (never its turns)."""
        with self._guard():
            return side.side_questions(self.db, conversation_id)

    def add_side_question(self, conversation_id: int, question: SideQuestion) -> SideQuestion:
        self._need_writer()
        with self._guard(), self.db.atomic():
            return side.add(self.db, conversation_id, question)

    def side_attempts(self, conversation_id: int) -> list[SideAttempt]:
        """The conversation's side requests that failed, with what they used."""
        with self._guard():
            return side.side_attempts(self.db, conversation_id)

    def add_side_attempt(self, conversation_id: int, attempt: SideAttempt) -> None:
        self._need_writer()
        with self._guard(), self.db.atomic():
            side.add_attempt(self.db, conversation_id, attempt)

    # -------------------------------------------------------------------- delete
    def preview_delete_turn(self, turn_id: str, *, with_versions: bool = True
                            ) -> DeletionCounts:
        with self._guard():
            cid = deletion.conversation_of(self.db, turn_id)
            ids = versions.read(self.db, cid).group(turn_id) if with_versions else (turn_id,)
            return deletion.preview_turns(self.db, cid, ids)

    def preview_delete_conversation(self, conversation_id: int, *, with_forks: bool = False
                                    ) -> DeletionCounts:
        self.conversation(conversation_id)
        with self._guard():
            forks = deletion.forks_of(self.db, conversation_id) if with_forks else []
            return deletion.count(self.db, [conversation_id, *forks])

    def preview_delete_all(self) -> DeletionCounts:
        with self._guard():
            return deletion.count(self.db, None)

    def _begin_erase(self) -> None:
        """Mark an erase as pending before a privacy delete commits: if the process dies
        before `_after_delete` has the text off the disk, the next writer finishes it and
        readers can say so."""
        marker = self.home / ERASE_PENDING_NAME
        with self._guard():
            with os.fdopen(open_no_link(marker, os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                           "wb") as handle:
                handle.write(b"A privacy delete has not yet been erased from the disk.\n")
                handle.flush()
                os.fsync(handle.fileno())
            _sync_folder(self.home)

    def _erase_done(self) -> None:
        with self._guard():
            (self.home / ERASE_PENDING_NAME).unlink(missing_ok=True)
            _sync_folder(self.home)

    def delete_turn(self, turn_id: str, *, with_versions: bool = True,
                    keep_pins: bool = False) -> tuple[int, DeletionCounts]:
        """Delete one turn (with its other versions, unless `with_versions` is false)
        with every summary covering it, its references in request records and the pins
        taken from it (kept as typed with `keep_pins`); returns the conversation id and what
        was removed."""
        self._need_writer()
        self._begin_erase()
        with self._guard(), self.db.atomic("IMMEDIATE"):
            cid = deletion.conversation_of(self.db, turn_id)
            first = titles.first_turn(self.db, cid)
            known = versions.read(self.db, cid)
            ids = known.group(turn_id) if with_versions else (turn_id,)
            counts = deletion.delete_turns(self.db, cid, ids, keep_pins=keep_pins)
            versions.forget(self.db, cid, known, ids)
            # A title from the deleted first turn is derived from it: made again from
            # the new first turn, unless the user typed it.
            titles.follow_first_turn(self.db, cid, first_before=first)
        self._after_delete()
        return cid, counts

    def delete_conversation(self, conversation_id: int, *, with_forks: bool = False
                            ) -> DeletionCounts:
        """Delete a conversation (`with_forks`: and the forks holding copies of its
        turns); forks that stay keep their turns and forget their source."""
        self._need_writer()
        self.conversation(conversation_id)
        self._begin_erase()
        with self._guard():
            forks = deletion.forks_of(self.db, conversation_id) if with_forks else []
            counts = deletion.delete_conversation(self.db, conversation_id,
                                                  with_forks=with_forks)
            for cid in (conversation_id, *forks):
                drafts.remove_draft(self.home, cid)
        self._after_delete()
        return counts

    def delete_all(self, *, preferences: bool = False) -> DeletionCounts:
        """Delete every conversation (with its pins and notes), and the global
        preferences too if asked."""
        self._need_writer()
        self._begin_erase()
        with self._guard():
            counts = deletion.delete_all(self.db)
            if preferences:
                self.delete_preferences()
            drafts.remove_all_drafts(self.home)
        self._after_delete(vacuum=True)
        return counts

    def _after_delete(self, *, vacuum: bool = False) -> None:
        """No copy of deleted text may stay: not in `-wal`, not in a copy kept from
        before a schema upgrade. Only then is the pending erase done; a checkpoint that
        a reader held up leaves it pending for the next writer."""
        complete = self.scrub(vacuum=vacuum)
        with self._guard():
            upgrade.remove_copies(self.path)
        if complete:
            self._erase_done()
        else:
            log.warning("deleted text stays in %s-wal until the program reading it closes; "
                        "the next start erases it", self.path)

    def scrub(self, *, vacuum: bool = False) -> bool:
        """Push committed pages into the main file and truncate the WAL, so deleted text
        (already overwritten in place by `secure_delete`) leaves no copy in `-wal`.
        `vacuum` also rebuilds the file, dropping free pages entirely. False when a
        reader kept the checkpoint from finishing (SQLite then reports it busy)."""
        with self._guard():
            done = self._checkpoint()
            if vacuum:
                self.db.execute_sql("VACUUM")
                done = self._checkpoint()
        return done

    def _checkpoint(self) -> bool:
        row = self.db.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        return row is None or row[0] == 0  # (busy, log pages, checkpointed pages)

    # ------------------------------------------------------ import, salvage, discard
    def import_conversation(
        self, title: str, *, system_prompt: str, model: str, turns: Sequence[PendingTurn],
        superseded_by: Mapping[str, str] | None = None,
        side: Sequence[SideQuestion] = (),
    ) -> Conversation:
        """A new conversation with `turns`, in one transaction: all of it or nothing. The
        transaction sits inside the fault translation, so a full disk is named as such
        (the original SQLite error, not the rollback's). `superseded_by` (turn id → the
        id of the turn that replaced it, both among `turns`) restores their versions."""
        self._need_writer()
        with self._guard(), self.db.atomic():
            conversation = self.create_conversation(title, system_prompt=system_prompt,
                                                    model=model)
            for pending in turns:
                self.commit_turn(conversation.id, pending)
            for old, new in restore_order(superseded_by or {}):
                versions.append(self.db, conversation.id, old, new)
            for question in side:
                self.add_side_question(conversation.id, question)
        return self.conversation(conversation.id)

    def import_conversations(
        self, items: Iterable[ImportedConversation], *,
        cancelled: Callable[[], bool] = lambda: False,
        progress: Callable[[int], None] = lambda turns: None,
    ) -> list[ImportOutcome]:
        """Write every conversation `items` yields, in one transaction with batched
        inserts: all of them or, on any error or a cancel (`ImportCancelled`), none.
        `progress` is told the number of turns written so far."""
        self._need_writer()
        with self._guard(), self.db.atomic("IMMEDIATE"), ImportWriter.open(
                self.db, cancelled=cancelled, progress=progress) as writer:
            outcomes = []
            for item in items:
                outcome = writer.write(item)
                if outcome.id is not None and not item.source_ids:
                    self._import_held(outcome.id, item, writer.stored_ids)
                outcomes.append(outcome)
            writer.check()  # a cancel that came after the last batch still counts
            return outcomes

    def _import_held(self, conversation_id: int, item: ImportedConversation,
                     stored_ids: dict[str, str]) -> None:
        """What a Turnlog file's conversation holds besides its turns: side questions (with
        fresh ids), pins (their sources mapped to the ids the turns were stored under; a
        source not in the file is dropped), notes, and the preferences not there yet."""
        for question in item.side_questions:
            side.add(self.db, conversation_id, replace(question, id=uuid.uuid4().hex))
        memory = item.memory or {}
        for pin in memory.get("pins", []):
            sources = [stored_ids[s] for s in pin.get("sources", []) if s in stored_ids]
            self.add_pin(conversation_id, pin["text"], sources=sources,
                         kind=str(pin.get("kind") or ""))
        for note in memory.get("notes", []):
            self.add_note(conversation_id, note["text"], priority=note.get("priority", 3))
        have = {p.text.strip() for p in self.preferences()}
        for preference in memory.get("preferences", []):
            if preference["text"].strip() not in have:
                self.add_preference(preference["text"], priority=preference.get("priority", 3))
                have.add(preference["text"].strip())
    def start_with_turn(
        self, title: str, pending: PendingTurn, *, model: str = "",
        settings: ConversationSettings | None = None, title_source: str = USER,
    ) -> tuple[Conversation, Turn]:
        """A new conversation and its first turn, in one transaction: a first question
        that fails, or a process killed before its answer is saved, leaves no
        conversation behind. `title_source` "question": titled after that question."""
        self._need_writer()
        with self._guard(), self.db.atomic("IMMEDIATE"):
            conversation = self.create_conversation(title, model=model, settings=settings,
                                                    title_source=title_source)
            turn = self.commit_turn(conversation.id, replace(
                pending, generation=None))
        return self.conversation(conversation.id), turn

    def turn_exists(self, turn_id: str) -> bool:
        with self._guard():
            return TurnRow.select().where(TurnRow.id == turn_id).first(self.db) is not None

    def discard_if_empty(self, conversation_id: int) -> bool:
        """Delete a conversation that never got a turn (a first question that failed),
        so no empty conversation is left behind, with the records of its failed
        requests; returns whether it was deleted. One with a turn is kept."""
        self._need_writer()
        with self._guard(), self.db.atomic("IMMEDIATE"):
            if TurnRow.select().where(TurnRow.conversation == conversation_id).exists(self.db):
                return False
            gone = ConversationRow.delete().where(
                ConversationRow.id == conversation_id).execute(self.db)
            search.purge(self.db, turns=False)
        if gone:
            self.scrub()  # its title (the question's first line) leaves no copy in -wal
        return bool(gone)

    def readable(self, conversation_id: int) -> salvage.Readable:
        """Export what can be read: the conversation's turns row by row, skipping and
        counting those that cannot be decoded or read (works on a damaged file, never
        writes)."""
        with self._guard():
            return salvage.readable_turns(self.path, conversation_id,
                                          immutable="immutable=1" in self.db.database)

    def readable_conversations(self) -> list[tuple[Conversation, int]]:
        """Every conversation and its number of turns, newest first, read leniently: a
        title holding damaged text is shown with U+FFFD, never a failure."""
        with self._guard():
            return salvage.readable_conversations(
                self.path, immutable="immutable=1" in self.db.database)
