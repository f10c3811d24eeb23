"""Request records through an Export all: read out in the file's own terms (its turn ids,
a summary's place in the file, how many supersede records a request saw, the tool
definitions and texts it carried) and written back with every reference turned into the
importing data directory's numbers, so a past answer's request rebuilds there to the
body its stored SHA-256 proves. Both run inside the caller's transaction."""

from __future__ import annotations

import bisect
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

import peewee

from ..core.imports import REQUEST_FIELDS, USAGE_FIELDS
from . import proofs

_COLUMNS = tuple(REQUEST_FIELDS)
_USAGE = tuple(USAGE_FIELDS)
# A turn a record names, as the record's columns name it.
_TURN_REFERENCES = ("turn_id", "run_first", "run_last")


def _ids(db: peewee.Database, table: str, conversation_id: int) -> list[int]:
    return [int(i) for (i,) in db.execute_sql(
        f'SELECT "id" FROM "{table}" WHERE "conversation_id" = ? ORDER BY "id"',
        (conversation_id,))]


def exported(db: peewee.Database, conversation_id: int) -> list[dict[str, Any]]:
    """The conversation's request records, oldest first, as `request` lines carry them
    (`core.imports.REQUEST_FIELDS` and `REQUEST_REFERENCES`)."""
    place = {sid: n for n, sid in enumerate(_ids(db, "summaries", conversation_id))}
    marks = _ids(db, "supersedes", conversation_id)
    columns = ", ".join(f'"{c}"' for c in _COLUMNS)
    rows = db.execute_sql(
        f'SELECT {columns}, "summary_id", "version_mark", "tools_digest", "texts_id" '
        'FROM "requests" WHERE "conversation_id" = ? ORDER BY "id"',
        (conversation_id,)).fetchall()
    tools: dict[str, str | None] = {}
    texts: dict[int, list[list[str | None]] | None] = {}  # most records share a set
    found = []
    for row in rows:
        entry: dict[str, Any] = dict(zip(_COLUMNS, row, strict=False))
        summary_id, mark, digest, texts_id = row[len(_COLUMNS):]
        entry["summary"] = place.get(summary_id) if summary_id is not None else None
        entry["versions_seen"] = bisect.bisect_right(marks, mark or 0)
        if digest is not None and digest not in tools:
            tools[digest] = db.execute_sql(
                'SELECT "definitions" FROM "tool_sets" WHERE "digest" = ?',
                (digest,)).fetchone()[0]
        entry["tools"] = tools.get(digest) if digest is not None else None
        if texts_id is not None and texts_id not in texts:
            texts[texts_id] = _texts(db, texts_id)
        entry["texts"] = texts.get(texts_id) if texts_id is not None else None
        found.append(entry)
    return found


def _texts(db: peewee.Database, set_id: int | None) -> list[list[str | None]] | None:
    """A text set's texts in wire order as [kind, source, text] (text None: deleted)."""
    if set_id is None:
        return None
    (listed,) = db.execute_sql('SELECT "members" FROM "text_sets" WHERE "id" = ?',
                               (set_id,)).fetchone()
    out: list[list[str | None]] = []
    for kind, text_id in json.loads(listed):
        row = None if text_id is None else db.execute_sql(
            'SELECT "source", "text" FROM "kept_texts" WHERE "id" = ?', (text_id,)).fetchone()
        out.append([kind, row[0], row[1]] if row is not None else [kind, "", None])
    return out


def exported_usage(db: peewee.Database, conversation_id: int) -> list[dict[str, Any]]:
    """The conversation's usage totals, one entry per profile, model and currency."""
    columns = ", ".join(f'"{c}"' for c in _USAGE)
    return [dict(zip(_USAGE, row, strict=True)) for row in db.execute_sql(
        f'SELECT {columns} FROM "usage_conversations" WHERE "conversation_id" = ? '
        'ORDER BY "profile", "model", "currency"', (conversation_id,))]


def write(db: peewee.Database, conversation_id: int, entries: Sequence[dict[str, Any]], *,
          turn_ids: Mapping[str, str], summary_ids: Mapping[int, int],
          sources: Mapping[tuple[str, str], str]) -> int:
    """Add a newly imported conversation's request records (checked by the reader):
    `turn_ids` maps the file's turn ids to those stored, `summary_ids` a summary's place
    in the file to its stored id, `sources` a (kind, source) of a pin, note or preference
    to its stored id. A record naming a turn or a summary the file does not hold keeps no
    hash (a part of its body is gone). Returns how many were added."""
    marks = _ids(db, "supersedes", conversation_id)
    names = [*_COLUMNS, "summary_id", "version_mark", "tools_digest", "texts_id",
             "conversation_id"]
    quoted = ", ".join(f'"{c}"' for c in names)
    sql = f'INSERT INTO "requests" ({quoted}) VALUES ({", ".join("?" * len(names))})'
    for entry in entries:
        values = {c: entry[c] for c in _COLUMNS}
        lost = False
        for key in _TURN_REFERENCES:
            if entry[key] is not None:
                values[key] = turn_ids.get(entry[key])
                lost = lost or values[key] is None
        summary = entry["summary"]
        summary_id = summary_ids.get(summary) if summary is not None else None
        lost = lost or (summary is not None and summary_id is None)
        if lost:
            values["sha256"] = None
        seen = min(entry["versions_seen"], len(marks))
        db.execute_sql(sql, (*values.values(), summary_id, marks[seen - 1] if seen else 0,
                             tool_set(db, entry["tools"]),
                             _text_set(db, conversation_id, entry["texts"], sources),
                             conversation_id))
    return len(entries)


def tool_set(db: peewee.Database, definitions: str | None) -> str | None:
    if definitions is None:
        return None
    digest = hashlib.sha256(definitions.encode("utf-8", "surrogatepass")).hexdigest()
    db.execute_sql('INSERT OR IGNORE INTO "tool_sets" ("digest", "definitions") '
                   "VALUES (?, ?)", (digest, definitions))
    return digest


def _text_set(db: peewee.Database, conversation_id: int, texts: list[list[Any]] | None,
              sources: Mapping[tuple[str, str], str]) -> int | None:
    if texts is None:
        return None
    return proofs.text_set(db, conversation_id, [
        (kind, sources.get((kind, source), ""), text) for kind, source, text in texts])


def write_usage(db: peewee.Database, conversation_id: int,
                entries: Sequence[dict[str, Any]]) -> None:
    """A newly imported conversation's usage totals as the file counted them (in place
    of any the import counted itself)."""
    if not entries:
        return
    db.execute_sql('DELETE FROM "usage_conversations" WHERE "conversation_id" = ?',
                   (conversation_id,))
    columns = ", ".join(f'"{c}"' for c in ("conversation_id", *_USAGE))
    db.cursor().executemany(
        f'INSERT INTO "usage_conversations" ({columns}) '
        f'VALUES ({", ".join("?" * (len(_USAGE) + 1))})',
        [(conversation_id, *(e[c] for c in _USAGE)) for e in entries])
