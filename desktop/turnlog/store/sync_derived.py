"""What sync carries of the data derived from the log: rolling summaries and their kept
versions, request records (with the texts and tool set their proof keeps) and failed side
requests. Records name turns, summaries and memory items by global id; each machine turns
them into its own row ids and ordinals, so a request record proves its body there as it
does where it was made. Runs inside the caller's transaction (sync_feed.py), with the
journaling triggers quiet.

- A summary arrives as it was written, its span as its machine numbered the turns (the
  text a request carried names that span); a summary of a turn deleted (everywhere or
  here) is kept out. An undone edit is marked so. A version removed on its machine comes
  as a delete everywhere of its id (`erase`): the records that carried it forget their
  body hash, as `forget_earlier_summaries` does.
- A request record's verbatim run is found again by its turns' ids: the version state it
  was made in is the newest one here whose run has the same turns (`run`, a SHA-256 of
  their ids). A text of a pin, note or preference deleted here is kept as deleted. A
  conversation keeps at most as many as a machine keeps of its own (`cap_requests`).
- Neither a request record nor a failed side request counts in this machine's usage:
  each machine counts what it spent.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from typing import Any

import peewee

from ..core.proof import NOTE_TEXT, PIN_TEXT, PREFERENCE_TEXT
from ..core.versions import Supersede, Versions
from . import carried_records, deletion, proofs, rows, sync_apply
from .sync_records import MAX_LIST, MAX_RECORD_BYTES, refuse

MAX_COVERED_IDS = 1_000_000  # characters of covered ids sent along; more: "[]" (not kept)
_MARKS_TRIED = 200  # version states looked through for a request's run
_SUMMARY = ("first_ordinal", "last_ordinal", "covered_count", "covered_digest", "covered_ids",
            "content", "model", "settings_key", "created_at", "content_bytes",
            "content_tokens", "usages", "warnings")
_REQUEST = ("started_at", "model", "outcome", "status", "body_bytes", "max_bytes",
            "input_tokens", "token_budget", "tokens_exact", "usage", "extra_usage",
            "duration_s", "first_token_s", "turn_id", "attempt", "body_format", "sha256",
            "run_first", "run_last", "run_count", "options", "continued", "prefill",
            "profile", "prices", "output_estimate", "round_usage")
_RUNS = ("sent", "summarized", "left_out")
_ITEM_TABLES = {PIN_TEXT: "pins", NOTE_TEXT: "notes", PREFERENCE_TEXT: "preferences"}
Gone = Callable[[str | None], bool]


def _cols(names: tuple[str, ...]) -> str:
    return ", ".join(f'"{n}"' for n in names)


def _local(db: peewee.Database, table: str, gid: str | None) -> int | None:
    if gid is None:
        return None
    row = db.execute_sql(f'SELECT "id" FROM "{table}" WHERE "gid" = ?', (gid,)).fetchone()
    return None if row is None else int(row[0])


def _gid(db: peewee.Database, table: str, row_id: Any) -> str | None:
    if row_id is None:
        return None
    row = db.execute_sql(f'SELECT "gid" FROM "{table}" WHERE "id" = ?', (row_id,)).fetchone()
    return None if row is None else str(row[0])


def _conversation(db: peewee.Database, record: dict[str, Any]) -> int:
    cid = _local(db, "conversations", record.get("conv"))
    if cid is None:
        raise refuse(record, "its conversation was never seen here")
    return cid


# ------------------------------------------------------------------------- runs
def id_runs(db: peewee.Database, cid: int, runs: str) -> list[list[str]]:
    """Ordinal runs (`[[first, last], ...]` JSON) as runs of the turns' ids at their ends
    (the first and last turn stored within each run; a run holding none is left out)."""
    out = []
    for first, last in json.loads(runs):
        ends = [db.execute_sql(
            f'SELECT "id" FROM "turns" WHERE "conversation_id" = ? AND "ordinal" BETWEEN ? '
            f'AND ? ORDER BY "ordinal" {order} LIMIT 1', (cid, first, last)).fetchone()
            for order in ("ASC", "DESC")]
        if ends[0] is not None and ends[1] is not None:
            out.append([ends[0][0], ends[1][0]])
    if len(out) > MAX_LIST:  # more than a record may carry: the span they lie in
        out = [[out[0][0], out[-1][1]]]
    return out


def ordinal_runs(db: peewee.Database, runs: list[list[str]]) -> str:
    """Runs of turn ids as this machine's ordinal runs (a run whose end is not here is
    left out)."""
    out = []
    for ends in runs:
        found = [db.execute_sql('SELECT "ordinal" FROM "turns" WHERE "id" = ?',
                                (end,)).fetchone() for end in ends]
        if found[0] is not None and found[1] is not None:
            out.append([found[0][0], found[1][0]])
    return json.dumps(out)


def _run_digest(db: peewee.Database, cid: int, first: int | None, last: int | None,
                mark: int) -> str | None:
    """The SHA-256 of the ids of the turns a request's verbatim run holds (as
    `proofs.active_run` finds them, without reading their text)."""
    if first is None or last is None:
        return None
    ids = [t for (t,) in db.execute_sql(
        'SELECT "id" FROM "turns" WHERE "conversation_id" = ? AND "ordinal" BETWEEN ? AND ? '
        'ORDER BY "ordinal"', (cid, first, last))]
    if mark:
        records = [Supersede(t, by, when) for t, by, when in db.execute_sql(
            'SELECT "turn_id", "by_turn_id", "created_at" FROM "supersedes" WHERE '
            '"conversation_id" = ? AND "id" <= ? ORDER BY "id"', (cid, mark))]
        named = list({r.turn_id for r in records} | {r.by_turn_id for r in records})
        ordinals = dict(db.execute_sql(
            'SELECT "id", "ordinal" FROM "turns" WHERE "id" IN (SELECT value FROM '
            'json_each(?))', (json.dumps(named),)).fetchall())
        hidden = Versions(records, ordinals).superseded
        ids = [t for t in ids if t not in hidden]
    return hashlib.sha256("\n".join(ids).encode()).hexdigest()


# ----------------------------------------------------------------------- deletes
def of_turns(db: peewee.Database, cid: int, ids: list[str], *, keep_pins: bool) -> list[str]:
    """The ids of what a delete everywhere of these turns takes along from every machine
    (and from every live object of the sync): the summaries covering them, the side
    questions and failed side requests that carried them, the pins taken from them
    (unless kept) and the request records that kept such a pin's text."""
    listed = json.dumps(ids)
    out = [g for (g,) in db.execute_sql(
        'SELECT DISTINCT s."gid" FROM "summaries" s JOIN "turns" t ON t."conversation_id" = '
        's."conversation_id" AND t."ordinal" BETWEEN s."first_ordinal" AND s."last_ordinal" '
        'WHERE t."id" IN (SELECT value FROM json_each(?))', (listed,))]
    ordinals = [o for (o,) in db.execute_sql(
        'SELECT "ordinal" FROM "turns" WHERE "id" IN (SELECT value FROM json_each(?))',
        (listed,))]
    out += deletion.side_carrying(db, cid, ordinals)
    out += [g for g in (_gid(db, "side_attempts", a) for a in
                        deletion.attempts_carrying(db, cid, ordinals)) if g is not None]
    if keep_pins:
        return out
    pins = deletion.pins_from(db, cid, ids)
    out += [p.gid for p in pins if p.gid is not None]
    out += [g for (g,) in db.execute_sql(
        'SELECT r."gid" FROM "requests" r WHERE r."texts_id" IN (SELECT m."set_id" FROM '
        '"text_set_members" m JOIN "kept_texts" k ON k."id" = m."text_id" WHERE k."kind" = ? '
        'AND k."conversation_id" = ? AND k."source" IN (SELECT value FROM json_each(?)))',
        (PIN_TEXT, cid, json.dumps([str(p.id) for p in pins])))]
    return out


# --------------------------------------------------------------------- summaries
def summary_record(db: peewee.Database, gid: str) -> dict[str, Any] | None:
    row = db.execute_sql(f'SELECT {_cols(_SUMMARY)}, "replaced_id", "edited_from", "undone" '
                         'FROM "summaries" WHERE "gid" = ?', (gid,)).fetchone()
    if row is None:
        return None
    record = dict(zip(_SUMMARY, row, strict=False))
    if len(record["covered_ids"]) > MAX_COVERED_IDS:
        record["covered_ids"] = "[]"
    record.update(replaced=_gid(db, "summaries", row[-3]),
                  edited_from=_gid(db, "summaries", row[-2]), undone=bool(row[-1]))
    return record


def summary(db: peewee.Database, record: dict[str, Any], gone: Gone) -> bool:
    """Apply a summary record; False when it was passed over (of a deleted turn)."""
    gid = record["id"]
    found = _local(db, "summaries", gid)
    if found is not None:
        if record["hlc"] > sync_apply.newest(db, gid):  # an edit undone (or not) later
            db.execute_sql('UPDATE "summaries" SET "undone" = ? WHERE "id" = ?',
                           (int(bool(record["undone"])), found))
        return True
    try:
        covered = json.loads(record["covered_ids"])
    except ValueError as err:
        raise refuse(record, "its covered ids are not JSON") from err
    if not isinstance(covered, list) or any(gone(t) for t in covered if isinstance(t, str)):
        return False
    values = {name: record[name] for name in _SUMMARY}
    values.update(conversation_id=_conversation(db, record), gid=gid,
                  replaced_id=_local(db, "summaries", record["replaced"]),
                  edited_from=_local(db, "summaries", record["edited_from"]),
                  undone=int(bool(record["undone"])))
    db.execute_sql(f'INSERT INTO "summaries" ({_cols(tuple(values))}) VALUES '
                   f'({", ".join("?" * len(values))})', tuple(values.values()))
    return True


def erase(db: peewee.Database, ids: str) -> None:
    """The summaries these ids (JSON) name, deleted everywhere: gone, and the records that
    carried them can no longer prove their body."""
    within = '(SELECT value FROM json_each(?))'
    db.execute_sql('UPDATE "requests" SET "sha256" = NULL WHERE "summary_id" IN (SELECT "id" '
                   f'FROM "summaries" WHERE "gid" IN {within})', (ids,))
    db.execute_sql(f'DELETE FROM "summaries" WHERE "gid" IN {within}', (ids,))


# ---------------------------------------------------------------- request records
def request_record(db: peewee.Database, gid: str) -> dict[str, Any] | None:
    row = db.execute_sql(
        f'SELECT {_cols(_REQUEST)}, {_cols(_RUNS)}, "conversation_id", "summary_id", '
        '"tools_digest", "texts_id", "run_first_ordinal", "run_last_ordinal", '
        '"version_mark" FROM "requests" WHERE "gid" = ?', (gid,)).fetchone()
    if row is None:
        return None
    record = dict(zip(_REQUEST, row, strict=False))
    runs = row[len(_REQUEST):len(_REQUEST) + 3]
    cid, summary_id, digest, texts_id, first, last, mark = row[len(_REQUEST) + 3:]
    record.update({name: id_runs(db, cid, text) for name, text in zip(_RUNS, runs,
                                                                       strict=True)})
    record["summary"] = _gid(db, "summaries", summary_id)
    record["tools"] = None if digest is None else db.execute_sql(
        'SELECT "definitions" FROM "tool_sets" WHERE "digest" = ?', (digest,)).fetchone()[0]
    record["texts"] = _texts_out(db, texts_id)
    record["run"] = _run_digest(db, cid, first, last, mark)
    if len(json.dumps(record, ensure_ascii=False).encode()) > MAX_RECORD_BYTES - 4096:
        # Too big to travel whole (a record over the bound stops every machine's sync):
        # it goes with its numbers and references only, and cannot prove its body there.
        record.update(texts=None, tools=None, sha256=None)
    return record


def _texts_out(db: peewee.Database, set_id: int | None) -> list[list[Any]] | None:
    """A text set as [kind, the item's global id (None: the system prompt, or an item no
    longer kept), text (None: deleted)]."""
    if set_id is None:
        return None
    (listed,) = db.execute_sql('SELECT "members" FROM "text_sets" WHERE "id" = ?',
                               (set_id,)).fetchone()
    out: list[list[Any]] = []
    for kind, text_id in json.loads(listed):
        row = None if text_id is None else db.execute_sql(
            'SELECT "source", "text" FROM "kept_texts" WHERE "id" = ?', (text_id,)).fetchone()
        if row is None:
            out.append([kind, None, None])
            continue
        table = _ITEM_TABLES.get(kind)
        item = _gid(db, table, row[0]) if table is not None and row[0].isdigit() else None
        out.append([kind, item, row[1]])
    return out


def request(db: peewee.Database, record: dict[str, Any], gone: Gone) -> bool:
    """Keep another machine's request record (once); False when it was here already or
    names a turn deleted here or everywhere."""
    if _local(db, "requests", record["id"]) is not None or any(
            gone(record[name]) for name in ("turn_id", "run_first", "run_last")):
        return False
    cid = _conversation(db, record)
    values = {name: record[name] for name in _REQUEST}
    values.update({name: ordinal_runs(db, record[name]) for name in _RUNS})
    first, last = (_ordinal(db, record["run_first"]), _ordinal(db, record["run_last"]))
    summary_id = _local(db, "summaries", record["summary"])
    if record["summary"] is not None and summary_id is None:
        values["sha256"] = None  # a part of its body is not here: it cannot prove it
    texts = None
    if record["texts"] is not None:
        texts = [(kind, _source(db, kind, item, gone), text)
                 for kind, item, text in record["texts"]]
        if any(source is None and text is not None for _k, source, text in texts):
            values["sha256"] = None  # a text deleted here: its hash would fingerprint it
        texts = [(kind, source or "", text if source is not None else None)
                 for kind, source, text in texts]
    values.update(
        conversation_id=cid, gid=record["id"], run_first_ordinal=first,
        run_last_ordinal=last, summary_id=summary_id,
        version_mark=_mark(db, cid, first, last, record["run"]),
        tools_digest=carried_records.tool_set(db, record["tools"]),
        texts_id=None if texts is None else proofs.text_set(db, cid, texts))
    for name in ("tokens_exact", "prefill"):
        values[name] = int(bool(values[name]))
    db.execute_sql(f'INSERT INTO "requests" ({_cols(tuple(values))}) VALUES '
                   f'({", ".join("?" * len(values))})', tuple(values.values()))
    return True


def cap_requests(db: peewee.Database, conversations: Iterable[str | None], keep: int) -> int:
    """Bound the request records of these conversations (global ids) as a machine bounds
    its own: past `keep`, the oldest (by when they were sent, from whichever machine)
    give way; the texts and tool sets only they kept go with them (the schema's
    triggers). A record dropped here stays journaled as applied: it does not come back.
    Returns how many were dropped."""
    dropped = 0
    for gid in sorted(c for c in set(conversations) if c is not None):
        cid = _local(db, "conversations", gid)
        if cid is None:
            continue
        dropped += db.execute_sql(
            'DELETE FROM "requests" WHERE "id" IN (SELECT "id" FROM "requests" WHERE '
            '"conversation_id" = ? ORDER BY "started_at" DESC, "id" DESC LIMIT -1 OFFSET ?)',
            (cid, keep)).rowcount
    return dropped


def _ordinal(db: peewee.Database, turn_id: str | None) -> int | None:
    if turn_id is None:
        return None
    row = db.execute_sql('SELECT "ordinal" FROM "turns" WHERE "id" = ?', (turn_id,)).fetchone()
    return None if row is None else int(row[0])


def _source(db: peewee.Database, kind: str, item: str | None, gone: Gone) -> str | None:
    """The local source of a kept text (None: its item is not here, or was deleted)."""
    table = _ITEM_TABLES.get(kind)
    if table is None:
        return ""  # the system prompt: its conversation's
    if item is None or gone(item):
        return None
    found = _local(db, table, item)
    return None if found is None else str(found)


def _mark(db: peewee.Database, cid: int, first: int | None, last: int | None,
          run: str | None) -> int:
    """The newest version state here in which the run from `first` to `last` holds the
    turns the record's machine sent (`run`); the newest state when none does."""
    marks = [m for (m,) in db.execute_sql(
        'SELECT "id" FROM "supersedes" WHERE "conversation_id" = ? ORDER BY "id" DESC LIMIT ?',
        (cid, _MARKS_TRIED))]
    newest = marks[0] if marks else 0
    if run is None:
        return newest
    for mark in [*marks, 0]:
        if _run_digest(db, cid, first, last, mark) == run:
            return mark
    return newest


# --------------------------------------------------------- failed side requests
def side_attempt_record(db: peewee.Database, gid: str) -> dict[str, Any] | None:
    row = db.execute_sql('SELECT "conversation_id", "created_at", "outcome", "usage", '
                         '"model", "carried" FROM "side_attempts" WHERE "gid" = ?',
                         (gid,)).fetchone()
    if row is None:
        return None
    cid, created_at, outcome, usage, model, carried = row
    if usage:  # counted where it was spent, not where it arrives
        found = json.loads(usage)
        found.pop(rows.COUNTED, None)
        usage = json.dumps(found) if found else None
    return {"created_at": created_at, "outcome": outcome, "usage": usage, "model": model,
            "carried": id_runs(db, cid, carried)}


def side_attempt(db: peewee.Database, record: dict[str, Any], gone: Gone) -> bool:
    if _local(db, "side_attempts", record["id"]) is not None or any(
            gone(end) for ends in record["carried"] for end in ends):
        return False
    db.execute_sql(
        'INSERT INTO "side_attempts" ("conversation_id", "created_at", "outcome", "usage", '
        '"model", "carried", "gid") VALUES (?, ?, ?, ?, ?, ?, ?)',
        (_conversation(db, record), record["created_at"], record["outcome"], record["usage"],
         record["model"], ordinal_runs(db, record["carried"]), record["id"]))
    return True
