"""Reading what can be read: a conversation's turns row by row, skipping and counting the
rows that cannot be decoded (garbage inside a row) or read (a damaged page), so one bad
row does not block exporting all the others.

It uses its own read-only connection (`mode=ro`) with raw bytes, so it works on a file
that `check_sound` found damaged and never writes to it.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from urllib.parse import quote

from ..core.model import Conversation, ConversationSettings, Turn
from . import attachments, rows
from .errors import NotFound

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:
    from ..core.versions import Versions

log = logging.getLogger(__name__)

_COLUMNS = ", ".join(rows.TURN_COLUMNS)
# A database damaged before an upgrade may lack columns later steps added: what each
# reads as there (`reasoning`: V_REASONING; `incomplete`: V_INCOMPLETE_TITLES).
_LATER_COLUMNS = {"reasoning": "'' AS reasoning", "incomplete": "NULL AS incomplete",
                  "tool_exchange": "NULL AS tool_exchange"}


def _columns(con: sqlite3.Connection) -> str:
    """The turn columns to select from this database's `turns` table."""
    try:
        names = {row[1] for row in con.execute("PRAGMA table_info(turns)")}
    except sqlite3.DatabaseError:
        return _COLUMNS
    if not names:
        return _COLUMNS
    names |= {n.decode("utf-8", "replace") for n in names if isinstance(n, bytes)}
    return ", ".join(column if column in names else _LATER_COLUMNS.get(column, column)
                     for column in rows.TURN_COLUMNS)


@dataclass(frozen=True, slots=True)
class SkippedRow:
    """A row that could not be read: where it was (ordinal if known) and why."""

    ordinal: int | None
    reason: str

    def describe(self) -> str:
        where = f"turn {self.ordinal}" if self.ordinal is not None else "a turn"
        return f"{where}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Readable:
    """The conversation and the turns that could be read, oldest first, and the rows
    that could not; its versions (None: it has none, or its records cannot be read) and
    whether it is a fork (its origin is read through `Forks.origin`)."""

    conversation: Conversation
    turns: tuple[Turn, ...]
    skipped: tuple[SkippedRow, ...] = field(default=())
    versions: Versions | None = None
    forked: bool = False


def connect(path: Path, immutable: bool = False) -> sqlite3.Connection:
    """The lenient reader's own read-only connection (text read as bytes)."""
    uri = f"file:{quote(str(path))}?mode=ro" + ("&immutable=1" if immutable else "")
    con = sqlite3.connect(uri, uri=True, isolation_level=None)
    con.text_factory = bytes
    con.execute("PRAGMA query_only = 1")
    return con


def _text(value: object, column: str) -> str:
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8", "strict")
        except UnicodeDecodeError as err:
            raise ValueError(f"{column} is not valid UTF-8 (byte {err.start})") from None
    if value is None:
        raise ValueError(f"{column} is missing")
    return str(value)


def _turn(row: tuple[object, ...]) -> Turn:
    values = dict(zip(rows.TURN_COLUMNS, row, strict=True))
    usage = values["usage"]
    return rows.turn_of(
        _text(values["id"], "id"),
        int(values["ordinal"]),  # type: ignore[call-overload]
        _text(values["question"], "question"),
        _text(values["answer"], "answer"),
        _text(values["model"], "model"),
        _text(values["finish_reason"], "finish_reason"),
        _text(values["created_at"], "created_at"),
        None if usage is None else _text(usage, "usage"),
        _text(values["reasoning"], "reasoning"),
        None if values["incomplete"] is None else _text(values["incomplete"], "incomplete"),
        None if values["tool_exchange"] is None else _text(values["tool_exchange"],
                                                             "tool_exchange"),
    )


_CONVERSATION_COLUMNS = ("id", "title", "system_prompt", "model", "settings", "created_at",
                         "updated_at")


def _lenient(value: object) -> str:
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return "" if value is None else str(value)


def _time_or_none(value: object) -> datetime | None:
    try:
        return rows.parse_time(_lenient(value))
    except ValueError:
        return None


_SOURCE_COLUMNS = ("source", "source_model")  # from V_SOURCE_MODEL on


def _conversation_columns(con: sqlite3.Connection) -> tuple[str, ...]:
    """The conversation columns to read: the provenance ones where the file has them."""
    have = {_lenient(r[1]) for r in con.execute('PRAGMA table_info("conversations")')}
    return _CONVERSATION_COLUMNS + tuple(c for c in _SOURCE_COLUMNS if c in have)


def _conversation_of(row: tuple[object, ...],
                     columns: tuple[str, ...] = _CONVERSATION_COLUMNS) -> Conversation:
    """A conversation row read leniently: undecodable bytes become U+FFFD, unreadable
    settings the defaults, so a damaged title never hides the conversation."""
    values = dict(zip(columns, row, strict=True))
    try:
        settings = ConversationSettings.from_json(json.loads(_lenient(values["settings"])))
    except (ValueError, TypeError, AttributeError):
        settings = ConversationSettings()
    return Conversation(
        id=int(values["id"]),  # type: ignore[call-overload]
        title=_lenient(values["title"]),
        system_prompt=_lenient(values["system_prompt"]),
        model=_lenient(values["model"]),
        settings=settings,
        created_at=_time_or_none(values["created_at"]),
        updated_at=_time_or_none(values["updated_at"]),
        source=_lenient(values.get("source")),
        source_model=_lenient(values.get("source_model")),
    )


def _conversation(con: sqlite3.Connection, conversation_id: int) -> Conversation:
    columns = _conversation_columns(con)
    row = con.execute(f"SELECT {', '.join(columns)} FROM conversations "
                      "WHERE id = ?", (conversation_id,)).fetchone()
    if row is None:
        raise NotFound(f"There is no conversation {conversation_id}.")
    return _conversation_of(row, columns)


def readable_conversations(path: Path, *, immutable: bool = False
                           ) -> list[tuple[Conversation, int]]:
    """Every conversation with its number of turns, newest first, read leniently (for
    listing a log whose titles may hold damaged text)."""
    con = connect(path, immutable)
    try:
        found = con.execute(
            f"SELECT {', '.join('c.' + c for c in _CONVERSATION_COLUMNS)}, "
            "(SELECT count(*) FROM turns t WHERE t.conversation_id = c.id) "
            "FROM conversations c ORDER BY c.updated_at DESC, c.id DESC").fetchall()
        superseded = _superseded_counts(con)
    finally:
        con.close()
    return [(_conversation_of(row[:-1]), int(row[-1]) - superseded.get(int(row[0]), 0))
            for row in found]


def _superseded_counts(con: sqlite3.Connection) -> dict[int, int]:
    """How many stored turns of each conversation are older versions (a count says the
    turns in use: `core.numbers.in_use`); none when the records cannot be read."""
    return {cid: len(versions.superseded) for cid, versions in _versions_of(con).items()}


def _versions_of(con: sqlite3.Connection, conversation_id: int | None = None
                 ) -> dict[int, Versions]:
    """The versions of each conversation that has any (of `conversation_id` alone unless
    None), as `store.versions.read` makes them; none when the records cannot be read (an
    older or damaged file: every turn counts, unmarked)."""
    try:
        return versions_read(con, conversation_id)
    except sqlite3.DatabaseError:
        return {}


def versions_read(con: sqlite3.Connection, conversation_id: int | None = None
                  ) -> dict[int, Versions]:
    """`_versions_of`, raising what reading the records raises."""
    one = "" if conversation_id is None else "WHERE s.conversation_id = ? "
    records = con.execute(
        "SELECT s.conversation_id, s.turn_id, s.by_turn_id, s.created_at, "
        "a.ordinal, b.ordinal FROM supersedes s "
        "LEFT JOIN turns a ON a.id = s.turn_id LEFT JOIN turns b ON b.id = s.by_turn_id "
        f"{one}ORDER BY s.id", () if conversation_id is None else (conversation_id,)
    ).fetchall()
    by_conversation: dict[int, list[tuple]] = {}
    for record in records:
        by_conversation.setdefault(int(record[0]), []).append(record)
    if not by_conversation:
        return {}
    from ..core.versions import Supersede, Versions  # loaded where versions were made

    found: dict[int, Versions] = {}
    for cid, mine in by_conversation.items():
        texts = [(_lenient(r[1]), _lenient(r[2]), _lenient(r[3]), r[4], r[5]) for r in mine]
        ordinals = {t: o for r in texts for t, o in ((r[0], r[3]), (r[1], r[4]))
                    if o is not None}
        found[cid] = Versions([Supersede(r[0], r[1], r[2]) for r in texts], ordinals)
    return found


def _forked(con: sqlite3.Connection, conversation_id: int) -> bool:
    """Whether the conversation is a fork (False where that cannot be read)."""
    try:
        return con.execute('SELECT 1 FROM forks WHERE conversation_id = ?',
                           (conversation_id,)).fetchone() is not None
    except sqlite3.DatabaseError:
        return False


def _one_by_one(con: sqlite3.Connection, conversation_id: int) -> Iterator[Turn | SkippedRow]:
    """Each row on its own query, for when reading them together fails (a damaged page)."""
    try:
        ordinals = [int(r[0]) for r in con.execute(
            "SELECT ordinal FROM turns WHERE conversation_id = ? ORDER BY ordinal",
            (conversation_id,))]
    except sqlite3.DatabaseError as err:
        yield SkippedRow(None, f"the list of turns cannot be read ({err})")
        return
    for ordinal in ordinals:
        try:
            row = con.execute(f"SELECT {_columns(con)} FROM turns WHERE conversation_id = ? "
                              "AND ordinal = ?", (conversation_id, ordinal)).fetchone()
            yield _turn(row)
        except (sqlite3.DatabaseError, ValueError, TypeError) as err:
            yield SkippedRow(ordinal, str(err))


def _all_rows(con: sqlite3.Connection, conversation_id: int) -> Iterator[Turn | SkippedRow]:
    found = con.execute(f"SELECT {_columns(con)} FROM turns WHERE conversation_id = ? "
                        "ORDER BY ordinal", (conversation_id,)).fetchall()
    for row in found:
        try:
            yield _turn(row)
        except (ValueError, TypeError) as err:
            ordinal = row[1] if isinstance(row[1], int) else None
            yield SkippedRow(ordinal, str(err))


def readable_turns(path: Path, conversation_id: int, *, immutable: bool = False) -> Readable:
    """What can be read of one conversation in the database at `path` (`immutable`: a
    settled WAL database in a read-only folder, see `files.settled`)."""
    con = connect(path, immutable)
    try:
        return read_turns(con, conversation_id)
    finally:
        con.close()


def read_turns(con: sqlite3.Connection, conversation_id: int) -> Readable:
    """`readable_turns`, on a connection made by `connect`."""
    conversation = _conversation(con, conversation_id)
    try:
        found = list(_all_rows(con, conversation_id))
    except sqlite3.DatabaseError:
        found = list(_one_by_one(con, conversation_id))
    turns = _with_files(con, tuple(x for x in found if isinstance(x, Turn)))
    versions = _versions_of(con, conversation_id).get(conversation_id)
    forked = _forked(con, conversation_id)
    skipped = tuple(x for x in found if isinstance(x, SkippedRow))
    return Readable(conversation, turns, skipped, versions, forked)


def _with_files(con: sqlite3.Connection, turns: tuple[Turn, ...]) -> tuple[Turn, ...]:
    """The turns with their attachments, where those can be read (a damaged table of
    them leaves the turns as they are: their text matters most)."""
    try:
        files = attachments.read_of_turns(con.execute, [t.id for t in turns])
    except (sqlite3.DatabaseError, ValueError) as err:
        log.warning("The attachments could not be read: %s", err)
        return turns
    return tuple(replace(t, attachments=files[t.id]) if t.id in files else t for t in turns)


def export_readable(path: Path, conversation_id: int, fmt: str = "jsonl"
                    ) -> tuple[str, tuple[SkippedRow, ...]]:
    """Export what can be read of a conversation (for a damaged log): the text in `fmt`
    and the rows that were skipped."""
    from ..formats.export import export_text  # the exporters: a salvage's, not a reader's

    found = readable_turns(path, conversation_id)
    return export_text(found.conversation, found.turns, fmt), found.skipped


@dataclass(frozen=True, slots=True)
class Salvaged:
    """Everything that could be read of a damaged log, as one text, with its counts."""

    text: str
    conversations: int
    turns: int
    skipped: tuple[SkippedRow, ...]
    unreadable: str = ""  # why nothing at all could be read ("" when something could)

    def describe(self) -> str:
        if self.unreadable:
            return f"Nothing could be read: {self.unreadable}"
        rows_skipped = len(self.skipped)
        return (f"Exported {self.turns:,} turn{'s' * (self.turns != 1)} of "
                f"{self.conversations:,} conversation{'s' * (self.conversations != 1)}; "
                f"{rows_skipped:,} row{'s' * (rows_skipped != 1)} could not be read and "
                f"{'were' if rows_skipped != 1 else 'was'} skipped.")


def salvage_all(path: Path, fmt: str = "markdown") -> Salvaged:
    """Every conversation of the database at `path` that can be read, row by row (a bad
    row is skipped and counted), exported one after another in `fmt`. Never writes."""
    from ..formats.export import export_text  # the exporters: a salvage's, not a reader's

    try:
        listed = readable_conversations(path)
    except sqlite3.DatabaseError as err:
        return Salvaged("", 0, 0, (), unreadable=str(err))
    parts: list[str] = []
    turns = 0
    skipped: list[SkippedRow] = []
    for conversation, _count in reversed(listed):  # oldest first
        try:
            found = readable_turns(path, conversation.id)
        except (sqlite3.DatabaseError, NotFound) as err:
            skipped.append(SkippedRow(None, f"conversation {conversation.id}: {err}"))
            continue
        parts.append(export_text(found.conversation, found.turns, fmt))
        turns += len(found.turns)
        skipped += found.skipped
    return Salvaged("\n".join(parts), len(parts), turns, tuple(skipped))
