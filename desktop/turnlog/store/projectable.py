"""What a preview of a send reads of one conversation (`turnlog-cli project`), on one
read-only connection: its turns as the lenient reader reads them (`salvage`: a row that
cannot be read is counted), then, read as strictly as the store's parts read them, the
summary in effect, the pins, notes and preferences the request carries, and the versions.

Plain SQL, so neither the tables (peewee's models) nor the parts that write these records
are loaded, and SQLite reads the file's schema once for all of it.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from ..core.memory import StoredNote, StoredPin, StoredPreference, conversation_memory
from . import rows, salvage
from .errors import NotFound

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from ..core.memory import Memory
    from ..core.summaries import StoredSummary
    from ..core.versions import Versions


@dataclass(frozen=True, slots=True)
class Projectable:
    """The conversation as read (`found`), and, when every turn could be read, what a
    request carries besides its turns (None otherwise: nothing can be projected)."""

    found: salvage.Readable
    summary: StoredSummary | None = None
    memory: Memory | None = None
    versions: Versions | None = None


def read(path: Path, conversation_id: int, *, immutable: bool = False) -> Projectable:
    """What `project` reads of conversation `conversation_id` of the database at `path`."""
    con = salvage.connect(path, immutable)
    try:
        found = salvage.read_turns(con, conversation_id)
        if found.skipped:
            return Projectable(found)
        con.text_factory = str  # strictly from here: text that is not UTF-8 is a fault
        return Projectable(found, _summary(con, conversation_id),
                           _memory(con, conversation_id), _versions(con, conversation_id))
    finally:
        con.close()


def _summary(con: sqlite3.Connection, conversation_id: int) -> StoredSummary | None:
    """The summary a send would reuse (`store.records.latest_summary`)."""
    current = con.execute(rows.CURRENT_SUMMARY, (conversation_id,)).fetchone()
    if current is None:
        return None
    row = con.execute(f"SELECT {', '.join(rows.SUMMARY_COLUMNS)} FROM summaries WHERE id = ?",
                      (current[0],)).fetchone()
    return None if row is None else rows.stored_summary_of(
        dict(zip(rows.SUMMARY_COLUMNS, row, strict=True)))


def _memory(con: sqlite3.Connection, conversation_id: int) -> Memory:
    """What the request carries besides the log (`store.memory(conversation_id)`)."""
    row = con.execute("SELECT settings FROM conversations WHERE id = ?",
                      (conversation_id,)).fetchone()
    if row is None:  # deleted since its turns were read
        raise NotFound(f"There is no conversation {conversation_id}.")
    settings = rows.settings_of(row[0])
    pins = [StoredPin(pid, cid, text, kind, tuple(json.loads(sources)), created_at)
            for pid, cid, text, kind, sources, created_at in con.execute(
                "SELECT id, conversation_id, text, kind, sources, created_at FROM pins "
                "WHERE conversation_id = ? ORDER BY id", (conversation_id,))]
    notes = [StoredNote(*row) for row in con.execute(
        "SELECT id, conversation_id, text, priority, created_at FROM notes "
        "WHERE conversation_id = ? ORDER BY id", (conversation_id,))]
    preferences = [StoredPreference(*row) for row in con.execute(
        "SELECT id, text, priority, created_at FROM preferences ORDER BY id")] \
        if settings.preferences else []
    return conversation_memory(pins, notes, preferences, share_percent=settings.memory_share)


def _versions(con: sqlite3.Connection, conversation_id: int) -> Versions:
    """Which turns are superseded (`store.turns.versions`)."""
    found = salvage.versions_read(con, conversation_id).get(conversation_id)
    if found is not None:
        return found
    from ..core.versions import Versions

    return Versions((), {})
