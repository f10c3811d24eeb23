"""A title taken from the first question follows the first turn of the active line.

The functions here run inside the caller's transaction and guard: after a commit, a
delete or a change of version, `follow_first_turn` makes the title again from the
first turn (or the neutral empty title when none is left), unless the user typed it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import peewee

from ..core.title_sources import MODEL, QUESTION
from ..system.lazy import LazyModule
from . import versions
from .models import ConversationRow, TurnRow

if TYPE_CHECKING:
    from . import search
else:
    # the index's SQL: loaded by the first change of a title or search, not by reading
    search = LazyModule("turnlog.store.search")


def first_turn(db: peewee.Database, conversation_id: int) -> str | None:
    """The id of the first turn of the active line, None when there is none."""
    hidden = versions.read(db, conversation_id).superseded
    mine = TurnRow.conversation == conversation_id
    if hidden:
        mine &= TurnRow.id.not_in(list(hidden))
    row = (TurnRow.select(TurnRow.id).where(mine)
           .order_by(TurnRow.ordinal).limit(1).tuples().first(db))
    return str(row[0]) if row is not None else None


def _question(db: peewee.Database, turn_id: str) -> str:
    """A turn's question, read leniently: damaged text never fails the change."""
    row = TurnRow.select(peewee.Cast(TurnRow.question, "BLOB")).where(
        TurnRow.id == turn_id).tuples().first(db)
    data = row[0] if row is not None else b""
    return bytes(data).decode("utf-8", "replace") if isinstance(data, bytes | memoryview) \
        else str(data or "")


def set_title(db: peewee.SqliteDatabase, conversation_id: int, title: str,
              source: str) -> None:
    """Write the title and its source, and index it as the search finds it."""
    ConversationRow.update({ConversationRow.title: title,
                            ConversationRow.title_source: source}).where(
        ConversationRow.id == conversation_id).execute(db)
    search.reindex_title(db, conversation_id)
    search.purge(db, turns=False)  # the old title leaves the index


def follow_first_turn(db: peewee.SqliteDatabase, conversation_id: int, *,
                      first_before: str | None = None) -> bool:
    """Make a derived title again from the first turn; returns whether it changed.

    A title taken from the first question always follows it. A title the model made
    goes back to the first question when the first turn it was made from is no longer
    the first (`first_before`: the first turn's id before the change)."""
    row = ConversationRow.select().where(ConversationRow.id == conversation_id).first(db)
    if row is None or row.title_source not in (QUESTION, MODEL):
        return False
    first = first_turn(db, conversation_id)
    if row.title_source == MODEL and (first_before is None or first == first_before):
        return False
    from ..core.titles import title_from_question  # the making of a title: a change's only

    title = title_from_question(_question(db, first)) if first is not None else ""
    if title == row.title and row.title_source == QUESTION:
        return False
    set_title(db, conversation_id, title, QUESTION)
    return True
