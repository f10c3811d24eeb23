"""Applying one checked change record from another machine, by the sync's rules. Runs
inside the caller's transaction, with the journaling triggers quiet (`sync_state.quiet`).

- A conversation's fields: the later clock reading wins, field by field; the losing value
  stays in the journal (the conversation's history of changes) either way.
- A turn stands after the version group its record names. Two turns after the same group
  (two machines appending offline): the earlier by clock reading (which ends in the node
  id) continues the conversation; the other, with the turns after it, goes to a fork
  "continued on" its machine, holding copies of the turns before it. Every machine
  makes the same fork (its id and its copies' ids derive from the turn's id), so the
  order records arrive in does not matter. Turns keep their ids: what refers to them by
  id (request records, pins) still finds them.
- Versions of one turn are all kept; which is active is decided by the version records'
  clock readings (the latest wins), whatever order they came in.
- Pins, notes, preferences and folders: added, changed (the later reading wins) or
  removed (for good) as a whole.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import UTC, datetime
from typing import Any

import peewee

from ..core.proof import SYSTEM_TEXT
from ..core.request_record import ordinal_ranges
from . import attachments, proofs, rows, search, versions
from .errors import SyncRecordInvalid
from .models import ConversationRow, ForkRow, TurnRow, insert
from .sync_records import ROW_KINDS, refuse

SYNC_NAMESPACE = uuid.UUID("0b7c3f52-9e61-4d2a-8c1b-5a4e7f9d2c60")


def derived_id(*parts: str) -> str:
    """An id every machine derives alike (a fork made by a concurrent append, its copies)."""
    return uuid.uuid5(SYNC_NAMESPACE, "/".join(parts)).hex


def newest(db: peewee.Database, *subjects: str) -> str:
    """The latest clock reading journaled for any of `subjects` ('' for none)."""
    marks = ", ".join("?" * len(subjects))
    found = db.execute_sql(f'SELECT max("hlc") FROM "sync_journal" WHERE "subject" IN ({marks})',
                           subjects).fetchone()[0]
    return str(found or "")


def journal(db: peewee.Database, record: dict[str, Any], origin: str, subject: str | None,
            value: str | None = None) -> None:
    db.execute_sql('INSERT INTO "sync_journal" ("kind", "gid", "conv", "subject", "value", '
                   '"hlc", "origin") VALUES (?, ?, ?, ?, ?, ?, ?)',
                   (record["kind"], record["id"], record.get("conv"), subject, value,
                    record["hlc"], origin))


def conversation_id(db: peewee.Database, gid: str | None) -> int | None:
    if gid is None:
        return None
    row = db.execute_sql('SELECT "id" FROM "conversations" WHERE "gid" = ?', (gid,)).fetchone()
    return None if row is None else int(row[0])


def _needed_conversation(db: peewee.Database, record: dict[str, Any]) -> int:
    cid = conversation_id(db, record.get("conv"))
    if cid is None:
        raise refuse(record, "its conversation was never seen here")
    return cid


# ------------------------------------------------------------------ conversations
_COLUMNS = {"title": "title", "title_source": "title_source", "system_prompt": "system_prompt",
            "model": "model", "settings": "settings", "starred": "starred"}


def conversation(db: peewee.Database, record: dict[str, Any], origin: str) -> None:
    gid, fields = record["id"], record["fields"]
    cid = conversation_id(db, gid)
    create = record.get("create") is True
    subject = f"{gid}/" if create else f"{gid}/{record['field']}"
    if cid is None:
        if not create:
            raise refuse(record, "a change of a conversation never seen here")
        stamp = str(fields["created_at"])
        row = insert(db, ConversationRow, title=fields["title"], created_at=stamp,
                     updated_at=stamp, gid=gid, title_source=fields.get("title_source", "user"),
                     system_prompt=fields.get("system_prompt", ""), model=fields.get("model", ""),
                     settings=fields.get("settings", "{}"), source=fields.get("source", ""),
                     source_model=fields.get("source_model", ""),
                     starred=bool(fields.get("starred", False)),
                     folder=_folder_id(db, fields.get("folder")))
        cid = row.id
        if "fork" in record:  # a fork the user made: where it came from, if still here
            insert(db, ForkRow, conversation=cid, at_ordinal=record["fork"]["at"],
                   source_id=conversation_id(db, record["fork"]["of"]), continued_on=None)
    else:
        groups = ([(name, names) for name, names in _field_groups(fields)] if create
                  else [(record["field"], tuple(fields))])
        for name, names in groups:
            if record["hlc"] > newest(db, f"{gid}/{name}", f"{gid}/"):
                _set_fields(db, cid, {n: fields[n] for n in names if n in fields})
    journal(db, record, origin, subject, json.dumps(fields, ensure_ascii=False))


def _field_groups(fields: dict[str, Any]) -> list[tuple[str, tuple[str, ...]]]:
    from .sync_records import CHANGING

    return [(name, names) for name, names in CHANGING.items() if names[0] in fields]


def _folder_id(db: peewee.Database, gid: Any) -> int | None:
    if gid is None:
        return None
    row = db.execute_sql('SELECT "id" FROM "folders" WHERE "gid" = ?', (gid,)).fetchone()
    return None if row is None else int(row[0])


def _set_fields(db: peewee.Database, cid: int, fields: dict[str, Any]) -> None:
    changes: dict[str, Any] = {_COLUMNS[n]: v for n, v in fields.items() if n in _COLUMNS}
    if "starred" in changes:
        changes["starred"] = int(bool(changes["starred"]))
    if "folder" in fields:
        changes["folder_id"] = _folder_id(db, fields["folder"])
    if not changes:
        return
    sets = ", ".join(f'"{column}" = ?' for column in changes)
    before = None if "system_prompt" not in changes else db.execute_sql(
        'SELECT "system_prompt" FROM "conversations" WHERE "id" = ?', (cid,)).fetchone()[0]
    db.execute_sql(f'UPDATE "conversations" SET {sets} WHERE "id" = ?', (*changes.values(), cid))
    if before is not None:  # what the prompt lost goes from the versions requests kept too
        proofs.forget_item(db, SYSTEM_TEXT, str(cid), cid, old=before,
                           new=changes["system_prompt"])
    if "title" in changes:
        search.reindex_title(db, cid)


# ------------------------------------------------------------------------- turns
def _turn_row(db: peewee.Database, turn_id: str | None) -> tuple[Any, ...] | None:
    if turn_id is None:
        return None
    return db.execute_sql('SELECT "conversation_id", "ordinal", "after_id", "version_of" FROM '
                          '"turns" WHERE "id" = ?', (turn_id,)).fetchone()


def turn(db: peewee.Database, record: dict[str, Any], origin: str, machine: str) -> None:
    """Insert a turn where its place says (see the module's rules)."""
    root = _turn_row(db, record.get("version_of"))
    if root is not None:
        _insert_turn(db, root[0], record, after=root[2], version_of=record["version_of"])
        settle_versions(db, record["version_of"])
    else:
        after = _turn_row(db, record.get("after"))
        host = after[0] if after is not None else _needed_conversation(db, record)
        place = record.get("after")  # kept when that turn was deleted, as its origin keeps it
        rival = db.execute_sql(
            'SELECT "id" FROM "turns" WHERE "conversation_id" = ? AND "after_id" IS ? AND '
            '"version_of" IS NULL AND "id" != ?', (host, place, record["id"])).fetchone()
        if rival is not None and _clock_of(db, rival[0]) > record["hlc"]:
            fork = make_fork(db, host, rival[0], place, _origin_of(db, rival[0], machine))
            move_branch(db, host, rival[0], fork)
        elif rival is not None:
            host = make_fork(db, host, record["id"], place, origin)
        _insert_turn(db, host, record, after=place, version_of=None)
    journal(db, record, origin, record["id"])


def _clock_of(db: peewee.Database, turn_id: str) -> str:
    found = db.execute_sql('SELECT min("hlc") FROM "sync_journal" WHERE "gid" = ? AND "kind" = '
                           "'turn'", (turn_id,)).fetchone()[0]
    return str(found or "")


def _origin_of(db: peewee.Database, turn_id: str, machine: str) -> str:
    found = db.execute_sql('SELECT "origin" FROM "sync_journal" WHERE "gid" = ? AND "kind" = '
                           "'turn' ORDER BY \"hlc\" LIMIT 1", (turn_id,)).fetchone()
    return str(found[0]) if found is not None and found[0] is not None else machine


def _insert_turn(db: peewee.Database, cid: int, record: dict[str, Any], *, after: str | None,
                 version_of: str | None) -> None:
    ordinal = _take_ordinal(db, cid, record["hlc"])
    insert(db, TurnRow, id=record["id"], conversation=cid, ordinal=ordinal,
           question=record["question"], answer=record["answer"], model=record["model"],
           finish_reason=record["finish_reason"], created_at=record["created_at"],
           usage=record["usage"], reasoning=record["reasoning"],
           incomplete=record["incomplete"], tool_exchange=record["tool_exchange"],
           after_id=after, version_of=version_of)
    for call_id, text in record.get("results", {}).items():
        db.execute_sql('INSERT OR IGNORE INTO "tool_results" ("turn_id", "call_id", "content") '
                       'VALUES (?, ?, ?)', (record["id"], call_id, text))
    for item in record.get("files", ()):
        _insert_file(db, record["id"], item)


def added_files(db: peewee.Database, record: dict[str, Any], origin: str) -> bool:
    """Files a later import on another machine added to a turn: appended after the turn's
    files here, dated as they were there. One the turn has already (by its id, or by its
    SHA-256: this machine imported the same file) is not added again; a turn not here
    (deleted here) takes none. False when nothing was added."""
    added = False
    for item in record["files"]:
        lacking = db.execute_sql(  # the turn is here, without this file
            'SELECT 1 FROM "turns" t WHERE t."id" = ? AND NOT EXISTS (SELECT 1 FROM '
            '"turn_attachments" a WHERE a."gid" = ? OR (a."turn_id" = t."id" AND '
            'a."original" = ?))', (record["id"], item["id"], item["original"])).fetchone()
        if lacking is None:
            continue
        (position,) = db.execute_sql('SELECT coalesce(max("position") + 1, 0) FROM '
                                     '"turn_attachments" WHERE "turn_id" = ?',
                                     (record["id"],)).fetchone()
        _insert_file(db, record["id"], {**item, "position": position})
        journal(db, record, origin, item["id"])
        added = True
    return added


def _insert_file(db: peewee.Database, turn_id: str, item: dict[str, Any]) -> None:
    values = {**item, "gid": item["id"], "turn_id": turn_id}
    del values["id"]
    columns = ", ".join(f'"{c}"' for c in values)
    db.execute_sql(f'INSERT INTO "turn_attachments" ({columns}) VALUES '
                   f'({", ".join("?" * len(values))})', tuple(values.values()))


def _take_ordinal(db: peewee.Database, cid: int, hlc: str) -> int:
    """The next turn number of conversation `cid`; the conversation was last active when
    the turn was made on its machine (the clock reading's time), not when it arrived, so it
    sorts and reads alike on every machine."""
    (ordinal,) = db.execute_sql('SELECT "next_ordinal" FROM "conversations" WHERE "id" = ?',
                                (cid,)).fetchone()
    db.execute_sql('UPDATE "conversations" SET "next_ordinal" = ?, "updated_at" = '
                   'max("updated_at", ?) WHERE "id" = ?', (ordinal + 1, clock_time(hlc), cid))
    return int(ordinal)


def clock_time(hlc: str) -> str:
    """When a clock reading ("<milliseconds>-<counter>-<node>") was made, as the store
    writes times (ISO 8601, UTC, microseconds)."""
    millis = int(hlc.split("-", 1)[0])
    return datetime.fromtimestamp(millis / 1000, UTC).isoformat(timespec="microseconds")


def make_fork(db: peewee.Database, host: int, loser: str, place: str | None,
              machine: str) -> int:
    """The fork holding `loser` (a turn that lost its place in `host` to an earlier one),
    made alike on every machine: copies of the turns before it (new ids derived from the
    fork's and theirs, the first version of each), the conversation's settings."""
    gid = derived_id("fork", loser)
    found = conversation_id(db, gid)
    if found is not None:
        return found
    source = ConversationRow.select().where(ConversationRow.id == host).get(db)
    # It branches where the turn that kept the place stands (or is about to).
    winner = db.execute_sql(
        'SELECT "ordinal" FROM "turns" WHERE "conversation_id" = ? AND "after_id" IS ? AND '
        '"version_of" IS NULL AND "id" != ? ORDER BY "ordinal" LIMIT 1',
        (host, place, loser)).fetchone()
    fork = insert(db, ConversationRow, title=source.title, system_prompt=source.system_prompt,
                  model=source.model, settings=source.settings, created_at=rows.now_iso(),
                  updated_at=rows.now_iso(), title_source=source.title_source,
                  source=source.source, source_model=source.source_model, gid=gid,
                  folder=source.folder_id, next_ordinal=source.next_ordinal)
    insert(db, ForkRow, conversation=fork.id, source_id=host, continued_on=machine,
           at_ordinal=winner[0] if winner is not None else source.next_ordinal)
    chain = []
    while place is not None:
        chain.append(place)
        above = _turn_row(db, place)
        place = above[2] if above is not None else None
    previous = None
    for original in reversed(chain):
        row = TurnRow.select().where(TurnRow.id == original).first(db)
        if row is None:
            continue
        copy = derived_id(gid, original)
        insert(db, TurnRow, id=copy, conversation=fork.id, ordinal=row.ordinal,
               question=row.question, answer=row.answer, model=row.model,
               finish_reason=row.finish_reason, created_at=row.created_at, usage=row.usage,
               reasoning=row.reasoning, incomplete=row.incomplete,
               tool_exchange=row.tool_exchange, after_id=previous, version_of=None)
        db.execute_sql('INSERT OR IGNORE INTO "sync_copies" VALUES (?, ?)', (copy, original))
        previous = copy
    return int(fork.id)


def move_branch(db: peewee.SqliteDatabase, host: int, first: str, fork: int) -> None:
    """Move turn `first`, its versions and every turn after them from `host` to `fork`
    (their ids, ordinals and attachments unchanged; the search index follows)."""
    members, frontier = {first}, [first]
    while frontier:
        found = db.execute_sql(
            'SELECT "id", "version_of" FROM "turns" WHERE "conversation_id" = ? AND ("after_id" '
            'IN (SELECT value FROM json_each(?)) OR "version_of" IN (SELECT value FROM '
            'json_each(?)))', (host, json.dumps(frontier), json.dumps(frontier))).fetchall()
        new = [(t, v) for t, v in found if t not in members]
        members |= {t for t, _ in new}
        frontier = [t for t, v in new if v is None]
    _search_follows_moves(db)
    ids = json.dumps(sorted(members))
    db.execute_sql('UPDATE "turns" SET "conversation_id" = ? WHERE "id" IN (SELECT value FROM '
                   'json_each(?))', (fork, ids))
    db.execute_sql('UPDATE "supersedes" SET "conversation_id" = ? WHERE "by_turn_id" IN (SELECT '
                   'value FROM json_each(?))', (fork, ids))


def _search_follows_moves(db: peewee.SqliteDatabase) -> None:
    """A temporary trigger (this connection's) that moves a turn's search entry with it."""
    body = [_body(search.PART_REMOVED_TRIGGER), _body(search.PART_ADDED_TRIGGER)]
    db.execute_sql('CREATE TEMP TRIGGER IF NOT EXISTS "sync_turn_moved" AFTER UPDATE OF '
                   f'"conversation_id" ON main."turns" BEGIN {" ".join(body)} END')


def _body(trigger: str) -> str:
    return trigger[trigger.index(" BEGIN ") + 7:trigger.rindex(" END")]


# ---------------------------------------------------------------------- versions
def version(db: peewee.Database, record: dict[str, Any], origin: str) -> None:
    by = _turn_row(db, record["by"])
    if by is None or _turn_row(db, record["turn"]) is None:
        raise refuse(record, "a version of a turn never seen here")
    root = by[3] or record["by"]
    journal(db, record, origin, root, json.dumps({"turn": record["turn"], "by": record["by"]}))
    settle_versions(db, root)


def settle_versions(db: peewee.Database, root: str) -> None:
    """Make the group's active version the one its latest version record names (its
    first turn when none does), by appended supersede records (this machine's own)."""
    members = [t for (t,) in db.execute_sql(
        'SELECT "id" FROM "turns" WHERE "id" = ? OR "version_of" = ? ORDER BY "ordinal"',
        (root, root))]
    if len(members) < 2:
        return
    winner = root
    for (value,) in db.execute_sql('SELECT "value" FROM "sync_journal" WHERE "subject" = ? AND '
                                   "\"kind\" IN ('version', 'use_version') ORDER BY \"hlc\" "
                                   "DESC", (root,)):
        chosen = json.loads(value).get("by")
        if chosen in members:
            winner = chosen
            break
    cid = _turn_row(db, root)[0]
    hidden = versions.read(db, cid).superseded
    active = [m for m in members if m not in hidden]
    if active == [winner]:
        return
    for member in active:
        if member != winner:
            versions.append(db, cid, member, winner)
    if winner not in active:
        versions.append(db, cid, next(m for m in members if m != winner), winner)


# ------------------------------------------------------------------ side questions
_SIDE = ("question", "answer", "model", "created_at", "usage", "body_bytes", "input_tokens",
         "tokens_exact", "sent", "summarized", "left_out", "side_ids", "conversation_id")
_RUNS = ("sent", "summarized", "left_out")
_SIDE_SQL = ", ".join(f'"{c}"' for c in _SIDE)


def side_record(db: peewee.Database, side_id: str) -> dict[str, Any] | None:
    """A side question's record: the turns it carried by id (ordinals are this machine's),
    its usage without the mark that it was counted here (it is counted where it was spent)."""
    row = db.execute_sql(f'SELECT {_SIDE_SQL} FROM '
                         '"side_questions" WHERE "id" = ?', (side_id,)).fetchone()
    if row is None:
        return None
    record = dict(zip(_SIDE, row, strict=True))
    cid = record.pop("conversation_id")
    ids = dict(db.execute_sql('SELECT "ordinal", "id" FROM "turns" WHERE "conversation_id" = ?',
                              (cid,)).fetchall())
    for name in _RUNS:
        record[name] = [ids[o] for o in rows.expand_runs(record[name]) if o in ids]
    record["side_ids"] = json.loads(record["side_ids"])
    record["tokens_exact"] = bool(record["tokens_exact"])
    if record["usage"]:
        usage = json.loads(record["usage"])
        usage.pop(rows.COUNTED, None)
        record["usage"] = json.dumps(usage) if usage else None
    return record


def side(db: peewee.Database, record: dict[str, Any], origin: str) -> bool:
    """Keep another machine's side question (once); False when it was here already."""
    journal(db, record, origin, record["id"])
    if db.execute_sql('SELECT 1 FROM "side_questions" WHERE "id" = ?',
                      (record["id"],)).fetchone() is not None:
        return False
    cid = _needed_conversation(db, record)
    ordinals = dict(db.execute_sql('SELECT "id", "ordinal" FROM "turns" WHERE '
                                   '"conversation_id" = ?', (cid,)).fetchall())
    values = {name: record[name] for name in _SIDE[:8]}
    values["tokens_exact"] = int(bool(values["tokens_exact"]))
    for name in _RUNS:
        values[name] = json.dumps(ordinal_ranges(
            sorted(ordinals[t] for t in record[name] if t in ordinals)))
    values.update(side_ids=json.dumps(record["side_ids"]), conversation_id=cid, id=record["id"])
    columns = ", ".join(f'"{c}"' for c in values)
    db.execute_sql(f'INSERT INTO "side_questions" ({columns}) VALUES '
                   f'({", ".join("?" * len(values))})', tuple(values.values()))
    return True


# ------------------------------------------------- pins, notes, preferences, folders
_TABLES = {"pin": "pins", "note": "notes", "preference": "preferences", "folder": "folders"}


def row_kind(db: peewee.Database, record: dict[str, Any], origin: str) -> bool:
    """Apply a pin, note, preference or folder record; True when it removed one."""
    kind, gid = record["kind"], record["id"]
    assert kind in ROW_KINDS
    table = _TABLES[kind]
    text = "" if kind == "folder" else ', "text", "conversation_id"' if kind in (
        "pin", "note") else ', "text", NULL'
    found = db.execute_sql(f'SELECT "id"{text} FROM "{table}" WHERE "gid" = ?',
                           (gid,)).fetchone()
    journal(db, record, origin, gid)
    if record.get("removed") is True:
        db.execute_sql(f'DELETE FROM "{table}" WHERE "gid" = ?', (gid,))
        db.execute_sql('INSERT OR IGNORE INTO "sync_tombstones" VALUES (?)', (gid,))
        if found is not None and kind != "folder":  # and the versions requests kept of it
            proofs.forget_item(db, kind, str(found[0]), found[2])
        return found is not None
    values = _row_values(db, record)
    if found is None:
        values["gid"] = gid
        columns = ", ".join(f'"{c}"' for c in values)
        db.execute_sql(f'INSERT INTO "{table}" ({columns}) VALUES '
                       f'({", ".join("?" * len(values))})', tuple(values.values()))
    elif newest(db, gid) == record["hlc"]:  # the latest reading is this record's
        values.pop("created_at", None)
        sets = ", ".join(f'"{c}" = ?' for c in values)
        db.execute_sql(f'UPDATE "{table}" SET {sets} WHERE "gid" = ?', (*values.values(), gid))
        if kind != "folder":  # what it took out goes from the versions requests kept too
            proofs.forget_item(db, kind, str(found[0]), found[2], old=found[1],
                               new=record["text"])
    return False


def _row_values(db: peewee.Database, record: dict[str, Any]) -> dict[str, Any]:
    kind = record["kind"]
    if kind == "folder":
        return {"name": unique_name(db, "folders", record),
                "created_at": record["created_at"]}
    values: dict[str, Any] = {"text": record["text"], "created_at": record["created_at"]}
    if kind == "pin":
        values.update(kind=record["pin_kind"], sources=json.dumps(record["sources"]))
    else:
        values["priority"] = record["priority"]
    if kind in ("pin", "note"):
        values["conversation_id"] = _needed_conversation(db, record)
    return values


__all__ = ["SyncRecordInvalid", "conversation", "derived_id", "journal", "make_fork",
           "move_branch", "newest", "row_kind", "settle_versions", "turn", "version"]


def unique_name(db: peewee.Database, table: str, record: dict[str, Any]) -> str:
    """Two machines' folders (or assistants) of one name: the one made first by clock
    reading (then by id) keeps it, the other is told apart by its id's start, on every
    machine alike (one here that loses is renamed so)."""
    name, gid = record["name"], record["id"]
    rival = db.execute_sql(f'SELECT "gid" FROM "{table}" WHERE "name" = ? AND "gid" IS NOT ?',
                           (name, gid)).fetchone()
    if rival is None:
        return name
    if (_made(db, rival[0]) or "~", rival[0]) < (_made(db, gid) or record["hlc"], gid):
        return f"{name} ({gid[:6]})"
    db.execute_sql(f'UPDATE "{table}" SET "name" = ? WHERE "gid" = ?',
                   (f"{name} ({rival[0][:6]})", rival[0]))
    return name


def _made(db: peewee.Database, gid: str) -> str | None:
    """The clock reading a record's first journal row has (when it was made, or came)."""
    found = db.execute_sql('SELECT min("hlc") FROM "sync_journal" WHERE "gid" = ?',
                           (gid,)).fetchone()[0]
    return None if found is None else str(found)


# ---------------------------------------------------------------------- assistants
# An assistant travels whole: its setup (tool servers by name only, its profile by name),
# its folder by id, its files by SHA-256 (their bytes travel as blobs). The later clock
# reading wins; a name taken here by another assistant gets the id's start after it.
_ASSISTANT = ("name", "icon", "position", "system_prompt", "profile", "model", "sampling",
              "pins", "notes", "tools", "created_at", "updated_at")
_ASSISTANT_SQL = ", ".join(f'a."{c}"' for c in _ASSISTANT)
_FILE = attachments.COLUMNS


def _quoted(names: Any) -> str:
    return ", ".join(f'"{c}"' for c in names)


def assistant_record(db: peewee.Database, gid: str) -> dict[str, Any] | None:
    row = db.execute_sql(f'SELECT a."id", {_ASSISTANT_SQL}, f."gid" FROM "assistants" a '
                         'LEFT JOIN "folders" f ON f."id" = a."folder_id" WHERE a."gid" = ?',
                         (gid,)).fetchone()
    if row is None:
        return None
    record = dict(zip(_ASSISTANT, row[1:-1], strict=True))
    record["folder"] = row[-1]
    files = db.execute_sql(f'SELECT {_quoted(_FILE)} FROM '
                           '"assistant_files" WHERE "assistant_id" = ? ORDER BY "position"',
                           (row[0],)).fetchall()
    record["files"] = [{"id": f"{gid}.{f[0]}", **dict(zip(_FILE, f, strict=True)),
                        "added_at": None} for f in files]
    return record


def assistant_mark(db: peewee.Database, gid: str) -> str:
    """What the journal keeps of an assistant's state here (a digest, no text): a change
    is journaled when the state no longer matches the latest mark."""
    record = assistant_record(db, gid)
    if record is None:
        return json.dumps({"removed": True})
    text = json.dumps(record, sort_keys=True, ensure_ascii=False)
    return json.dumps({"state": hashlib.sha256(text.encode()).hexdigest()})


def assistant(db: peewee.Database, record: dict[str, Any], origin: str) -> None:
    gid = record["id"]
    found = db.execute_sql('SELECT "id" FROM "assistants" WHERE "gid" = ?', (gid,)).fetchone()
    newer = record["hlc"] > newest(db, gid)
    if record.get("removed") is True:
        db.execute_sql('DELETE FROM "assistants" WHERE "gid" = ?', (gid,))
        db.execute_sql('INSERT OR IGNORE INTO "sync_tombstones" VALUES (?)', (gid,))
        attachments.sweep(db)
    elif found is None or newer:
        name = unique_name(db, "assistants", record)
        values = {c: record[c] for c in _ASSISTANT}
        values.update(name=name, folder_id=_folder_id(db, record["folder"]))
        if found is None:
            values["gid"] = gid
            db.execute_sql(f'INSERT INTO "assistants" ({_quoted(values)}) VALUES '
                           f'({", ".join("?" * len(values))})', tuple(values.values()))
            found = db.execute_sql('SELECT "id" FROM "assistants" WHERE "gid" = ?',
                                   (gid,)).fetchone()
        else:
            sets = ", ".join(f'"{c}" = ?' for c in values)
            db.execute_sql(f'UPDATE "assistants" SET {sets} WHERE "id" = ?',
                           (*values.values(), found[0]))
        db.execute_sql('DELETE FROM "assistant_files" WHERE "assistant_id" = ?', (found[0],))
        for item in record["files"]:
            file_values = [item[c] for c in _FILE]
            db.execute_sql(f'INSERT INTO "assistant_files" ("assistant_id", '
                           f'{_quoted(_FILE)}) VALUES '
                           f'(?, {", ".join("?" * len(_FILE))})', (found[0], *file_values))
        attachments.sweep(db)
    journal(db, record, origin, gid, assistant_mark(db, gid))


def conversation_assistant_record(db: peewee.Database, conv: str | None
                                  ) -> dict[str, Any] | None:
    row = db.execute_sql('SELECT a."gid", x."name" FROM "conversation_assistants" x JOIN '
                         '"conversations" c ON c."id" = x."conversation_id" LEFT JOIN '
                         '"assistants" a ON a."id" = x."assistant_id" WHERE c."gid" = ?',
                         (conv,)).fetchone()
    return None if row is None else {"assistant": row[0], "name": row[1]}


def conversation_assistant(db: peewee.Database, record: dict[str, Any], origin: str) -> None:
    """Which assistant a conversation started from (kept once; the assistant may be gone
    here: the name stays, as when it is deleted)."""
    if record["id"] != f"{record['conv']}.assistant":
        raise refuse(record, "its id is not its conversation's")
    cid = _needed_conversation(db, record)
    found = db.execute_sql('SELECT "id" FROM "assistants" WHERE "gid" = ?',
                           (record["assistant"],)).fetchone()
    db.execute_sql('INSERT OR IGNORE INTO "conversation_assistants" ("conversation_id", '
                   '"assistant_id", "name") VALUES (?, ?, ?)',
                   (cid, found[0] if found else None, record["name"]))
    journal(db, record, origin, record["id"])
