"""`store.privacy`: deleting a turn, a conversation or everything, erased from the disk,
with a report of what went and what the window shows now.

A delete commits in one transaction (`deletion`), then its text is erased from the disk:
the WAL checkpointed into the main file (where `secure_delete` already overwrote it) and
truncated, and any copy kept from before an upgrade removed. Between the two the data
directory holds an erase-pending marker; a run killed there leaves it, readers see the
rows gone (they were committed so) and say the erase is pending, and the next writer
finishes it in the background (`finish_pending_erase`), in short steps that never hold
up the one who opened the store. Rebuilding the file (`VACUUM`, after deleting
everything) comes after the erase, not inside its window: it only returns free pages,
which `secure_delete` has zeroed.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import peewee

from ..config.paths import ERASE_PENDING_NAME
from ..core.model import Conversation
from ..core.summaries import StoredSummary
from ..system.lazy import LazyModule
from . import deletion, drafts, rows, summaries, titles, versions
from .conversations import Conversations, conversation_row
from .database import Database
from .deletion import DeletionCounts
from .errors import STORE_EXCEPTIONS
from .files import erase_pending, open_no_link
from .memory import Memory
from .models import ConversationRow, ForkRow
from .turns import Turns

if TYPE_CHECKING:
    from . import upgrade
else:
    # the copies kept from before an upgrade, removed after a delete: with the upgrade's
    # frozen steps, loaded by the first delete rather than by every start
    upgrade = LazyModule("turnlog.store.upgrade")

log = logging.getLogger(__name__)

# The background erase after a crash: each try waits at most this long for a reader or
# the writer to let go, then steps back and tries again a moment later.
ERASE_STEP_WAIT_MS = 50
ERASE_RETRY_S = 0.1


@dataclass(frozen=True, slots=True)
class TurnsDeleted:
    """A turn deleted (with its other versions, unless asked not to): what went and how its
    conversation stands now."""

    conversation_id: int
    turn_ids: tuple[str, ...]  # every turn removed
    counts: DeletionCounts
    conversation: Conversation  # as it is now
    renamed: bool  # its title followed a new first turn
    summary: StoredSummary | None  # the newest summary that now stands


@dataclass(frozen=True, slots=True)
class ConversationsDeleted:
    """A conversation deleted (with the forks of it, if asked)."""

    conversation_ids: tuple[int, ...]  # the conversation, then its forks deleted with it
    titles: tuple[str, ...]  # their titles, in the same order
    sources_forgotten: tuple[int, ...]  # forks that stay and no longer name their source
    counts: DeletionCounts


@dataclass(frozen=True, slots=True)
class AllDeleted:
    """Every conversation deleted (and the preferences, if asked)."""

    conversation_ids: tuple[int, ...]
    counts: DeletionCounts
    preferences: int  # preferences deleted


def sync_folder(folder: Path) -> None:
    """Make a file's creation or removal in `folder` durable."""
    descriptor = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


class Privacy:
    """The privacy deletes of one store and the erase that follows each."""

    def __init__(self, database: Database, conversations: Conversations, turns: Turns,
                 memory: Memory) -> None:
        self.database = database
        self.db = database.db
        self.conversations = conversations
        self.turns = turns
        self.memory = memory
        self.marker = database.home / ERASE_PENDING_NAME
        # Held from marking an erase pending to clearing it, so a background erase never
        # clears the mark of a delete whose erase is still to come.
        self.erasing = threading.Lock()
        self.erase_seconds: float | None = None  # the last delete's commit → erased
        self.eraser: threading.Thread | None = None
        self.stopping = threading.Event()

    # --------------------------------------------------------------------- previews
    def preview_turn(self, turn_id: str, *, with_versions: bool = True) -> DeletionCounts:
        with self.database.guard():
            cid = deletion.conversation_of(self.db, turn_id)
            ids = versions.read(self.db, cid).group(turn_id) if with_versions else (turn_id,)
            return deletion.preview_turns(self.db, cid, ids)

    def preview_conversation(self, conversation_id: int, *, with_forks: bool = False
                             ) -> DeletionCounts:
        self.conversations.get(conversation_id)
        with self.database.guard():
            forks = deletion.forks_of(self.db, conversation_id) if with_forks else []
            return deletion.count(self.db, [conversation_id, *forks])

    def preview_all(self) -> DeletionCounts:
        with self.database.guard():
            return deletion.count(self.db, None)

    # ---------------------------------------------------------------------- deletes
    def delete_turn(self, turn_id: str, *, with_versions: bool = True,
                    keep_pins: bool = False) -> TurnsDeleted:
        """Delete one turn (with its other versions, unless `with_versions` is false)
        with every summary covering it, its references in request records and the pins
        taken from it (kept as typed with `keep_pins`)."""
        self.database.need_writer()
        with self.erasing:
            self.begin_erase()
            with self.database.guard(), self.db.atomic("IMMEDIATE"):
                cid = deletion.conversation_of(self.db, turn_id)
                before = conversation_row(self.db, cid)
                first = titles.first_turn(self.db, cid)
                known = versions.read(self.db, cid)
                ids = known.group(turn_id) if with_versions else (turn_id,)
                counts = deletion.delete_turns(self.db, cid, ids, keep_pins=keep_pins)
                versions.forget(self.db, cid, known, ids)
                # A title from the deleted first turn is derived from it: made again from
                # the new first turn, unless the user typed it.
                titles.follow_first_turn(self.db, cid, first_before=first)
                now = rows.conversation(conversation_row(self.db, cid))
                summary = summaries.latest_summary(self.db, cid)
            self.turns.counts_changed(cid)
            self.after_delete(time.monotonic())
        return TurnsDeleted(cid, tuple(ids), counts, now,
                            before is not None and now.title != before.title, summary)

    def delete_conversation(self, conversation_id: int, *, with_forks: bool = False
                            ) -> ConversationsDeleted:
        """Delete a conversation (`with_forks`: and the forks holding copies of its
        turns); forks that stay keep their turns and forget their source."""
        self.database.need_writer()
        self.conversations.get(conversation_id)
        with self.database.guard():
            forks = deletion.forks_of(self.db, conversation_id) if with_forks else []
        return self.delete_conversations([conversation_id, *forks])

    def preview_conversations(self, conversation_ids: Sequence[int]) -> DeletionCounts:
        """What deleting these conversations (several chosen, or a folder's) removes."""
        with self.database.guard():
            return deletion.count(self.db, list(conversation_ids))

    def delete_conversations(self, conversation_ids: Sequence[int]) -> ConversationsDeleted:
        """Delete these conversations (several chosen at once, or a folder's) in one
        transaction and one erase; forks of them that stay forget their source. Ids no
        longer stored are passed over."""
        self.database.need_writer()
        with self.erasing:
            self.begin_erase()
            with self.database.guard():
                named = dict(ConversationRow.select(ConversationRow.id, ConversationRow.title)
                             .where(ConversationRow.id.in_(list(conversation_ids)))
                             .tuples().execute(self.db))
                ids = [c for c in dict.fromkeys(conversation_ids) if c in named]
                kept = [c for (c,) in ForkRow.select(ForkRow.conversation)
                        .where(ForkRow.source_id.in_(ids) & ForkRow.conversation.not_in(ids))
                        .tuples().execute(self.db)]
                counts = deletion.delete_conversations(self.db, ids)
                committed = time.monotonic()
                for cid in ids:
                    self.turns.counts_changed(cid)
                    drafts.remove_draft(self.database.home, cid)
            self.after_delete(committed)
        return ConversationsDeleted(tuple(ids), tuple(str(named.get(c, "")) for c in ids),
                                    tuple(sorted(kept)), counts)

    def delete_all(self, *, preferences: bool = False,
                   usage_totals: bool = False) -> AllDeleted:
        """Delete every conversation (with its pins and notes), and the global
        preferences and the daily usage totals too if asked."""
        self.database.need_writer()
        with self.erasing:
            self.begin_erase()
            with self.database.guard():
                ids = [c for (c,) in ConversationRow.select(ConversationRow.id).tuples()
                       .execute(self.db)]
                counts = deletion.delete_all(self.db, usage_totals=usage_totals)
                committed = time.monotonic()
                removed = self.memory.delete_preferences() if preferences else 0
                self.turns.counts_changed(None)
                drafts.remove_all_drafts(self.database.home)
            self.after_delete(committed)
        self.rebuild()
        return AllDeleted(tuple(ids), counts, removed)

    # ------------------------------------------------------------------------ erase
    def begin_erase(self) -> None:
        """Mark an erase as pending before a privacy delete commits: if the process dies
        before `after_delete` has the text off the disk, the next writer finishes it and
        readers can say so."""
        with self.database.guard():
            with os.fdopen(open_no_link(self.marker, os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                           "wb") as handle:
                handle.write(b"A privacy delete has not yet been erased from the disk.\n")
                handle.flush()
                os.fsync(handle.fileno())
            sync_folder(self.database.home)

    def erase_done(self) -> None:
        with self.database.guard():
            self.marker.unlink(missing_ok=True)
            sync_folder(self.database.home)

    def after_delete(self, committed: float) -> None:
        """No copy of deleted text may stay: not in `-wal`, not in a copy kept from
        before a schema upgrade. Only then is the pending erase done; a checkpoint that
        a reader held up leaves it pending for the next writer."""
        complete = self.scrub()
        with self.database.guard():
            upgrade.remove_copies(self.database.path)
        if complete:
            self.erase_done()
            self.erase_seconds = time.monotonic() - committed
            log.info("deleted history erased from the disk %.3f s after its delete committed",
                     self.erase_seconds)
        else:
            log.warning("deleted text stays in %s-wal until the program reading it lets go; "
                        "erased in the background then", self.database.path)
            self.finish_pending_erase()

    def scrub(self, *, vacuum: bool = False) -> bool:
        """Push committed pages into the main file and truncate the WAL, so deleted text
        (already overwritten in place by `secure_delete`) leaves no copy in `-wal`.
        `vacuum` also rebuilds the file, dropping free pages entirely. False when a
        reader kept the checkpoint from finishing (SQLite then reports it busy)."""
        with self.database.guard():
            done = self.database.checkpoint()
            if vacuum:
                self.db.execute_sql("VACUUM")
                done = self.database.checkpoint()
        return done

    def rebuild(self) -> None:
        """After deleting everything: give the free pages back (`VACUUM`), once the
        erase is done. A fault here loses nothing and erases nothing less: logged."""
        try:
            self.scrub(vacuum=True)
        except STORE_EXCEPTIONS as err:  # pragma: no cover - a disk failing just now
            log.info("Could not rebuild %s after deleting everything: %s",
                     self.database.path, err)

    # ------------------------------------------------------ an erase a crash left
    def finish_pending_erase(self) -> None:
        """Start finishing, in the background, an erase left pending (by a killed run, or
        a checkpoint a reader held up); the store is usable meanwhile (its readers already
        see the rows gone)."""
        if not erase_pending(self.database.home) or self.stopping.is_set() or (
                self.eraser is not None and self.eraser.is_alive()):
            return
        log.warning("finishing the erase of deleted history in the background")
        self.eraser = threading.Thread(target=self.erase_in_background,
                                       name="turnlog-erase", daemon=True)
        self.eraser.start()

    def erase_in_background(self) -> None:
        """Checkpoint in short tries on this thread's own connection: each waits at most
        `ERASE_STEP_WAIT_MS` for others, so no reader, writer or opener waits long on
        it; the marker goes only once the WAL is empty and the copies are gone."""
        try:
            self.db.execute_sql(f"PRAGMA busy_timeout = {ERASE_STEP_WAIT_MS}")
            while not self.stopping.is_set():
                with self.erasing:
                    if not erase_pending(self.database.home):
                        return  # a delete's own erase came first
                    if self.try_checkpoint():
                        upgrade.remove_copies(self.database.path)
                        self.erase_done()
                        log.info("the pending erase of deleted history is done")
                        return
                self.stopping.wait(ERASE_RETRY_S)
        except BaseException:  # noqa: BLE001 - the next start tries again; never lost
            log.exception("could not finish the pending erase; the next start tries again")
        finally:
            if not self.db.is_closed():
                self.db.close()  # this thread's own connection

    def try_checkpoint(self) -> bool:
        try:
            row = self.db.execute_sql("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        except (peewee.OperationalError, *STORE_EXCEPTIONS):
            return False  # locked just now: tried again in a moment
        return row is None or row[0] == 0

    def wait_for_erase(self, timeout: float | None = None) -> bool:
        """Wait for a background erase (none running: at once); whether it has ended."""
        if self.eraser is not None:
            self.eraser.join(timeout)
            return not self.eraser.is_alive()
        return True

    def stop(self) -> None:
        """Before the store closes: the background erase stops at its next step (the
        marker stays for the next writer if it was not done)."""
        self.stopping.set()
        self.wait_for_erase(10.0)
