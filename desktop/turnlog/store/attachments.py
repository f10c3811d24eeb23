"""Attachments in the database: blobs by SHA-256, and the turns' and drafts' files.

Each file's original and the bytes sent (where they differ) are blobs, stored once
however many turns or drafts name them, and always inside the database: a delete then
erases them with `secure_delete` and the WAL truncation, where a loose file's blocks
could stay on disk. `sweep` deletes the blobs nothing names any more; every delete runs
it in its own transaction.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

import peewee

from .errors import NotFound

TYPE_CHECKING = False  # typing's constant, without loading typing: turnlog-cli starts sooner
if TYPE_CHECKING:  # loaded with the first attachment read: most turns have none
    from typing import Any

    from ..core.attachments import Attachment

COLUMNS = ("position", "name", "kind", "mime", "size", "original", "sent", "sent_mime",
           "width", "height", "encoding", "notes")
_CHUNK = 500


def digest_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _put_blob(db: peewee.SqliteDatabase, digest: str, data: bytes | None, name: str) -> None:
    if data is not None:
        db.execute_sql('INSERT OR IGNORE INTO "blobs" ("digest", "data") VALUES (?, ?)',
                       (digest, data))
    elif db.execute_sql('SELECT 1 FROM "blobs" WHERE "digest" = ?', (digest,)).fetchone() \
            is None:
        raise NotFound(f"The file {name} is no longer stored.")


def _values(attachment: Attachment, position: int, db: peewee.SqliteDatabase
            ) -> tuple[Any, ...]:
    """Store the attachment's blobs; its row's values (`COLUMNS`)."""
    _put_blob(db, attachment.digest, attachment.original, attachment.name)
    sent = digest_of(attachment.sent)
    if sent != attachment.digest:
        _put_blob(db, sent, attachment.sent, attachment.name)
    return (position, attachment.name, attachment.kind.value, attachment.mime,
            attachment.size, attachment.digest, sent, attachment.sent_mime, attachment.width,
            attachment.height, attachment.encoding, json.dumps(list(attachment.notes)))


def add_to_turn(db: peewee.SqliteDatabase, turn_id: str,
                attachments: Sequence[Attachment], start: int = 0) -> None:
    """Store a turn's files (inside the caller's transaction, the one that writes the
    turn), from position `start` on, each with when a later import added it (its
    `added_at`, if any). An attachment without its `original` must name a blob already
    stored (a fork's copy, an import of a file seen before)."""
    columns = ", ".join(f'"{c}"' for c in COLUMNS)
    for position, attachment in enumerate(attachments, start=start):
        db.execute_sql(
            f'INSERT INTO "turn_attachments" ("turn_id", {columns}, "added_at") '
            f'VALUES (?, {", ".join("?" * len(COLUMNS))}, ?)',
            (turn_id, *_values(attachment, position, db), attachment.added_at or None))


def journal_added(db: peewee.SqliteDatabase, turn_id: str, start: int) -> None:
    """Journal the files added to a turn already stored (from position `start` on) for
    the sync to publish: each as a record of its own, named by its turn (a delete of the
    turn takes it along), since the turn's own record may have gone out already."""
    db.execute_sql(
        'INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", "value") SELECT '
        '\'files\', a."turn_id", c."gid", a."gid", NULL FROM "turn_attachments" a JOIN '
        '"turns" t ON t."id" = a."turn_id" JOIN "conversations" c ON c."id" = '
        't."conversation_id" WHERE a."turn_id" = ? AND a."position" >= ? AND (SELECT '
        '"quiet" FROM "sync_state") = 0 ORDER BY a."position"', (turn_id, start))


def stored_originals(db: peewee.SqliteDatabase, turn_ids: Sequence[str]
                     ) -> dict[str, tuple[set[str], int]]:
    """For those of `turn_ids` that have files: their originals' SHA-256 and the next
    free position."""
    found: dict[str, tuple[set[str], int]] = {}
    for start in range(0, len(turn_ids), _CHUNK):
        chunk = list(turn_ids[start:start + _CHUNK])
        for turn_id, original, position in db.execute_sql(
                'SELECT "turn_id", "original", "position" FROM "turn_attachments" WHERE '
                f'"turn_id" IN ({", ".join("?" * len(chunk))})', chunk):
            digests, after = found.get(turn_id, (set(), 0))
            digests.add(original)
            found[turn_id] = (digests, max(after, position + 1))
    return found


def _str(value: Any) -> str:
    """A text column, also from a connection that reads text as bytes (a salvage)."""
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _attachment(row: Sequence[Any], sent: bytes, added_at: Any = None) -> Attachment:
    from ..core.attachments import Attachment, AttachmentKind

    _pos, name, kind, mime, size, original, _sent, sent_mime, width, height, encoding, \
        notes = (_str(v) if isinstance(v, bytes) else v for v in row)
    return Attachment(name=name, kind=AttachmentKind(kind), mime=mime, size=size,
                      digest=original, sent=sent, sent_mime=sent_mime, width=width,
                      height=height, encoding=encoding, notes=tuple(json.loads(notes)),
                      added_at=_str(added_at) if added_at else "")


def of_turns(db: peewee.SqliteDatabase, turn_ids: Iterable[str]
             ) -> dict[str, tuple[Attachment, ...]]:
    """The files of the turns that have any, in order, with the bytes they were sent as."""
    return read_of_turns(db.execute_sql, turn_ids)


def read_of_turns(run: Callable[[str, Sequence[Any]], Any], turn_ids: Iterable[str]
                  ) -> dict[str, tuple[Attachment, ...]]:
    """`of_turns` through any connection's `run(sql, params)` (a salvage reads the file
    with plain sqlite3). A database from before attachments has none; one from before
    files added by import has none added so."""
    ids = list(turn_ids)
    found: dict[str, list[Attachment]] = {}
    if not ids or not run('SELECT 1 FROM sqlite_master WHERE name = ?',
                          ("turn_attachments",)).fetchone():
        return {}
    added = "a.\"added_at\"" if run(
        "SELECT 1 FROM pragma_table_info('turn_attachments') WHERE name = 'added_at'",
        ()).fetchone() else "NULL"
    columns = ", ".join([*(f'a."{c}"' for c in COLUMNS), added])
    for start in range(0, len(ids), _CHUNK):
        chunk = ids[start:start + _CHUNK]
        rows = run(
            f'SELECT a."turn_id", {columns}, b."data" FROM "turn_attachments" a '
            f'JOIN "blobs" b ON b."digest" = a."sent" '
            f'WHERE a."turn_id" IN ({", ".join("?" * len(chunk))}) '
            f'ORDER BY a."turn_id", a."position"', chunk).fetchall()
        for turn_id, *row, added_at, data in rows:
            found.setdefault(_str(turn_id), []).append(_attachment(row, bytes(data), added_at))
    return {turn_id: tuple(files) for turn_id, files in found.items()}


def blob(db: peewee.SqliteDatabase, digest: str) -> bytes:
    """A stored file's bytes (an original, to open or save)."""
    row = db.execute_sql('SELECT "data" FROM "blobs" WHERE "digest" = ?', (digest,)).fetchone()
    if row is None:
        raise NotFound("That file is no longer stored.")
    return bytes(row[0])


def save_draft(db: peewee.SqliteDatabase, conversation_id: int,
               attachments: Sequence[Attachment]) -> None:
    """The draft's files, replacing those it had (blobs no longer named are swept)."""
    columns = ", ".join(f'"{c}"' for c in COLUMNS)
    with db.atomic():
        db.execute_sql('DELETE FROM "draft_attachments" WHERE "conversation_id" = ?',
                       (conversation_id,))
        for position, attachment in enumerate(attachments):
            db.execute_sql(
                f'INSERT INTO "draft_attachments" ("conversation_id", {columns}) '
                f'VALUES (?, {", ".join("?" * len(COLUMNS))})',
                (conversation_id, *_values(attachment, position, db)))
        sweep(db)


def load_draft(db: peewee.SqliteDatabase, conversation_id: int) -> tuple[Attachment, ...]:
    """The draft's files, each with its original (it is not stored with a turn yet)."""
    columns = ", ".join(f'a."{c}"' for c in COLUMNS)
    rows = db.execute_sql(
        f'SELECT {columns}, s."data", o."data" FROM "draft_attachments" a '
        f'JOIN "blobs" s ON s."digest" = a."sent" JOIN "blobs" o ON o."digest" = a."original" '
        f'WHERE a."conversation_id" = ? ORDER BY a."position"', (conversation_id,)).fetchall()
    return tuple(replace(_attachment(row, bytes(sent)), original=bytes(original))
                 for *row, sent, original in rows)


def save_assistant_files(db: peewee.SqliteDatabase, assistant_id: int,
                         files: Sequence[Attachment]) -> None:
    """An assistant's files, replacing those it had (inside the caller's transaction; the
    caller sweeps)."""
    columns = ", ".join(f'"{c}"' for c in COLUMNS)
    db.execute_sql('DELETE FROM "assistant_files" WHERE "assistant_id" = ?', (assistant_id,))
    for position, attachment in enumerate(files):
        db.execute_sql(
            f'INSERT INTO "assistant_files" ("assistant_id", {columns}) '
            f'VALUES (?, {", ".join("?" * len(COLUMNS))})',
            (assistant_id, *_values(attachment, position, db)))


def load_assistant_files(db: peewee.SqliteDatabase, assistant_id: int
                         ) -> tuple[Attachment, ...]:
    """An assistant's files, each with its original (to attach to a first question)."""
    columns = ", ".join(f'a."{c}"' for c in COLUMNS)
    rows = db.execute_sql(
        f'SELECT {columns}, s."data", o."data" FROM "assistant_files" a '
        f'JOIN "blobs" s ON s."digest" = a."sent" JOIN "blobs" o ON o."digest" = a."original" '
        f'WHERE a."assistant_id" = ? ORDER BY a."position"', (assistant_id,)).fetchall()
    return tuple(replace(_attachment(row, bytes(sent)), original=bytes(original))
                 for *row, sent, original in rows)


def remove_drafts(db: peewee.SqliteDatabase, conversation_ids: Iterable[int] | None) -> None:
    """Forget the files of these conversations' drafts (None: of every draft)."""
    if conversation_ids is None:
        db.execute_sql('DELETE FROM "draft_attachments"')
        return
    for cid in conversation_ids:
        db.execute_sql('DELETE FROM "draft_attachments" WHERE "conversation_id" = ?', (cid,))


def sweep(db: peewee.SqliteDatabase) -> int:
    """Delete the blobs no turn, draft or assistant names; returns how many went."""
    cursor = db.execute_sql(
        'DELETE FROM "blobs" WHERE "digest" NOT IN ('
        'SELECT "original" FROM "turn_attachments" UNION SELECT "sent" FROM "turn_attachments" '
        'UNION SELECT "original" FROM "draft_attachments" '
        'UNION SELECT "sent" FROM "draft_attachments" '
        'UNION SELECT "original" FROM "assistant_files" '
        'UNION SELECT "sent" FROM "assistant_files")')
    return int(cursor.rowcount or 0)

